/**
 * The composer's Queue bar in a small window, and the batch compare view's Escape (issue 11,
 * items 11 and 12):
 * - at 800 x 600 on Song, Face swap and From a result (Extend of a saved song) the bar is two
 *   lines: the price, Clear, Variations and Queue on the first, the notes (the reason, "Made
 *   from …", the price's explanation, the balance) on a second one line high, each cut short with
 *   its whole text in its title; Queue's accessible description is still the whole reason;
 * - in demo mode "Demo: not billed" beside the price; with a real key it is absent;
 * - Escape in the compare view goes back to where it was opened (Activity's batch group, a
 *   task's detail) with the focus on the "Compare results" button that opened it.
 * Axe in both themes; pictures of the bar to /tmp/queue-bar-shots.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { blockingViolations } from './harness/look-check.ts';
import { box, inEachTheme, inside } from './harness/page-boxes.ts';
import { playerBar } from './harness/player-ui.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openApp, openStudio } from './harness/studio-session.ts';
import { card, describeViolations, openComposeTab, openView, queueButton } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = '/tmp/queue-bar-shots';
const SMALL = { width: 800, height: 600 };

const SONG = {
  model: 'service/ace-step',
  taskType: 'txt2audio',
  input: { style_prompt: 'queue bar fit, a long winding style prompt with fiddles and harp', duration: 3 },
};

/** A pixel length of a computed style (`line-height`, `padding-top`, …) of the element. */
function pixels(locator: Locator, property: string): Promise<number> {
  return locator.evaluate(
    (el, name) =>
      Number.parseFloat(
        (
          globalThis as unknown as {
            getComputedStyle(e: unknown): { getPropertyValue(n: string): string };
          }
        )
          .getComputedStyle(el)
          .getPropertyValue(name),
      ),
    property,
  );
}

/** The text of the elements Queue's aria-describedby names: its accessible description. */
function queueDescription(page: Page): Promise<string> {
  return queueButton(page).evaluate((el) => {
    const doc = (
      globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
    ).document;
    const ids = (el as unknown as { getAttribute(n: string): string | null }).getAttribute(
      'aria-describedby',
    );
    return (ids ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => doc.getElementById(id)?.textContent ?? '')
      .join(' ');
  });
}

/**
 * The bar is two lines: the price, Variations and Queue side by side in the first, the notes one
 * line high under it; each of those shown whole inside the bar; the reason reachable in full.
 */
async function expectTwoLines(page: Page, where: string): Promise<void> {
  const bar = page.locator('.queue-bar');
  const notes = page.getByTestId('queue-notes');
  const amount = bar.locator('.cost-amount');
  const variations = page.getByTestId('variations').getByLabel('Variations');
  const queue = queueButton(page);
  for (const shown of [amount, variations, queue]) expect(await shown.isVisible(), where).toBe(true);

  const barBox = await box(bar);
  const queueBox = await box(queue);
  const notesBox = await box(notes);
  const lineHeight = await pixels(notes, 'line-height');
  // the notes: one line
  expect(notesBox.height, `${where}: the notes are one line`).toBeLessThanOrEqual(lineHeight + 1);
  // price, Variations and Queue on one row: each within Queue's height band
  for (const item of [amount, variations, page.getByRole('button', { name: 'Clear', exact: true })]) {
    const b = await box(item);
    expect(b.y, where).toBeGreaterThanOrEqual(queueBox.y - 1);
    expect(b.y + b.height, where).toBeLessThanOrEqual(queueBox.y + queueBox.height + 1);
    expect(inside(b, barBox), where).toBe(true);
  }
  // the price is not cut off by its line's ellipsis
  expect(inside(await box(amount), await box(bar.getByTestId('cost-estimate'))), where).toBe(true);
  expect(notesBox.y, where).toBeGreaterThanOrEqual(queueBox.y + queueBox.height - 1);
  // the bar: padding, the first line (Queue's height), a gap and one text line; no more
  const chrome =
    (await pixels(bar, 'padding-top')) +
    (await pixels(bar, 'padding-bottom')) +
    (await pixels(bar, 'border-top-width')) +
    (await pixels(bar, 'border-bottom-width')) +
    (await pixels(bar, 'row-gap'));
  expect(barBox.height, `${where}: the bar is two lines high`).toBeLessThanOrEqual(
    chrome + queueBox.height + lineHeight + 1,
  );

  // the whole reason is Queue's description and the title of its (maybe cut short) line
  const reason = page.getByTestId('queue-reason');
  const text = (await reason.textContent()) ?? '';
  expect(text.length).toBeGreaterThan(0);
  expect(await queueDescription(page)).toBe(text);
  expect(await reason.getAttribute('title')).toBe(text);
  const parent = page.getByTestId('parent-note');
  if ((await parent.count()) > 0) expect(await parent.getAttribute('title')).toBe(await parent.textContent());
}

async function axeAndShoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await inEachTheme(page, async (theme) => {
    const blocking = await blockingViolations(page);
    expect(blocking, describeViolations(`${name} (${theme})`, blocking)).toEqual([]);
    const bar = await box(page.locator('.queue-bar'));
    await page.screenshot({
      path: `${SHOTS}/${name}-${theme}.png`,
      clip: {
        x: 0,
        y: Math.max(0, bar.y - 120),
        width: SMALL.width,
        height: Math.min(SMALL.height, bar.height + 140),
      },
    });
  });
}

describe.skipIf(!browserAvailable())('the Queue bar in a small window, with a real key', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;
  let song: Task;
  let batch: Task[];

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        const queued = await rig.call('tasks.queue', {
          ...SONG,
          title: 'A rather long song title for the notes line',
        });
        song = await rig.waitForTask(queued.id, ['saved']);
        const made = await rig.call('tasks.queueBatch', {
          drafts: [
            { ...SONG, title: 'Batch one' },
            { ...SONG, title: 'Batch two' },
          ],
        });
        batch = await Promise.all(made.tasks.map((t) => rig.waitForTask(t.id, ['saved'])));
      },
      page: { viewport: SMALL },
    },
    (opened) => {
      ({ browser, rig, view } = opened);
    },
  );

  it('Song and Face swap: two lines, the reason whole in Queue’s description; no demo note', async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    await expectTwoLines(page, 'Song');
    expect(await page.getByTestId('cost-demo').count()).toBe(0);
    expect(await page.getByTestId('cost-estimate').textContent()).not.toContain('not billed');
    await axeAndShoot(page, 'song-800x600');

    await openComposeTab(page, 'Face swap');
    await expectTwoLines(page, 'Face swap');
    await axeAndShoot(page, 'face-swap-800x600');
  });

  it('From a result (Extend of a saved song): two lines with "Made from …" cut short, titled', async () => {
    const { page } = view;
    await openView(page, 'library');
    await card(page, song.id)
      .getByRole('button', { name: `Open ${song.title}` })
      .click();
    const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${song.id}"]`);
    await detail.getByTestId('result-actions').getByRole('button', { name: 'Extend', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    await page.getByTestId('parent-note').waitFor();
    expect(await page.getByTestId('parent-note').textContent()).toBe(`Made from “${song.title}”`);
    await expectTwoLines(page, 'From a result');
    await axeAndShoot(page, 'from-result-800x600');
  });

  it('at 1920 x 1080 every note is whole', async () => {
    const wide = await openApp({ browser, rig }, { viewport: { width: 1920, height: 1080 } });
    try {
      const { page } = wide;
      await openComposeTab(page, 'Face swap');
      const notes = page.getByTestId('queue-notes');
      await notes.waitFor();
      const cut = await notes.evaluate((el) =>
        Array.from(
          (el as unknown as { children: ArrayLike<{ scrollWidth: number; clientWidth: number }> }).children,
        )
          .filter((c) => c.scrollWidth > c.clientWidth + 1)
          .map((c) => c.scrollWidth),
      );
      expect(cut).toEqual([]);
      await mkdir(SHOTS, { recursive: true });
      const bar = await box(page.locator('.queue-bar'));
      await page.screenshot({
        path: `${SHOTS}/face-swap-1920x1080.png`,
        clip: { x: 0, y: bar.y - 40, width: 1920, height: bar.height + 60 },
      });
    } finally {
      await wide.close();
    }
  });

  it('Escape in the compare view opened from Activity: back to Activity, focus on its Compare results', async () => {
    const { page } = view;
    const batchId = batch[0]!.batchId!;
    await openView(page, 'activity');
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batchId}"]`);
    await group.getByRole('button', { name: 'Compare results' }).click();
    const compare = page.getByTestId('batch-compare');
    await compare.waitFor();
    await page.keyboard.press('Escape');
    await compare.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Activity', exact: true }).waitFor();
    const opener = group.getByRole('button', { name: 'Compare results' });
    await expect.poll(() => opener.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('Escape in the compare view opened from a detail: the detail again, focus on its Compare results', async () => {
    const { page } = view;
    const task = batch[1]!;
    await openView(page, 'library');
    await card(page, task.id)
      .getByRole('button', { name: `Open ${task.title}` })
      .click();
    const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`);
    await detail.getByTestId('lineage').getByRole('button', { name: 'Compare results' }).click();
    const compare = page.getByTestId('batch-compare');
    await compare.waitFor();
    await page.keyboard.press('Escape');
    await compare.waitFor({ state: 'detached' });
    const opener = detail.getByTestId('lineage').getByRole('button', { name: 'Compare results' });
    await expect.poll(() => opener.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });
});

/**
 * How many pixels of the composer's form the window shows (at the panel's middle, top to bottom):
 * points whose topmost element is in the tab panel but not its Queue bar, so banners, toasts,
 * the player and the bar itself do not count.
 */
function visibleFormHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    interface El {
      closest(s: string): El | null;
      getBoundingClientRect(): { x: number; width: number };
    }
    const doc = (
      globalThis as unknown as {
        document: { querySelector(s: string): El; elementFromPoint(x: number, y: number): El | null };
        innerHeight: number;
      }
    ).document;
    const panel = doc.querySelector('[role="tabpanel"]').getBoundingClientRect();
    const x = panel.x + panel.width / 2;
    let shown = 0;
    for (let y = 0; y < (globalThis as unknown as { innerHeight: number }).innerHeight; y++) {
      const el = doc.elementFromPoint(x, y);
      if (el?.closest('[role="tabpanel"]') && !el.closest('.queue-bar')) shown++;
    }
    return shown;
  });
}

describe.skipIf(!browserAvailable())('the Queue bar in demo mode', () => {
  let view: StudioPage;
  let song: Task;

  openStudio(
    {
      service: 'demo',
      prepare: async (rig) => {
        [song] = await saveSongs(rig, [{ title: 'Compact window song', seconds: 3 }]);
      },
      page: { viewport: SMALL },
    },
    (opened) => {
      ({ view } = opened);
    },
  );

  it('800 x 600 with the demo banner, the player and a toast: Extend shows a usable form', async () => {
    const { page } = view;
    await openView(page, 'library');
    await card(page, song.id)
      .getByRole('button', { name: `Play ${song.title}`, exact: true })
      .click();
    const bar = playerBar(page);
    await bar.and(page.locator(`[data-task-id="${song.id}"]`)).waitFor();
    await page.getByTestId('demo-banner').waitFor();
    await bar.getByRole('button', { name: 'Extend', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    await page.getByTestId('toast').first().waitFor();
    await page.getByTestId('extend-handles').waitFor();
    const shown = await visibleFormHeight(page);
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/extend-compact-800x600.png` });
    expect(shown, 'pixels of the Extend form shown').toBeGreaterThanOrEqual(260);
    // the banner is one line; the toast floats and the player folds into the Queue bar: the view
    // goes from the banner down to the window's bottom, the song still at hand in the bar
    const banner = await box(page.getByTestId('demo-banner'));
    expect(banner.height).toBeLessThanOrEqual(40);
    const main = await box(page.locator('#main'));
    expect(main.y).toBeCloseTo(banner.y + banner.height, 0);
    expect(main.y + main.height).toBeCloseTo(SMALL.height, 0);
    expect(await bar.isVisible()).toBe(false);
    const fold = page.locator('.queue-bar').getByTestId('player-fold');
    expect(await fold.getByRole('button', { name: 'Pause', exact: true }).isVisible()).toBe(true);
    expect(await fold.getByRole('button', { name: `Show details: ${song.title}` }).isVisible()).toBe(true);
    await inEachTheme(page, async (theme) => {
      await page.screenshot({ path: `${SHOTS}/extend-compact-800x600-${theme}.png` });
    });
    await fold.getByRole('button', { name: 'Pause', exact: true }).click();
    await fold.and(page.locator('[data-playing="false"]')).waitFor();

    // dismissed, the banner stays away after a reload
    await page
      .getByTestId('demo-banner')
      .getByRole('button', { name: /^Dismiss/ })
      .click();
    await page.getByTestId('demo-banner').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    await page.getByTestId('cost-demo').waitFor();
    expect(await page.getByTestId('demo-banner').count()).toBe(0);
  });

  it('"Demo: not billed" beside the price, in the price’s line', async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    const note = page.getByTestId('cost-demo');
    await note.waitFor();
    expect(await note.textContent()).toBe('Demo: not billed');
    expect(await page.getByTestId('cost-estimate').textContent()).toContain('Demo: not billed');
    const amount = await box(page.locator('.queue-bar .cost-amount'));
    const shown = await box(note);
    // on the price's row, right after it, whole
    expect(shown.x).toBeGreaterThan(amount.x + amount.width - 1);
    expect(shown.y).toBeLessThan(amount.y + amount.height);
    expect(shown.y + shown.height).toBeGreaterThan(amount.y);
    expect(inside(shown, await box(page.getByTestId('cost-estimate')))).toBe(true);
    await expectTwoLines(page, 'Song in demo mode');
    await axeAndShoot(page, 'song-demo-800x600');
  });
});
