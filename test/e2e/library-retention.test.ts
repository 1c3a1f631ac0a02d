/**
 * Retention and the library's size by kind (issue 22, item 4), in the window over the real
 * backend: the library says its size on disk by kind; Settings › Retention is off and moves
 * nothing until switched on; its preview says what would go (how many, by kind, the space it
 * frees) as the rules change, "at least" past the tasks it looks at; switching on asks with that
 * preview, then moves exactly those tasks to Recently deleted, showing how far it is while it
 * goes on and, at its end, what it moved with an Undo. The library is filled before the backend
 * opens it, with tasks made months ago (the engine's clock is the system's). The engine's preview
 * looks at the oldest 4 tasks here (2,000 in the app) and its run takes one task a quarter second
 * (25 at a time, one after another, in the app), so the run is seen going on.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import { RESTORED_RULE_TEXT } from '../../src/shared/task/retention.ts';
import { imageTask } from '../store/store-fixtures.ts';
import { writePicture } from '../support/pictures.ts';
import { waitUntil } from '../support/wait-until.ts';
import { PICTURE_SIZES, THEMES } from './harness/look-check.ts';
import { FAST_ENGINE_TUNING, type StudioPage, type StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const DAY = 86_400_000;
const SHOTS = join(import.meta.dirname, '../../test-results/screenshots');

/** Pictures made `days` ago, saved with a real PNG; a video that failed; one picture a favourite. */
async function fillOldTasks(libraryDir: string): Promise<number> {
  const store = LibraryStore.open(libraryDir, { idleCheckpointMs: 0 });
  let pictureBytes = 0;
  try {
    const picture = async (id: string, days: number, side: number) => {
      const path = `2026/01/${id.replace(/ /g, '-')}/output-1.png`;
      await mkdir(join(libraryDir, path, '..'), { recursive: true });
      await writePicture(join(libraryDir, path), side, side, 'png');
      const { size } = await stat(join(libraryDir, path));
      store.insertTask({
        ...imageTask({ id, title: id, createdAt: new Date(Date.now() - days * DAY).toISOString() }),
        model: 'service/qwen-image',
        entryId: 'qwen-image/image-edit',
      });
      store.transition(id, 'saved', { patch: { remoteId: `r-${id}` } });
      store.replaceOutputs(id, [
        { kind: 'image', url: `https://example.test/${id}.png`, field: 'image_url' },
      ]);
      store.updateOutput(id, 0, { state: 'saved', path, size, width: side, height: side });
      return size;
    };
    pictureBytes += await picture('Old harbour', 200, 300);
    pictureBytes += await picture('Old lighthouse', 120, 200);
    await picture('Old favourite', 150, 120);
    store.setFavorite('Old favourite', true);
    await picture('New kite', 3, 100);
    // failed tasks made 50 days ago, kept by being on a board: the look test takes some off it
    const keepers = store.createBoard('Keepers').id;
    for (let i = 0; i < 12; i++) {
      const id = `kept-${i}`;
      store.insertTask({
        ...imageTask({ id, title: `Kept ${i}`, createdAt: new Date(Date.now() - 50 * DAY).toISOString() }),
        model: 'service/qwen-image',
        entryId: 'qwen-image/image-edit',
      });
      store.transition(id, 'failed', { patch: { remoteId: `r-${id}` } });
      store.addToBoard(keepers, [id]);
    }
    store.insertTask({
      ...imageTask({
        id: 'Old clip',
        title: 'Old clip',
        createdAt: new Date(Date.now() - 100 * DAY).toISOString(),
      }),
      model: 'service/hunyuan',
      taskType: 'txt2video',
      entryId: 'hunyuan/txt2video',
    });
    store.transition('Old clip', 'failed', { patch: { remoteId: 'r-clip' } });
  } finally {
    store.close();
  }
  return pictureBytes;
}

const section = (page: Page) => page.getByTestId('retention');
const preview = (page: Page) => page.getByTestId('retention-preview');

async function previewSays(page: Page, words: RegExp): Promise<void> {
  await waitUntil(
    async () => words.test((await preview(page).textContent()) ?? ''),
    `the retention preview to say ${words}`,
  );
}

describe.skipIf(!browserAvailable())('retention: off until switched on, previewed, then moved', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let pictureBytes = 0;

  openStudio(
    {
      service: 'service',
      engineTuning: {
        ...FAST_ENGINE_TUNING,
        retention: { previewTasks: 4, batchTasks: 1, batchPauseMs: 250 },
      },
      prepareLibrary: async (dir) => {
        pictureBytes = await fillOldTasks(dir);
      },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('shows the size by kind, previews what would go and moves it only once switched on', async () => {
    const { page } = view;
    await openView(page, 'library');
    const size = page.getByTestId('library-size');
    await size.waitFor();
    expect(await size.textContent()).toMatch(/^On disk: \d+ KB · pictures \d+ KB$/);

    await openView(page, 'settings');
    await expect.poll(() => page.getByTestId('retention-state').textContent()).toBe('Off: nothing is moved.');
    // the rule for a restored task, in the CLI's words (one text)
    expect(await section(page).textContent()).toContain(`${RESTORED_RULE_TEXT}.`);
    // the default rules: 90 days, favourites, boards and results used kept
    const kb = Math.round(pictureBytes / 1024);
    await previewSays(
      page,
      new RegExp(`^Would move 3 tasks to Recently deleted now \\(2 pictures, 1 video\\); frees ${kb} KB`),
    );
    const days = section(page).getByLabel('Move tasks made more than');
    await days.fill('110');
    await previewSays(page, /^Would move 2 tasks .*\(2 pictures\)/);
    // the oldest 4 tasks looked at, and one left: what they say is "at least"
    await days.fill('1');
    await previewSays(
      page,
      /^Would move at least 3 tasks to Recently deleted now \(2 pictures, 1 video\); frees at least \d+ KB once they leave it, after 30 days\.$/,
    );
    await preview(page).scrollIntoViewIfNeeded();
    await shoot(page, 'retention-at-least');
    await days.fill('0');
    await previewSays(page, /^Correct the days to see what would go\.$/);
    expect(await section(page).getByText('Days must be a whole number from 1 to 3650').isVisible()).toBe(
      true,
    );
    await days.fill('90');
    await section(page).getByLabel('Favourites').uncheck();
    await previewSays(page, /^Would move 4 tasks .*\(3 pictures, 1 video\)/);
    await section(page).getByLabel('Every video').check();
    await previewSays(page, /^Would move 3 tasks .*\(3 pictures\)/);
    await section(page).getByLabel('Every video').uncheck();
    await section(page).getByLabel('Favourites').check();
    await previewSays(page, /^Would move 3 tasks/);
    // nothing moved while it was all only previewed
    const inTrash = async () =>
      (await rig.call('tasks.list', { trashed: true, limit: 50 })).items.map((t) => t.title).sort();
    expect(await inTrash()).toEqual([]);

    await section(page).getByRole('button', { name: 'Switch on…' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect.poll(() => dialog.textContent()).toContain('Would move 3 tasks to Recently deleted now');
    expect(await dialog.textContent()).toContain(`${RESTORED_RULE_TEXT}.`);
    await shoot(page, 'retention-confirm');
    await dialog.getByRole('button', { name: 'Switch on and run now' }).click();
    // answered at once: the run goes on, and the section says how far it is
    await section(page)
      .getByTestId('retention-run')
      .getByText(/^Moving old tasks to Recently deleted: [12] so far…/)
      .waitFor();
    // meanwhile the preview says a run is going on, not what the tasks left would give
    expect(await preview(page).textContent()).toBe(
      'A run is moving tasks now: what else would go shows once it has ended.',
    );
    // at its end, wherever the user is: what it moved, with an Undo
    await page.getByText('Retention moved 3 tasks to Recently deleted').waitFor();
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(1);
    expect(await section(page).getByTestId('retention-run').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('retention-state').textContent())
      .toMatch(
        /^On: Move tasks older than 90 days to Recently deleted, except favourites, tasks on a board and results used by another task, once a day\. Last run .*: moved 3\.$/,
      );
    expect(await inTrash()).toEqual(['Old clip', 'Old harbour', 'Old lighthouse']);
    await previewSays(page, /^A run now would move nothing: no ended task is that old/);
    expect(await section(page).getByRole('button', { name: 'Save changes…' }).isDisabled()).toBe(true);

    await openView(page, 'library');
    await expect.poll(() => size.textContent()).toMatch(/ \(\d+ KB of it in Recently deleted\)$/);
  });

  it('looks right at 800 x 600 and 1920 x 1080 in both themes, during a run and after (SHOTS=1)', async () => {
    let shots = 0;
    for (const theme of THEMES) {
      for (const s of PICTURE_SIZES) {
        const shot = await rig.openPage(view.page.context().browser()!, {
          colorScheme: theme,
          viewport: { width: s.width, height: s.height },
        });
        try {
          await openView(shot.page, 'settings');
          await section(shot.page).scrollIntoViewIfNeeded();
          // nothing left to move (of all tasks, or of the oldest 4 the preview looks at)
          await previewSays(shot.page, /^A run now would move nothing/);
          // three tasks taken off their board, and rules of 40 days: a run moves them
          const board = (await rig.call('boards.list', {})).find((b) => b.name === 'Keepers')!;
          const ids = Array.from({ length: 3 }, (_, i) => `kept-${shots * 3 + i}`);
          shots += 1;
          await rig.call('boards.remove', { id: board.id, selection: { ids } });
          const { rules } = await rig.call('retention.get', {});
          await rig.call('retention.set', { ...rules, olderThanDays: 40 });
          await section(shot.page)
            .getByText(/so far…/)
            .waitFor();
          await shot.page.screenshot({ path: join(SHOTS, `retention-running-${s.name}-${theme}.png`) });
          await shot.page.getByText('Retention moved 3 tasks to Recently deleted').waitFor();
          await section(shot.page)
            .getByText(/Last run .*: moved 3\./)
            .waitFor();
          await shot.page.screenshot({ path: join(SHOTS, `retention-settings-${s.name}-${theme}.png`) });
          await openView(shot.page, 'library');
          await shot.page.getByTestId('library-size').waitFor();
          await shot.page.screenshot({ path: join(SHOTS, `retention-library-${s.name}-${theme}.png`) });
        } finally {
          await shot.close();
        }
      }
    }
  });
});

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}
