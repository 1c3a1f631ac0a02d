/**
 * Bulk actions on a library selection, over the real backend and sandbox: favourite (and back),
 * re-run (a confirmation with the total estimate, as the composer prices a draft; Cancel queues
 * nothing; Queue sends one create per task with its lineage; a task with no published price is
 * queued under a budget on the user's word), export (one folder question for all), and delete
 * with the same undo window. Screenshots of the selection toolbar at 800 x 600 and 1920 x 1080 in
 * both themes.
 */
import { readdir } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { estimateCost, formatUsd, type Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { writePicture } from './harness/local-media.ts';
import { inThemeAtEachSize, THEMES } from './harness/look-check.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openLibraryWith, openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = process.env.GALLERY_SHOTS_DIR ?? '/tmp/gallery-shots';

const SONGS = [
  { title: 'Ocean lullaby', style: 'soft piano, ocean waves', seconds: 3 },
  { title: 'Desert rock', style: 'fuzzy guitars, desert rock', seconds: 4 },
  { title: 'City lights', style: 'synthwave, neon', seconds: 5 },
];

async function select(page: Page, tasks: readonly Task[]): Promise<void> {
  for (const task of tasks)
    await card(page, task.id)
      .getByRole('checkbox', { name: `Select ${task.title}` })
      .check();
  await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe(`${tasks.length} selected`);
}

describe.skipIf(!browserAvailable())('gallery: bulk favourite, re-run, export and delete', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;
  const songs: Task[] = [];
  let upscale: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        songs.push(...(await saveSongs(rig, SONGS)));
        const photo = await writePicture(rig.filesDir, 'harbour.png', 320, 240);
        upscale = await rig.call('tasks.queue', {
          model: 'service/image-toolkit',
          taskType: 'upscale',
          title: 'Harbour upscaled',
          input: { image: photo, scale: 2 },
        });
        upscale = await rig.waitForTask(upscale.id, ['saved']);
      },
    },
    async (opened) => {
      ({ browser, rig, view } = opened);
      await openLibraryWith(view.page, 4);
    },
  );

  it('favourites a selection, then takes the mark off again', async () => {
    const { page } = view;
    const picked = [songs[0]!, upscale];
    await select(page, picked);
    await page.getByRole('button', { name: 'Favourite selected' }).click();
    for (const task of picked)
      await expect.poll(async () => (await rig.call('tasks.get', { id: task.id }))?.favorite).toBe(true);
    expect(await card(page, songs[1]!.id).getAttribute('data-favorite')).toBe('false');
    // every selected one is a favourite now: the button takes the mark off
    await page.getByRole('button', { name: 'Unfavourite selected' }).click();
    for (const task of picked)
      await expect.poll(async () => (await rig.call('tasks.get', { id: task.id }))?.favorite).toBe(false);
    await page.getByRole('button', { name: 'Clear selection' }).click();
  });

  it('re-runs a selection after a confirmation with the total estimate; Cancel queues nothing', async () => {
    const { page, bridge } = view;
    const ledgerBefore = (await rig.ledger()).length;
    const queuedBefore = bridge.queuedTasks().length;
    await select(page, songs);
    const total = songs.reduce(
      (sum, task) =>
        sum +
        estimateCost({ model: task.model, task_type: task.taskType, input: task.request.input }).micros!,
      0,
    );
    expect(total).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Re-run selected…' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Re-run 3 tasks?');
    expect(await dialog.getByTestId('rerun-total').textContent()).toBe(
      `Estimated total: ${formatUsd(total)}.`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(bridge.queuedTasks()).toHaveLength(queuedBefore);

    await page.getByRole('button', { name: 'Re-run selected…' }).click();
    await dialog.getByRole('button', { name: 'Queue 3 re-runs' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Queued 3 re-runs' }).waitFor();
    const reruns = bridge.queuedTasks().slice(queuedBefore);
    expect(reruns.map((t) => t.parentId).sort()).toEqual(songs.map((t) => t.id).sort());
    for (const rerun of reruns) {
      const original = songs.find((t) => t.id === rerun.parentId)!;
      expect(rerun.title).toBe(original.title);
      expect(rerun.request.input).toEqual(original.request.input);
      await rig.waitForTask(rerun.id, ['saved']);
    }
    // three new creates reached the service, billed as priced
    expect(await rig.ledger()).toHaveLength(ledgerBefore + 3);
    await page.getByRole('button', { name: 'Clear selection' }).click();
  });

  it('says which tasks have no published price, and queues them under a budget on that word', async () => {
    const { page, bridge } = view;
    await rig.call('settings.update', { budgetMicros: 100_000_000 });
    try {
      const queuedBefore = bridge.queuedTasks().length;
      await select(page, [songs[0]!, upscale]);
      await page.getByRole('button', { name: 'Re-run selected…' }).click();
      const dialog = page.getByTestId('confirm-dialog');
      const songPrice = estimateCost({
        model: songs[0]!.model,
        task_type: songs[0]!.taskType,
        input: songs[0]!.request.input,
      }).micros!;
      expect(await dialog.getByTestId('rerun-total').textContent()).toBe(
        `Estimated total: ${formatUsd(songPrice)}, plus 1 task with no published price.`,
      );
      await dialog.getByRole('button', { name: 'Queue 2 re-runs' }).click();
      await page.getByTestId('toast').filter({ hasText: 'Queued 2 re-runs' }).waitFor();
      const reruns = bridge.queuedTasks().slice(queuedBefore);
      expect(reruns.map((t) => t.taskType).sort()).toEqual(['txt2audio', 'upscale']);
      for (const rerun of reruns) await rig.waitForTask(rerun.id, ['saved']);
      await page.getByRole('button', { name: 'Clear selection' }).click();
    } finally {
      await rig.call('settings.update', { budgetMicros: null });
    }
  });

  it('exports a selection to one chosen folder', async () => {
    const { page } = view;
    const asked = rig.dialogs.asked.length;
    const picked = [songs[1]!, songs[2]!, upscale];
    await select(page, picked);
    await page.getByRole('button', { name: 'Export selected' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Exported 3 tasks' }).waitFor();
    expect(rig.dialogs.asked.slice(asked)).toEqual(['Export to folder']);
    const folders = await readdir(rig.exportDir);
    for (const task of picked) expect(folders.some((f) => f.endsWith(task.id.slice(0, 8)))).toBe(true);
    await page.getByRole('button', { name: 'Clear selection' }).click();
  });

  for (const theme of THEMES) {
    it(`shows the selection toolbar at 800 x 600 and 1920 x 1080 (${theme})`, async () => {
      await inThemeAtEachSize(rig, browser, theme, async (page, viewport) => {
        await openView(page, 'library');
        const first = page.getByTestId('task-card').first();
        await first.waitFor();
        // the two newest cards (the re-runs above made more than a small window shows)
        for (const box of (await page.getByRole('checkbox', { name: /^Select / }).all()).slice(0, 2))
          await box.check();
        await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('2 selected');
        await page.screenshot({ path: `${SHOTS}/library-selection-${theme}-${viewport.width}.png` });
        // every toolbar button is inside the window
        for (const button of await page
          .getByRole('toolbar', { name: 'Selection' })
          .getByRole('button')
          .all()) {
          const box = (await button.boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        }
      });
    });
  }

  it("the detail's Delete hides the task behind the same Undo, with no question first", async () => {
    const { page, bridge } = view;
    const task = songs[2]!;
    await card(page, task.id)
      .getByRole('button', { name: `Open ${task.title}` })
      .click();
    const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`);
    await detail.getByRole('button', { name: 'Delete' }).click();
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    await detail.waitFor({ state: 'detached' });
    await card(page, task.id).waitFor({ state: 'detached' });
    await page
      .getByTestId('toast')
      .filter({ hasText: `Deleted “${task.title}”` })
      .getByRole('button', { name: 'Undo' })
      .click();
    await card(page, task.id).waitFor();
    expect(bridge.calls.filter((c) => c.name === 'tasks.delete')).toHaveLength(0);
  });

  it('deletes a selection after the undo window', async () => {
    const { page, bridge } = view;
    const picked = [songs[0]!, songs[1]!];
    await select(page, picked);
    const pressed = Date.now();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    for (const task of picked) await card(page, task.id).waitFor({ state: 'detached' });
    await page.getByTestId('toast').filter({ hasText: 'Deleted 2 tasks' }).waitFor();
    expect(await page.getByTestId('selection-count').count()).toBe(0);
    const deletes = () => bridge.calls.filter((c) => c.name === 'tasks.delete');
    expect(deletes()).toHaveLength(0);
    await waitUntil(() => deletes().length === 2, 'two delete calls', 10_000);
    expect(deletes()[0]!.at - pressed).toBeGreaterThanOrEqual(4500);
    for (const task of picked) expect(await rig.call('tasks.get', { id: task.id })).toBeNull();
  });
});
