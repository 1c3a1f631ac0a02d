/**
 * Batches and variations queued from the window, over the real backend and sandbox:
 * - one face dropped, then twelve photos dropped on the face swap target: twelve targets listed
 *   with thumbnails, the total price (12 x the price), "Queue 12 tasks"; one tasks.queueBatch,
 *   twelve saved tasks of one batch, one group in Activity with its progress;
 * - Compare results: the batch's pictures side by side; two starred there are favourites in the
 *   library;
 * - an image edit with 4 variations: the seeds shown, four tasks whose stored requests hold
 *   seed, seed+1, …; their cards say "2 of 4 · seed 1001";
 * - three pictures dropped on the From a result tab's Upscale: three upscales in one batch;
 * - the Picture tools tab (issue 21, item 8): no Variations for a deterministic tool (upscale,
 *   background removal); two pictures dropped: two background removals priced and queued as one
 *   batch; their transparent results on a checkerboard in the card, the detail and the viewer;
 * - a song's lyrics split at `---` lines ("One song per part"): one song per part; compared as a
 *   list whose play buttons play each in the player bar;
 * - a batch whose tasks fail: its group lists the failures;
 * - a batch over the budget queues nothing and says why, in plain words;
 * - Cancel the rest (offline, so the batch waits on this computer): every task cancelled, the
 *   count said.
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { estimateCost, formatUsd, type Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  type ComposeTabName,
  dropOnSlot,
  fillSong,
  openComposeTab,
  openView,
  slot,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

function queueBatchCalls(view: StudioPage) {
  return view.bridge.calls.filter((c) => c.name === 'tasks.queueBatch');
}

/** Clicks the Queue button (whatever it says) and waits for the composer to finish. */
async function queueNow(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByRole('button', { name: 'Queueing…' }).waitFor({ state: 'detached' });
}

async function setVariations(page: Page, count: number): Promise<void> {
  await page.getByTestId('variations').getByLabel('Variations').fill(String(count));
}

async function fillImageEdit(page: Page, picture: string, prompt: string): Promise<void> {
  const panel = await openComposeTab(page, 'Image edit');
  await dropOnSlot(page, 'image1', { path: picture });
  await panel.getByLabel('Prompt', { exact: true }).fill(prompt);
}

describe.skipIf(!browserAvailable())('batches and variations from the window', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let batchTasks: Task[] = [];
  let songBatch: { batchId: string; tasks: Task[] } | null = null;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('twelve photos dropped on the face swap target with a face set: one batch of twelve, one Activity group', async () => {
    const { page } = view;
    const face = await writePicture(rig.filesDir, 'face.png', 240, 280, { r: 210, g: 160, b: 120 });
    const photos = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        writePicture(rig.filesDir, `photo-${String(i + 1).padStart(2, '0')}.png`, 320 + i * 8, 240, {
          r: 20 * i,
          g: 100,
          b: 200 - 10 * i,
        }),
      ),
    );
    await openComposeTab(page, 'Face swap');
    await dropOnSlot(page, 'swap_image', { path: face });
    await dropFiles(
      page,
      slot(page, 'target_image').getByTestId('drop-zone'),
      photos.map((path) => ({ path })),
    );
    const list = page.getByTestId('batch-targets');
    await expect.poll(() => list.getByTestId('batch-target').count()).toBe(12);
    await expect
      .poll(() => list.locator('[data-testid="batch-target"][data-status="ok"]').count(), { timeout: 20_000 })
      .toBe(12);
    expect(await list.getByRole('heading').textContent()).toContain('12 targets');
    // thumbnails of the dropped pictures, each removable
    expect(await list.locator('img.batch-target-thumb').count()).toBe(12);
    await list.getByRole('button', { name: 'Remove photo-12.png' }).click();
    await expect.poll(() => list.getByTestId('batch-target').count()).toBe(11);
    await dropFiles(
      page,
      slot(page, 'target_image').getByTestId('drop-zone'),
      photos.map((path) => ({ path })),
    );
    await expect
      .poll(() => list.locator('[data-testid="batch-target"][data-status="ok"]').count(), { timeout: 20_000 })
      .toBe(12);

    const each = estimateCost({
      model: 'image-toolkit',
      task_type: 'face-swap',
      input: { target_image: photos[0], swap_image: face },
    }).micros!;
    const cost = page.getByTestId('cost-estimate');
    await expect.poll(() => cost.textContent()).toContain(formatUsd(each * 12));
    expect(await cost.textContent()).toContain(`12 x ${formatUsd(each)}`);

    await queueNow(page, 'Queue 12 tasks');
    const call = await waitUntil(() => queueBatchCalls(view)[0], 'the tasks.queueBatch call');
    expect(call.ok, JSON.stringify(call.error)).toBe(true);
    const drafts = (call.args as { drafts: { input: Record<string, unknown> }[] }).drafts;
    expect(drafts).toHaveLength(12);
    expect(new Set(drafts.map((d) => d.input.target_image)).size).toBe(12);
    expect(new Set(drafts.map((d) => d.input.swap_image))).toEqual(new Set([face]));
    const { batchId, tasks } = call.value as { batchId: string; tasks: Task[] };

    await openView(page, 'activity');
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batchId}"]`);
    await group.waitFor();
    expect(await page.getByTestId('batch-group').count()).toBe(1);
    // one section over the one group, counted as what it lists, however its tasks are spread
    // (never "Waiting to be sent 9" over no row)
    expect(await page.getByTestId('activity-section').allTextContents()).toEqual([
      expect.stringMatching(/ 12 tasks in 1 batch$/),
    ]);
    batchTasks = await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['saved'], 60_000)));
    expect(new Set(batchTasks.map((t) => t.batchId))).toEqual(new Set([batchId]));
    await expect.poll(() => group.getByTestId('batch-progress').textContent()).toContain('12 of 12 done');
    expect(await page.getByTestId('activity-section').allTextContents()).toEqual([
      'Recently finished 12 tasks in 1 batch',
    ]);
    if (process.env.LYRICS_SHOTS_DIR) {
      for (const theme of ['light', 'dark'] as const) {
        await rig.call('settings.update', { theme });
        await page.emulateMedia({ colorScheme: theme });
        for (const size of [
          { width: 800, height: 600 },
          { width: 1920, height: 1080 },
        ]) {
          await page.setViewportSize(size);
          await page.screenshot({
            path: `${process.env.LYRICS_SHOTS_DIR}/activity-${theme}-${size.width}.png`,
          });
        }
      }
      await rig.call('settings.update', { theme: 'system' });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(await group.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('12');
    // its tasks on demand, inside the group
    await group.getByRole('button', { name: 'Show its 12 tasks' }).click();
    await expect.poll(() => group.getByTestId('activity-row').count()).toBe(12);
    await group.getByRole('button', { name: 'Hide its tasks' }).click();
  });

  it('Compare results: the batch side by side, two starred in one pass', async () => {
    const { page } = view;
    const group = page.getByTestId('batch-group').first();
    await group.getByRole('button', { name: 'Compare results' }).click();
    const compare = page.getByTestId('batch-compare');
    await compare.waitFor();
    const items = compare.getByTestId('compare-item');
    await expect.poll(() => items.count()).toBe(12);
    // the same size for each picture
    const boxes = await compare.locator('.compare-frame').evaluateAll((frames) =>
      frames.map((f) => {
        const r = (
          f as unknown as { getBoundingClientRect(): { width: number; height: number } }
        ).getBoundingClientRect();
        return `${Math.round(r.width)}x${Math.round(r.height)}`;
      }),
    );
    expect(new Set(boxes).size).toBe(1);
    const keep = [batchTasks[2]!, batchTasks[7]!];
    for (const task of keep) {
      await compare
        .locator(`[data-testid="compare-item"][data-task-id="${task.id}"]`)
        .getByRole('button', { name: /^Favourite / })
        .click();
    }
    await expect.poll(() => compare.getByTestId('compare-kept').textContent()).toContain('2 kept');
    for (const task of keep) {
      await expect.poll(async () => (await rig.call('tasks.get', { id: task.id }))?.favorite).toBe(true);
    }
    const favourites = (await rig.tasks()).filter((t) => t.favorite).map((t) => t.id);
    expect(favourites.sort()).toEqual(keep.map((t) => t.id).sort());
    await compare.getByRole('button', { name: 'Back to the library' }).click();
    await page.getByTestId('library-total').waitFor();
  });

  it('an image edit with 4 variations: four tasks of one batch, seeds one apart in the stored requests', async () => {
    const { page } = view;
    const picture = await writePicture(rig.filesDir, 'street.png', 400, 300, { r: 90, g: 90, b: 140 });
    await fillImageEdit(page, picture, 'make it a rainy evening');
    await setVariations(page, 4);
    const seeds = page.getByTestId('variation-seeds');
    const shown = (await seeds.textContent()) ?? '';
    const match = /Seeds (\d+) to (\d+) \(random start\)/.exec(shown);
    expect(match, shown).not.toBeNull();
    expect(Number(match![2]) - Number(match![1])).toBe(3);
    // a seed given: the sweep starts there
    await page.getByRole('tabpanel').getByLabel('Seed').fill('1000');
    await expect.poll(() => seeds.textContent()).toBe('Seeds 1000 to 1003');
    const before = queueBatchCalls(view).length;
    await queueNow(page, 'Queue 4 variations');
    const call = await waitUntil(() => queueBatchCalls(view)[before], 'the tasks.queueBatch call');
    expect(call.ok, JSON.stringify(call.error)).toBe(true);
    const { tasks } = call.value as { tasks: Task[] };
    const stored = await Promise.all(tasks.map((t) => rig.call('tasks.get', { id: t.id })));
    expect(stored.map((t) => t?.request.input.seed)).toEqual([1000, 1001, 1002, 1003]);
    expect(new Set(stored.map((t) => t?.batchId)).size).toBe(1);
    // queued: the next Queue sends one again, and the field says how many it takes at most
    const variations = page.getByTestId('variations');
    expect(await variations.getByLabel('Variations').inputValue()).toBe('1');
    expect(await variations.getByTestId('variations-max').textContent()).toBe('max 20');
    await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['saved'], 60_000)));
    // their cards are told apart (issue 21, item 10): each its place in the batch and its seed
    await openView(page, 'library');
    const marks = tasks.map((t) =>
      page.locator(`[data-testid="task-card"][data-task-id="${t.id}"] [data-testid="card-variation"]`),
    );
    await marks[0]!.waitFor();
    expect(await Promise.all(marks.map((m) => m.textContent()))).toEqual([
      '1 of 4 · seed 1000',
      '2 of 4 · seed 1001',
      '3 of 4 · seed 1002',
      '4 of 4 · seed 1003',
    ]);
    // shown whole on a picture's card (it has no length badge to make room for)
    const cut = (m: (typeof marks)[number]) =>
      m.evaluate((el) => {
        const e = el as unknown as { scrollWidth: number; clientWidth: number };
        return e.scrollWidth > e.clientWidth;
      });
    expect(await Promise.all(marks.map(cut))).toEqual([false, false, false, false]);
  });

  it('three pictures dropped on Upscale (From a result): one upscale each, in one batch', async () => {
    const { page } = view;
    const pictures = await Promise.all(
      [1, 2, 3].map((i) =>
        writePicture(rig.filesDir, `small-${i}.png`, 200 + 20 * i, 150, { r: 60 * i, g: 80, b: 120 }),
      ),
    );
    const panel = await openComposeTab(page, 'From a result' as ComposeTabName);
    await panel.getByRole('radio', { name: 'Upscale', exact: true }).check();
    await dropFiles(
      page,
      slot(page, 'source_image').getByTestId('drop-zone'),
      pictures.map((path) => ({ path })),
    );
    const list = page.locator('[data-testid="batch-targets"][data-field="source_image"]');
    await expect.poll(() => list.locator('[data-testid="batch-target"][data-status="ok"]').count()).toBe(3);
    expect(await list.getByRole('heading').textContent()).toBe('3 pictures: one upscale each');
    const before = queueBatchCalls(view).length;
    await page.getByRole('button', { name: 'Queue 3 tasks', exact: true }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await waitUntil(
      async () => queueBatchCalls(view).length > before || (await confirm.isVisible()),
      'the queue call or its price question',
    );
    if (queueBatchCalls(view).length === before)
      await confirm.getByRole('button', { name: 'Queue anyway' }).click();
    const call = await waitUntil(() => queueBatchCalls(view)[before], 'the tasks.queueBatch call');
    expect(call.ok, JSON.stringify(call.error)).toBe(true);
    const drafts = (call.args as { drafts: { taskType: string; input: Record<string, unknown> }[] }).drafts;
    expect(drafts.map((d) => d.taskType)).toEqual(['upscale', 'upscale', 'upscale']);
    expect(drafts.map((d) => d.input.image)).toEqual(pictures);
    const { tasks } = call.value as { tasks: Task[] };
    const saved = await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['saved'], 60_000)));
    expect(new Set(saved.map((t) => t.batchId)).size).toBe(1);
  });

  it('Picture tools: no Variations for upscale; two pictures dropped are two background removals in one batch, shown on a checkerboard', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Picture tools');
    const tools = panel.getByRole('group', { name: 'Tool' }).getByRole('radio');
    expect(await tools.evaluateAll((radios) => radios.map((r) => r.parentElement?.textContent))).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Upscale'),
        expect.stringContaining('Remove background'),
        expect.stringContaining('Segment'),
      ]),
    );
    await panel.getByRole('radio', { name: /^Upscale/ }).check();
    await expect.poll(() => page.getByTestId('cost-estimate').isVisible()).toBe(true);
    expect(await page.getByTestId('variations').count()).toBe(0);
    await panel.getByRole('radio', { name: /^Remove background/ }).check();
    expect(await panel.getByTestId('tool-description').textContent()).toContain('$0.001');
    expect(await page.getByTestId('variations').count()).toBe(0);
    const pictures = await Promise.all(
      [1, 2].map((i) =>
        writePicture(rig.filesDir, `cut-out-${i}.png`, 180 + 20 * i, 140, { r: 200, g: 40 * i, b: 60 }),
      ),
    );
    await dropFiles(
      page,
      slot(page, 'source_image').getByTestId('drop-zone'),
      pictures.map((path) => ({ path })),
    );
    const list = page.locator('[data-testid="batch-targets"][data-field="source_image"]');
    await expect.poll(() => list.locator('[data-testid="batch-target"][data-status="ok"]').count()).toBe(2);
    expect(await page.getByTestId('cost-estimate').textContent()).toContain('$0.002');
    const before = queueBatchCalls(view).length;
    await queueNow(page, 'Queue 2 tasks');
    const call = await waitUntil(() => queueBatchCalls(view)[before], 'the tasks.queueBatch call');
    expect(call.ok, JSON.stringify(call.error)).toBe(true);
    const drafts = (call.args as { drafts: { taskType: string; input: Record<string, unknown> }[] }).drafts;
    expect(drafts.map((d) => d.taskType)).toEqual(['background-remove', 'background-remove']);
    expect(drafts.map((d) => d.input.image)).toEqual(pictures);
    const { tasks } = call.value as { tasks: Task[] };
    const saved = await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['saved'], 60_000)));
    expect(new Set(saved.map((t) => t.batchId)).size).toBe(1);

    // the transparent result on a checkerboard: its card, its detail, the viewer
    const checkered = (element: unknown) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } })
        .getComputedStyle(element)
        .backgroundImage.includes('conic-gradient');
    await openView(page, 'library');
    const first = saved[0]!;
    const card = page.locator(`[data-testid="task-card"][data-task-id="${first.id}"]`);
    await card.scrollIntoViewIfNeeded();
    const cardImage = card.locator('img').first();
    await cardImage.waitFor();
    expect(await cardImage.evaluate(checkered)).toBe(true);
    await card.getByRole('button', { name: `Open ${first.title}` }).click();
    const detailImage = page.locator('.detail-image, .before-after-after').first();
    await detailImage.waitFor();
    expect(await detailImage.evaluate(checkered)).toBe(true);
    await page.keyboard.press('Escape');
    // a picture without transparency (a face swap of the first batch) has none
    const swap = batchTasks[0];
    expect(swap, 'the face swaps of the first test').toBeDefined();
    const swapImage = page.locator(`[data-testid="task-card"][data-task-id="${swap!.id}"] img`).first();
    await swapImage.scrollIntoViewIfNeeded();
    expect(await swapImage.evaluate(checkered)).toBe(false);
  });

  it('"One song per part": lyrics split at --- lines, one song each in one batch', async () => {
    const { page } = view;
    await fillSong(page, {
      style: 'warm acoustic, brushed drums',
      lyrics: '[verse]\nmorning light\n---\n[verse]\nnoon heat\n---\n[verse]\nevening rain',
      seconds: 5,
    });
    await page.getByRole('checkbox', { name: 'One song per part' }).check();
    expect(await page.getByTestId('song-parts').textContent()).toContain('3 songs');
    const before = queueBatchCalls(view).length;
    await queueNow(page, 'Queue 3 tasks');
    const call = await waitUntil(() => queueBatchCalls(view)[before], 'the tasks.queueBatch call');
    expect(call.ok, JSON.stringify(call.error)).toBe(true);
    const drafts = (call.args as { drafts: { input: Record<string, unknown> }[] }).drafts;
    expect(drafts.map((d) => d.input.lyrics)).toEqual([
      '[verse]\nmorning light',
      '[verse]\nnoon heat',
      '[verse]\nevening rain',
    ]);
    expect(new Set(drafts.map((d) => d.input.style_prompt))).toEqual(
      new Set(['warm acoustic, brushed drums']),
    );
    await page.getByRole('checkbox', { name: 'One song per part' }).uncheck();
    songBatch = call.value as { batchId: string; tasks: Task[] };
  });

  it('a batch of songs compared as a list: each plays in the player bar, starred from there', async () => {
    const { page } = view;
    const { batchId, tasks } = songBatch!;
    await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['saved'], 60_000)));
    await openView(page, 'activity');
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batchId}"]`);
    await expect.poll(() => group.getByTestId('batch-progress').textContent()).toContain('3 of 3 done');
    await group.getByRole('button', { name: 'Compare results' }).click();
    const compare = page.getByTestId('batch-compare');
    const songs = compare.locator('.compare-songs [data-testid="compare-item"]');
    await expect.poll(() => songs.count()).toBe(3);
    const second = songs.nth(1);
    const play = second.getByTestId('song-play');
    expect(await play.getAttribute('aria-label')).toMatch(/^Play 2\. /);
    await play.click();
    await expect.poll(() => play.getAttribute('aria-label')).toMatch(/^Pause 2\. /);
    await second.getByRole('button', { name: /^Favourite / }).click();
    await expect.poll(async () => (await rig.call('tasks.get', { id: tasks[1]!.id }))?.favorite).toBe(true);
    await play.click();
    await compare.getByRole('button', { name: 'Back to the library' }).click();
  });

  it('a batch whose tasks fail: the group says so and lists each failure', async () => {
    const { page } = view;
    await rig.setFaults({ taskFailureRate: 1 });
    try {
      await openComposeTab(page, 'Image edit');
      await setVariations(page, 2);
      const before = queueBatchCalls(view).length;
      await queueNow(page, 'Queue 2 variations');
      const call = await waitUntil(() => queueBatchCalls(view)[before], 'the tasks.queueBatch call');
      const { batchId, tasks } = call.value as { batchId: string; tasks: Task[] };
      await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['failed'], 60_000)));
      await openView(page, 'activity');
      const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batchId}"]`);
      await expect
        .poll(() => group.getByTestId('batch-progress').textContent())
        .toContain('0 of 2 done, 2 failed');
      const failures = group.getByTestId('batch-failures').getByRole('listitem');
      expect(await failures.count()).toBe(2);
      expect(await failures.first().textContent()).toContain(tasks[0]!.title);
    } finally {
      await rig.setFaults({});
    }
  });

  it('a batch over the budget queues nothing and says why', async () => {
    const { page } = view;
    const count = (await rig.tasks()).length;
    await rig.call('settings.update', { budgetMicros: 1_000 });
    try {
      await openComposeTab(page, 'Image edit');
      await setVariations(page, 4);
      const reason = page.getByTestId('queue-reason');
      // the live check says it before Queue (and marks Queue unavailable); pressed anyway
      await expect.poll(() => reason.textContent()).toMatch(/^Over your budget: this batch of 4 tasks /);
      await page.getByRole('button', { name: 'Queue 4 variations', exact: true }).click({ force: true });
      await expect.poll(() => reason.textContent()).toContain('Nothing was queued.');
      const text = (await reason.textContent()) ?? '';
      expect(text).toMatch(
        /This batch of 4 tasks \(\$[\d.]+\) would take the total to \$[\d.]+, over your budget of \$/,
      );
      expect(await page.getByTestId('toast').filter({ hasText: 'over your budget' }).count()).toBeGreaterThan(
        0,
      );
      expect((await rig.tasks()).length).toBe(count);
    } finally {
      await rig.call('settings.update', { budgetMicros: null });
    }
  });

  it('Cancel the rest: the tasks still on this computer are cancelled and the count said', async () => {
    const { page } = view;
    // offline for real (the OS signal and a service refusing connections): nothing is sent
    rig.backend.setNetworkOnline(false);
    await rig.stopService();
    await page.getByTestId('offline-banner').waitFor();
    try {
      await openComposeTab(page, 'Image edit');
      await setVariations(page, 3);
      const before = queueBatchCalls(view).length;
      await queueNow(page, 'Queue 3 variations');
      const call = await waitUntil(() => queueBatchCalls(view)[before], 'the tasks.queueBatch call');
      expect(call.ok, JSON.stringify(call.error)).toBe(true);
      const { batchId, tasks } = call.value as { batchId: string; tasks: Task[] };
      await openView(page, 'activity');
      const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batchId}"]`);
      await group.getByRole('button', { name: 'Cancel the rest' }).click();
      const said = group.getByTestId('batch-cancelled');
      await said.waitFor();
      expect(await said.textContent()).toContain('Cancelled 3 tasks still queued on this computer');
      for (const task of tasks) {
        expect((await rig.call('tasks.get', { id: task.id }))?.state).toBe('cancelled');
      }
      await expect
        .poll(() => group.getByTestId('batch-progress').textContent())
        .toContain('0 of 3 done, 3 cancelled');
      expect(await group.getByRole('button', { name: 'Cancel the rest' }).count()).toBe(0);
    } finally {
      await rig.restartService();
      rig.backend.setNetworkOnline(true);
    }
  });
});
