/**
 * The library in small and large windows (issue 11, item 11), over a library of 130 saved tasks:
 * at 1280 x 800 opening the detail of a card far down the gallery (the grid narrows and loses a
 * column) keeps that card in the gallery's visible area, and the gallery and Activity's list
 * scroll on the compositor on the page's own background (both themes), the main area (Settings)
 * too at 800 x 600, the boards' list with SHOTS=1; at 800 x 600 the filter bar is one row
 * (the search, and a "Filters" toggle counting the active filters that shows the rest); at
 * 1920 x 1080 every filter shares one row. Axe in both themes, pictures to /tmp/window-fit-shots.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import { imageTask } from '../store/store-fixtures.ts';
import { blockingViolations, PICTURE_SIZES } from './harness/look-check.ts';
import { type Box, box, inEachTheme, inside, shownPieces } from './harness/page-boxes.ts';
import { fillLibrary } from './harness/saved-task-fill.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openApp, openStudio } from './harness/studio-session.ts';
import { clearSelectionButton, describeViolations, isFocused, openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = '/tmp/window-fit-shots';

/** The tops of the filter bar's shown controls, rounded (one value: one row). */
async function rowTops(page: Page): Promise<number[]> {
  const controls = page.getByRole('search', { name: 'Filter the library' }).locator('input, select, button');
  const tops = (await shownPieces(controls)).map(({ box: b }) => Math.round(b.y + b.height / 2));
  return [...new Set(tops.map((t) => Math.round(t / 8)))].sort((a, b) => a - b);
}

/** The selection toolbar's shown buttons and count: where each sits and whether its label is cut. */
async function selectionPieces(page: Page) {
  const pieces = page
    .getByRole('toolbar', { name: 'Selection' })
    .locator('button, [data-testid="selection-count"]');
  return (await shownPieces(pieces)).map(({ box: b, text, cut }) => ({
    text,
    middle: Math.round(b.y + b.height / 2),
    right: b.x + b.width,
    cut,
  }));
}

/** Ticks the first `count` cards; the toolbar's buttons then sit on one line, whole, inside the library. */
async function expectSelectionOneRow(page: Page, count: number): Promise<void> {
  const cards = page.getByTestId('task-card');
  for (let i = 0; i < count; i++) await cards.nth(i).getByRole('checkbox').check();
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Delete selected' }).waitFor();
  if (count >= 2) await bar.getByRole('button', { name: 'Compare' }).waitFor();
  const main = await box(page.locator('.library-main'));
  const pieces = await selectionPieces(page);
  expect(new Set(pieces.map((p) => p.middle)).size, `${count} ticked: ${JSON.stringify(pieces)}`).toBe(1);
  expect(pieces.filter((p) => p.cut)).toEqual([]);
  for (const piece of pieces) expect(piece.right, piece.text).toBeLessThanOrEqual(main.x + main.width);
}

/**
 * Whether `scroller` (the gallery, Activity's list) scrolls on the compositor: the page's layer
 * tree (CDP LayerTree) then has a layer as tall as its scroll content. A scroller Chromium does
 * not composite is painted and rasterized anew on every scrolled frame (at a standard pixel
 * density it composites one only when its background is opaque, to keep LCD text).
 */
async function scrollsOnCompositor(page: Page, scroller: Locator): Promise<boolean> {
  const cdp = await page.context().newCDPSession(page);
  let heights: number[] = [];
  cdp.on('LayerTree.layerTreeDidChange', (event) => {
    if (event.layers) heights = event.layers.map((layer) => Math.round(layer.height));
  });
  await cdp.send('LayerTree.enable');
  try {
    let content = 0;
    // a scroll of one pixel and back makes a frame, whose layer tree is then sent
    const nudge = () =>
      scroller.evaluate((el) => {
        const scroller = el as unknown as { scrollTop: number; scrollHeight: number };
        scroller.scrollTop += 1;
        scroller.scrollTop -= 1;
        return scroller.scrollHeight;
      });
    return await expect
      .poll(
        async () => {
          content = await nudge();
          return heights.includes(content);
        },
        { timeout: 5_000 },
      )
      .toBe(true)
      .then(
        () => true,
        () => false,
      );
  } finally {
    await cdp.detach();
  }
}

/** The computed background colour of what `locator` finds. */
function backgroundOf(locator: Locator): Promise<string> {
  return locator.evaluate(
    (el) =>
      (
        globalThis as unknown as { getComputedStyle(node: unknown): { backgroundColor: string } }
      ).getComputedStyle(el).backgroundColor,
  );
}

/** `scroller`'s background colour is the page's, in each theme: nothing looks different. */
async function expectPageColour(page: Page, scroller: Locator): Promise<void> {
  await inEachTheme(page, async (theme) => {
    expect(await backgroundOf(scroller), theme).toBe(await backgroundOf(page.locator('body')));
  });
}

/**
 * Failed pictures made an hour ago: Activity lists a day's failures, so its list is taller than
 * the window and scrolls.
 */
function plantRecentFailures(libraryDir: string, count: number): void {
  const store = LibraryStore.open(libraryDir, { idleCheckpointMs: 0 });
  try {
    for (let i = 0; i < count; i++) {
      const id = `failed-${i}`;
      store.insertTask({
        ...imageTask({ id, title: `Failed ${i}`, createdAt: new Date(Date.now() - 3_600_000).toISOString() }),
        model: 'service/qwen-image',
        entryId: 'qwen-image/image-edit',
      });
      store.transition(id, 'failed', {
        patch: { remoteId: `r-${id}`, error: { kind: 'bad-request', message: 'no', code: 400 } },
      });
    }
  } finally {
    store.close();
  }
}

async function axeBothThemes(page: Page, where: string): Promise<void> {
  await inEachTheme(page, async (theme) => {
    const blocking = await blockingViolations(page);
    expect(blocking, describeViolations(`${where} (${theme})`, blocking)).toEqual([]);
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  // no navigation tooltip from the last click
  await page.mouse.move(700, 590);
  await inEachTheme(page, async (theme) => {
    await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png` });
  });
}

describe.skipIf(!browserAvailable())('the library in small and large windows', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage | undefined;

  openStudio(
    {
      service: 'service',
      prepareLibrary: async (dir) => {
        await fillLibrary(dir, 130);
        plantRecentFailures(dir, 14);
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  it('at 1280 x 800 the detail of a card far down the gallery opens with that card in view', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 1280, height: 800 } });
    const { page } = view;
    await openView(page, 'library');
    const gallery = page.getByTestId('gallery');
    await page.getByTestId('task-card').first().waitFor();
    const before = Number(await gallery.getAttribute('data-columns'));
    // far down: the gallery scrolled to its tenth row, whole in view whatever a card's height
    await gallery.evaluate((el) => {
      const scroller = el as unknown as {
        scrollTop: number;
        querySelector(s: string): { getBoundingClientRect(): Box } | null;
      };
      const card = scroller.querySelector('[data-testid="task-card"]');
      scroller.scrollTop = 10 * ((card?.getBoundingClientRect().height ?? 250) + 16);
    });
    await page.waitForTimeout(300);
    // it scrolls on the compositor (not painted anew each frame: issue 22, item 6), on a
    // background of the page's own colour, so nothing looks different
    expect(
      await scrollsOnCompositor(page, gallery),
      "a composited layer for the gallery's scroll content",
    ).toBe(true);
    await expectPageColour(page, gallery);
    const galleryBox = await box(gallery);
    // the last card of the last fully shown row (it changes row and column as the grid narrows)
    const shown = await page.getByTestId('task-card').evaluateAll((els, g) => {
      return els
        .map((el) => {
          const r = (el as unknown as { getBoundingClientRect(): Box }).getBoundingClientRect();
          return { id: (el as unknown as { dataset: { taskId: string } }).dataset.taskId, r };
        })
        .filter(({ r }) => r.y >= g.y && r.y + r.height <= g.y + g.height)
        .map(({ id }) => id);
    }, galleryBox);
    const id = shown.at(-1) as string;
    expect(id).toBeTruthy();
    const card = page.locator(`[data-testid="task-card"][data-task-id="${id}"]`);
    await card.locator('.card-thumb').click();
    await page.getByTestId('detail-panel').waitFor();
    await expect.poll(async () => Number(await gallery.getAttribute('data-columns'))).toBeLessThan(before);
    await expect
      .poll(async () => ((await card.count()) > 0 ? inside(await box(card), await box(gallery)) : false))
      .toBe(true);
    // it stays in view (nothing scrolls it away a moment later)
    await page.waitForTimeout(300);
    expect(inside(await box(card), await box(gallery))).toBe(true);
    // and closing the detail keeps it in view too
    await page.getByRole('button', { name: 'Close details' }).click();
    await expect.poll(async () => Number(await gallery.getAttribute('data-columns'))).toBe(before);
    await expect
      .poll(async () => ((await card.count()) > 0 ? inside(await box(card), await box(gallery)) : false))
      .toBe(true);

    // Activity's list (a day's failures, taller than the window) scrolls on the compositor too
    await openView(page, 'activity');
    const activity = page.getByTestId('activity-list');
    await expect
      .poll(() => activity.evaluate((el) => el.scrollHeight > el.clientHeight), { timeout: 10_000 })
      .toBe(true);
    expect(
      await scrollsOnCompositor(page, activity),
      "a composited layer for Activity's scroll content",
    ).toBe(true);
    await expectPageColour(page, activity);
    await view.close();
    view = undefined;
  });

  it('at 1280 x 800 the filters are the search and one row, the selection toolbar one row, nothing cut', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 1280, height: 800 } });
    const { page } = view;
    await openView(page, 'library');
    await page.getByTestId('task-card').first().waitFor();
    // the search (with Clear filters) on its row, every other filter on the next
    expect(await rowTops(page)).toHaveLength(2);
    const libraryRight = await page.locator('.library-main').evaluate((el) => {
      // the right edge of its content (inside its padding)
      const r = (el as unknown as { getBoundingClientRect(): Box }).getBoundingClientRect();
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { paddingRight: string } }
      ).getComputedStyle(el);
      return r.x + r.width - Number.parseFloat(style.paddingRight);
    });
    const filters = page.getByRole('search', { name: 'Filter the library' });
    const beyond = (await shownPieces(filters.locator('input, select, button, label')))
      .filter(({ box: b }) => b.x + b.width > libraryRight + 0.5)
      .map((piece) => piece.html);
    expect(beyond).toEqual([]);
    // a selection of one, then of three (Compare shows): the toolbar's buttons on one line, each
    // label whole, inside the view
    await expectSelectionOneRow(page, 1);
    await clearSelectionButton(page).click();
    await expectSelectionOneRow(page, 3);
    await shoot(page, 'library-1280x800-selection');
    await clearSelectionButton(page).click();
    await view.close();
    view = undefined;
  });

  it('at 800 x 600 the filters are one row: the search and a Filters toggle that shows the rest', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 800, height: 600 } });
    const { page } = view;
    await openView(page, 'library');
    await page.getByTestId('task-card').first().waitFor();
    const bar = page.getByRole('search', { name: 'Filter the library' });
    const toggle = bar.getByRole('button', { name: /^Filters/ });
    await expect.poll(() => rowTops(page)).toHaveLength(1);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await bar.getByLabel('Type').isVisible()).toBe(false);
    expect((await box(bar)).height).toBeLessThan(60);
    await axeBothThemes(page, 'Library at 800 x 600');
    await shoot(page, 'library-800x600');
    // a selection of three: the toolbar on one row too, every action reachable
    await expectSelectionOneRow(page, 3);
    await shoot(page, 'library-800x600-selection');
    // what has no room is under More, whole and inside the window; Escape closes it onto More
    const more = page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'More' });
    await more.click();
    const panel = page.getByTestId('selection-more');
    expect(await panel.getByRole('button').allTextContents()).toEqual([
      'Re-run selected…',
      'Add to board…',
      'Queue again from an export…',
    ]);
    const shown = await box(panel);
    expect(shown.x + shown.width).toBeLessThanOrEqual(800);
    expect(shown.y + shown.height).toBeLessThanOrEqual(600);
    await axeBothThemes(page, 'Library at 800 x 600, More of the selection');
    await inEachTheme(page, (theme) =>
      page.screenshot({ path: `${SHOTS}/library-800x600-more-${theme}.png` }).then(() => undefined),
    );
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await isFocused(more)).toBe(true);
    // a dialog opened from the panel (which closed as it opened) gives the focus back to More
    await more.click();
    await panel.getByRole('button', { name: 'Add to board…' }).click();
    const adding = page.getByTestId('add-to-board');
    await adding.waitFor();
    await page.keyboard.press('Escape');
    await adding.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(more)).toBe(true);
    // the panel closes when the focus leaves it (Tab past its last button): it covers cards
    await page.keyboard.press('Enter');
    await panel.waitFor();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    await panel.waitFor({ state: 'detached' });
    // a card's detail (over the gallery in a window this narrow) leaves the toolbar in view: each
    // of its buttons is the one a press at its middle reaches
    await page
      .getByTestId('task-card')
      .first()
      .getByRole('button', { name: /^Open / })
      .focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-panel').waitFor();
    const uncovered = await page
      .getByRole('toolbar', { name: 'Selection' })
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons.map((el) => {
          const b = el as unknown as {
            ownerDocument: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null };
            getBoundingClientRect(): { x: number; y: number; width: number; height: number };
            textContent: string;
          };
          const r = b.getBoundingClientRect();
          const hit = b.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return `${b.textContent}: ${hit?.closest('button') === b ? 'shown' : 'covered'}`;
        }),
      );
    expect(uncovered.filter((line) => line.endsWith('covered'))).toEqual([]);
    await inEachTheme(page, (theme) =>
      page
        .screenshot({ path: `${SHOTS}/library-800x600-detail-selection-${theme}.png` })
        .then(() => undefined),
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
    await clearSelectionButton(page).click();

    // the hidden filters are reachable: open, choose, and the toggle counts them
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await bar.getByLabel('Type').selectOption('song');
    await bar.getByLabel('Favourites only').check();
    await expect.poll(() => toggle.textContent()).toContain('2');
    expect(await page.getByRole('button', { name: /^Filters\s*2 active$/ }).count()).toBe(1);
    await page
      .getByTestId('library-total')
      .filter({ hasText: /^\d+ tasks?$/ })
      .waitFor();
    await axeBothThemes(page, 'Library at 800 x 600, filters shown');
    await shoot(page, 'library-800x600-filters');
    // from the keyboard: the toggle closes them again and the count stays
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await bar.getByLabel('Type').isVisible()).toBe(false);
    expect(await toggle.textContent()).toContain('2');
    await bar.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => toggle.textContent()).not.toContain('2');

    // the views that scroll in the main area (Settings here; Account history and Compose alike)
    // scroll on the compositor, on the page's own colour
    await openView(page, 'settings');
    const main = page.locator('#main');
    await expect.poll(() => main.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await scrollsOnCompositor(page, main), "a composited layer for the main area's content").toBe(
      true,
    );
    await expectPageColour(page, main);
    await view.close();
    view = undefined;
  });

  it('at 1920 x 1080 every filter shares one row and no toggle shows', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 1920, height: 1080 } });
    const { page } = view;
    await openView(page, 'library');
    await page.getByTestId('task-card').first().waitFor();
    const bar = page.getByRole('search', { name: 'Filter the library' });
    await expect.poll(() => rowTops(page)).toHaveLength(1);
    expect(await bar.getByLabel('Type').isVisible()).toBe(true);
    expect(await bar.getByLabel('Sort').isVisible()).toBe(true);
    expect(await bar.getByRole('button', { name: /^Filters/ }).isVisible()).toBe(false);
    await axeBothThemes(page, 'Library at 1920 x 1080');
    await shoot(page, 'library-1920x1080');
    await page.getByTestId('task-card').nth(20).locator('.card-thumb').click();
    await page.getByTestId('detail-panel').waitFor();
    await shoot(page, 'library-1920x1080-detail');
    await view.close();
    view = undefined;
  });

  it('Activity, Account history and the boards look as before on their opaque scrollers (SHOTS=1)', async () => {
    if (PICTURE_SIZES.length > 0)
      for (let i = 0; i < 24; i++) await rig.call('boards.create', { name: `Board ${i}` });
    for (const s of PICTURE_SIZES) {
      view = await openApp({ browser, rig }, { viewport: { width: s.width, height: s.height } });
      const { page } = view;
      await openView(page, 'activity');
      await page.getByTestId('activity-list').waitFor();
      await shoot(page, `activity-${s.name}`);
      await openView(page, 'history');
      await page.locator('[data-testid^="history-"]').first().waitFor();
      await shoot(page, `history-${s.name}`);
      // 24 boards are taller than the navigation's room: their list scrolls on the compositor too
      const boards = page.getByTestId('boards-nav');
      if (await boards.isVisible()) {
        expect(await scrollsOnCompositor(page, boards), 'a composited layer for the boards').toBe(true);
        expect(await backgroundOf(boards)).toBe(await backgroundOf(page.locator('.nav')));
      }
      await view.close();
      view = undefined;
    }
  });
});
