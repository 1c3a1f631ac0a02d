/**
 * Bulk actions on a library selection, over the real backend and sandbox: favourite (and back),
 * re-run (a confirmation with the total estimate, as the composer prices a draft; Cancel queues
 * nothing; Queue sends one create per task with its lineage; a task with no published price is
 * queued under a budget on the user's word), export (one folder question for all), and delete
 * with the same undo window. Screenshots of the selection toolbar at 800 x 600 and 1920 x 1080 in
 * both themes.
 *
 * The library also holds 303 saved tasks written straight into its store before the app opens
 * (more than the gallery's first page of 120): "Select all" then means every task that matches,
 * and deleting it asks first, naming that count, and moves the tasks to Recently deleted.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { estimateCost, formatUsd, type Task } from '../../src/shared/index.ts';
import { writePicture } from './harness/local-media.ts';
import { inThemeAtEachSize, THEMES } from './harness/look-check.ts';
import { fillLibrary } from './harness/saved-task-fill.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = process.env.GALLERY_SHOTS_DIR ?? '/tmp/gallery-shots';
/** Saved tasks written into the library before the app opens: more than the gallery's first page. */
const FILLED = 303;

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
      prepareLibrary: (libraryDir) => fillLibrary(libraryDir, FILLED),
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
      await openView(view.page, 'library');
      await card(view.page, upscale.id).waitFor();
    },
  );

  it('Ctrl+A, Delete: asks first, naming every task that matches, and moves them to Recently deleted', async () => {
    const { page } = view;
    const all = FILLED + SONGS.length + 1;
    const total = page.getByTestId('library-total');
    await expect.poll(() => total.textContent()).toBe(`${all} tasks`);
    // the first page only is loaded
    expect((await rig.call('tasks.list', { limit: 200 })).items.length).toBe(200);
    const songFile = join(rig.libraryDir, songs[0]!.outputs[0]!.path!);

    await card(page, songs[0]!.id)
      .getByRole('button', { name: `Open ${songs[0]!.title}` })
      .focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe(`${all} selected`);
    await card(page, songs[0]!.id)
      .getByRole('button', { name: `Open ${songs[0]!.title}` })
      .focus();
    await page.keyboard.press('Delete');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe(`Move ${all} tasks to Recently deleted?`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await rig.call('tasks.count', {})).total).toBe(all);

    // all but two: the counts on screen are what the action touches, and what stays is shown
    const keep = [songs[1]!, upscale];
    for (const task of keep)
      await card(page, task.id)
        .getByRole('checkbox', { name: `Select ${task.title}` })
        .uncheck();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe(`${all - 2} selected`);
    await page.getByRole('button', { name: 'Delete selected…' }).click();
    expect(await dialog.getByRole('heading').textContent()).toBe(
      `Move ${all - 2} tasks to Recently deleted?`,
    );
    await dialog.getByRole('button', { name: `Move ${all - 2} tasks` }).click();
    await page
      .getByTestId('toast')
      .filter({ hasText: `Moved ${all - 2} tasks to Recently deleted` })
      .waitFor();
    await expect.poll(() => total.textContent()).toBe('2 tasks');
    await expect.poll(() => page.getByTestId('task-card').count()).toBe(2);
    for (const task of keep) await card(page, task.id).waitFor();
    expect(await page.getByText('No tasks here').count()).toBe(0);
    expect((await rig.call('tasks.count', {})).total).toBe(2);
    expect((await rig.call('tasks.count', { trashed: true })).total).toBe(all - 2);
    // nothing left the disk
    expect(existsSync(songFile)).toBe(true);

    // Recently deleted: every one of them, and back again
    await page.getByRole('button', { name: /^Recently deleted/ }).click();
    await expect.poll(() => total.textContent()).toBe(`${all - 2} tasks in Recently deleted`);
    await page.getByRole('button', { name: 'Select all' }).click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe(`${all - 2} selected`);
    // a double click restores once: the second press is not taken while the first runs
    await page.getByRole('button', { name: 'Restore selected' }).dblclick();
    await page
      .getByTestId('toast')
      .filter({ hasText: `Restored ${all - 2} tasks` })
      .waitFor();
    await expect.poll(() => total.textContent()).toBe('0 tasks in Recently deleted');
    await page.getByRole('button', { name: 'All results' }).click();
    await expect.poll(() => total.textContent()).toBe(`${all} tasks`);
    expect(await page.getByTestId('toast').filter({ hasText: 'Restored 0 tasks' }).count()).toBe(0);
    expect((await rig.call('tasks.count', { trashed: true })).total).toBe(0);
  });

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
    const deletesBefore = bridge.calls.filter((c) => c.name === 'tasks.delete').length;
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
    expect(bridge.calls.filter((c) => c.name === 'tasks.delete')).toHaveLength(deletesBefore);
  });

  it('deletes a selection after a question naming its count: to Recently deleted at once', async () => {
    const { page, bridge } = view;
    const picked = [songs[0]!, songs[1]!];
    const deletesBefore = bridge.calls.filter((c) => c.name === 'tasks.delete').length;
    await select(page, picked);
    await page.getByRole('button', { name: 'Delete selected…' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Move 2 tasks to Recently deleted?');
    await dialog.getByRole('button', { name: 'Move 2 tasks' }).click();
    for (const task of picked) await card(page, task.id).waitFor({ state: 'detached' });
    await page.getByTestId('toast').filter({ hasText: 'Moved 2 tasks to Recently deleted' }).waitFor();
    expect(await page.getByTestId('selection-count').count()).toBe(0);
    const deletes = bridge.calls.filter((c) => c.name === 'tasks.delete').slice(deletesBefore);
    expect(deletes.map((c) => c.args)).toEqual([{ selection: { ids: picked.map((t) => t.id) } }]);
    for (const task of picked)
      expect((await rig.call('tasks.get', { id: task.id }))?.deletedAt).not.toBeNull();
  });

  for (const theme of THEMES) {
    it(`shows Recently deleted and its questions at 800 x 600 and 1920 x 1080 (${theme})`, async () => {
      // the two songs moved there above
      expect((await rig.call('tasks.count', { trashed: true })).total).toBe(2);
      await inThemeAtEachSize(rig, browser, theme, async (page, viewport) => {
        await openView(page, 'library');
        await page.getByTestId('task-card').first().waitFor();
        // the question before a move names every task that matches
        await page.keyboard.press('Control+a');
        await page.getByRole('button', { name: 'Delete selected…' }).click();
        const dialog = page.getByTestId('confirm-dialog');
        await dialog.waitFor();
        await page.screenshot({ path: `${SHOTS}/library-move-question-${theme}-${viewport.width}.png` });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('button', { name: 'Recently deleted' }).click();
        const total = page.getByTestId('library-total');
        await expect.poll(() => total.textContent()).toBe('2 tasks in Recently deleted');
        await page.getByTestId('task-card').first().waitFor();
        await page.screenshot({ path: `${SHOTS}/library-recently-deleted-${theme}-${viewport.width}.png` });
        await page.getByRole('button', { name: 'Empty Recently deleted…' }).click();
        expect(await dialog.getByRole('heading').textContent()).toBe('Empty Recently deleted?');
        await page.screenshot({ path: `${SHOTS}/library-empty-question-${theme}-${viewport.width}.png` });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
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
});
