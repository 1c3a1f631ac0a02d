/**
 * Lineage in the library's detail panel, over the real backend: a song extended (the extend made
 * from its output 1 by `{ $output }`) shows "Made from" the song with the output used, and the
 * song "Made into" the extend; each entry opens that task's detail. Deleting the song leaves the
 * extend (its detail open, without a reload) saying it was made from a task since deleted, and a
 * re-run of the song (whose queued event names no result) saying it was made again from its
 * inputs: both from the song's title the library kept (Task.parentGone).
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { makeExtendedSong } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const TIDE_SONG = {
  title: 'Tide song',
  style: 'folk, fiddle',
  lyrics: '[verse]\nthe tide comes in',
  seconds: 3,
};

function detailOf(page: Page, task: Task) {
  return page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`);
}

async function openDetail(page: Page, task: Task) {
  await openView(page, 'library');
  await card(page, task.id)
    // a song's name ends with its length
    .getByRole('button', { name: new RegExp(`^Open ${task.title.replace(/[()]/g, '\\$&')}`) })
    .click();
  const detail = detailOf(page, task);
  await detail.waitFor();
  return detail;
}

describe.skipIf(!browserAvailable())('lineage both ways in the detail panel', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let song: Task;
  let extended: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        ({ song, extended } = await makeExtendedSong(rig, TIDE_SONG));
      },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('the extend is made from the song (output 1), the song made into the extend; the links open each other', async () => {
    const { page } = view;
    const detail = await openDetail(page, extended);
    const from = detail.getByTestId('made-from');
    await from.waitFor();
    const items = from.getByTestId('lineage-item');
    expect(await items.count()).toBe(1);
    expect(await items.first().getAttribute('data-task-id')).toBe(song.id);
    expect(await items.first().textContent()).toContain('used output 1');
    await items.first().getByRole('button', { name: song.title }).click();

    const parent = detailOf(page, song);
    await parent.waitFor();
    const into = parent.getByTestId('made-into');
    await into.waitFor();
    expect(await into.getByTestId('lineage-item').getAttribute('data-task-id')).toBe(extended.id);
    expect(await into.textContent()).toContain('from output 1');
    await into.getByRole('button', { name: extended.title }).click();
    await detailOf(page, extended).getByTestId('made-from').waitFor();
  });

  it('once the song is deleted, the extend and the re-run say they were made from a task since deleted', async () => {
    const { page } = view;
    const rerun = await rig.call('tasks.queue', {
      model: 'service/ace-step',
      taskType: 'txt2audio',
      title: 'Tide song again',
      input: song.request.input,
      parentId: song.id,
      parentOutput: null,
    });
    const again = await rig.waitForTask(rerun.id, ['saved']);
    const detail = await openDetail(page, extended);
    await detail.getByTestId('made-from').waitFor();
    // deleted, then deleted for good from Recently deleted
    await rig.call('tasks.delete', { selection: { ids: [song.id] } });
    await rig.call('tasks.deleteForever', { selection: { ids: [song.id] } });
    const unlinked = await rig.call('tasks.get', { id: extended.id });
    expect([unlinked?.parentId, unlinked?.parentOutput, unlinked?.parentGone]).toEqual([
      null,
      0,
      'Tide song',
    ]);
    // the open detail follows without a reload
    const gone = detail.getByTestId('parent-deleted');
    await gone.waitFor();
    expect(await gone.textContent()).toBe('Made from output 1 of “Tide song”, a task since deleted.');
    await detail.getByTestId('made-from').waitFor({ state: 'detached' });

    // the re-run's queued event names no result: the line comes from the library's mark alone
    const events = await rig.call('tasks.events', { id: again.id });
    expect(events.some((e) => e.detail?.includes('Tide song'))).toBe(false);
    await page.reload();
    await page.getByTestId('nav-compose').waitFor();
    const rerunDetail = await openDetail(page, again);
    const rerunGone = rerunDetail.getByTestId('parent-deleted');
    await rerunGone.waitFor();
    expect(await rerunGone.textContent()).toBe(
      'Made again from the inputs of “Tide song”, a task since deleted.',
    );
    expect(await rerunDetail.getByTestId('made-from').count()).toBe(0);
  });
});
