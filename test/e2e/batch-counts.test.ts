/**
 * Activity's batch group counts the whole batch as the library holds it (tasks.batches), not only
 * the tasks the window has loaded: a batch of twelve songs queued three days ago, of which the
 * window loads only the one waiting for a decision (Activity lists older tasks only while they
 * are to do), says "9 of 12 done, 1 failed, 1 cancelled · 1 needs your decision" with the whole
 * batch's cost in its rows' figures ("$0.09 charged · $0.01 pending · 2 not billed"), and says so from the start when Activity is opened again; sent again and saved,
 * the group follows ("10 of 12 done"). At 800 x 600 the group's title is whole, its cost on a
 * line of its own under it; at 1920 x 1080 on the title's line.
 */
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import { batchCostText } from '../../src/renderer/src/model/money-text.ts';
import { batchCostOf, formatUsd, type TaskState } from '../../src/shared/index.ts';
import type { PageElement, PageWindow } from './harness/page-dom.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const THREE_DAYS_AGO = Date.now() - 3 * 86_400_000;
const BATCH = 'batch-of-twelve';
const EACH_MICROS = 10_000;

/** The state each of the twelve tasks is left in: two are still queued (the engine sends them). */
const STATES: readonly TaskState[] = [
  ...Array.from({ length: 7 }, () => 'saved' as const),
  'failed',
  'cancelled',
  'uncertain',
  'queued',
  'queued',
];

/** The page's window while it records what the batch group says after each change of the page. */
type RecordingWindow = PageWindow & {
  batchTexts: string[];
  MutationObserver: new (
    callback: () => void,
  ) => { observe(target: PageElement, options: Record<string, boolean>): void };
};

/** The batch, written into the library before the app opens it. */
function plantOldBatch(libraryDir: string): void {
  const store = LibraryStore.open(libraryDir, { now: () => new Date(THREE_DAYS_AGO) });
  try {
    STATES.forEach((state, i) => {
      const input = { style_prompt: `old batch ${i + 1}, harp`, duration: 3 };
      const task = store.insertTask({
        model: 'service/ace-step',
        taskType: 'txt2audio',
        title: `Old batch song ${i + 1}`,
        request: { model: 'service/ace-step', task_type: 'txt2audio', input },
        estimateMicros: EACH_MICROS,
        expectedMs: 20_000,
        batchId: BATCH,
        createdAt: new Date(THREE_DAYS_AGO + i * 1000).toISOString(),
      });
      if (state === 'failed') {
        store.transition(task.id, 'failed', {
          patch: { error: { kind: 'service-failed', message: 'the service failed the task', code: null } },
        });
      } else if (state !== 'queued') store.transition(task.id, state);
    });
  } finally {
    store.close();
  }
}

describe.skipIf(!browserAvailable())("a batch group's counts come from the library", () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio(
    {
      service: 'service',
      prepareLibrary: plantOldBatch,
      // the two queued ones are sent and saved before the window opens: it never loads them
      prepare: async (rig) => {
        const queued = (await rig.tasks()).filter((t) => /^Old batch song 1[12]$/.test(t.title));
        expect(queued).toHaveLength(2);
        await Promise.all(queued.map((t) => rig.waitForTask(t.id, ['saved'])));
      },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('counts the tasks the window has not loaded, and follows as its tasks change', async () => {
    const { page } = view;
    await openView(page, 'activity');
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${BATCH}"]`);
    await group.waitFor();
    const progress = group.getByTestId('batch-progress');
    // the uncertain one is not running: it waits for the user's decision
    const counts = '9 of 12 done, 1 failed, 1 cancelled · 1 needs your decision';
    await expect.poll(() => progress.textContent()).toBe(counts);
    expect(await group.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('12');
    expect(await group.getByRole('heading').textContent()).toBe('Old batch song 1 and 11 more');
    // its total in its rows' own figures: the failed and the cancelled one were never billed, the
    // one waiting for a decision is pending (not the twelve estimates' sum)
    const rows = (await rig.tasks()).filter((t) => t.batchId === BATCH);
    const costText = batchCostText(batchCostOf(rows), false);
    expect(costText).toMatch(/^\$[\d.]+ charged · \$0\.01 pending · 2 not billed$/);
    expect(costText).not.toContain(formatUsd(12 * EACH_MICROS));
    expect(await group.getByTestId('batch-cost').textContent()).toBe(costText);

    // shown again (Activity left for Settings, which loads no task, and opened again): the group
    // starts from the counts read before, never from the one loaded task's ("0 of 1 done", its
    // price alone)
    await openView(page, 'settings');
    await page.evaluate((batch) => {
      const win = globalThis as unknown as RecordingWindow;
      const seen: string[] = [];
      win.batchTexts = seen;
      new win.MutationObserver(() => {
        const g = win.document.querySelector(`[data-testid="batch-group"][data-batch-id="${batch}"]`);
        if (!g) return;
        const text = `${g.querySelector('[data-testid="batch-progress"]')?.textContent} | ${g.querySelector('.activity-cost')?.textContent}`;
        if (seen.at(-1) !== text) seen.push(text);
      }).observe(win.document, { subtree: true, childList: true, characterData: true });
    }, BATCH);
    await openView(page, 'activity');
    await group.waitFor();
    await expect.poll(() => progress.textContent()).toBe(counts);
    expect(await page.evaluate(() => (globalThis as unknown as RecordingWindow).batchTexts)).toEqual([
      `${counts} | ${costText}`,
    ]);
    // the window holds one task of the batch: the one waiting for a decision
    const uncertain = (await rig.tasks()).find((t) => t.batchId === BATCH && t.state === 'uncertain')!;
    await group.getByRole('button', { name: 'Show the 1 of its 12 tasks listed here' }).click();
    await expect.poll(() => group.getByTestId('activity-row').count()).toBe(1);
    expect(await group.getByTestId('activity-row').getAttribute('data-task-id')).toBe(uncertain.id);

    await rig.call('tasks.resubmit', { id: uncertain.id });
    await rig.waitForTask(uncertain.id, ['saved']);
    await expect.poll(() => progress.textContent()).toBe('10 of 12 done, 1 failed, 1 cancelled');
    // the batch's own bar (the listed row has a bar of its own while it still shows running)
    expect(
      await group.getByRole('progressbar', { name: /^Progress of the batch / }).getAttribute('aria-valuenow'),
    ).toBe('12');
  });

  it("at 800 x 600 the batch's title is whole and its cost goes on a line of its own under it", async () => {
    const { page } = view;
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${BATCH}"]`);
    const title = group.locator(':scope > .activity-head h3');
    const cost = group.getByTestId('batch-cost');
    /** Whether the title shows all its text, and where the cost stands against it. */
    const layout = async () => {
      const cut = await title.evaluate((el) => {
        const e = el as unknown as { scrollWidth: number; clientWidth: number };
        return e.scrollWidth > e.clientWidth;
      });
      const [t, c] = [(await title.boundingBox())!, (await cost.boundingBox())!];
      return { cut, below: c.y >= t.y + t.height - 1 };
    };
    const first = (await rig.tasks()).find((t) => t.title === 'Old batch song 1')!;
    await rig.call('tasks.rename', { id: first.id, title: 'Old batch song, a harbour walk' });
    await expect.poll(() => title.textContent()).toBe('Old batch song, a harbour walk and 11 more');
    try {
      await page.setViewportSize({ width: 800, height: 600 });
      await openView(page, 'activity');
      await group.waitFor();
      await expect.poll(layout).toEqual({ cut: false, below: true });
      // with room, on the title's line
      await page.setViewportSize({ width: 1920, height: 1080 });
      await expect.poll(layout).toEqual({ cut: false, below: false });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
