/**
 * The library gallery from the keyboard, over the real backend: one tab stop (roving tabindex);
 * arrow keys move by card and by row as the columns fall, Home / End; Enter opens the detail and
 * Escape closes it, focus back on the card; Space plays a song card in the player; Ctrl+A and
 * "Select all" select every card; Delete hides the card behind an Undo toast and makes the real
 * delete call only when the 5 s window ends, and closing the window within it deletes nothing.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { makeSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  card,
  openLibraryWith,
  openView,
  playedMediaState,
  trackPlayedMedia,
  waitForApp,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const TITLES = ['Dawn', 'Morning', 'Noon', 'Afternoon', 'Dusk', 'Evening', 'Midnight'];

const cards = (page: Page) => page.getByTestId('task-card');

/** The gallery's card ids in the order shown (rows top to bottom, left to right). */
function shownIds(page: Page): Promise<string[]> {
  return cards(page).evaluateAll((els) =>
    els.map((el) => (el as unknown as { getAttribute(n: string): string }).getAttribute('data-task-id')),
  );
}

/** The task id of the card holding the focused element, or null. */
function focusedCardId(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
    const active = doc.activeElement as {
      closest?(s: string): { getAttribute(n: string): string | null } | null;
    } | null;
    return active?.closest?.('[data-testid="task-card"]')?.getAttribute('data-task-id') ?? null;
  });
}

/** Ids of the cards that hold an element in the tab order. */
function tabbableCards(page: Page): Promise<string[]> {
  return page
    .getByTestId('gallery')
    .locator('button:not([tabindex="-1"]), input:not([tabindex="-1"])')
    .evaluateAll((els) => [
      ...new Set(
        els.map((el) =>
          (el as unknown as { closest(s: string): { getAttribute(n: string): string } })
            .closest('[data-testid="task-card"]')
            .getAttribute('data-task-id'),
        ),
      ),
    ]);
}

function openButton(page: Page, task: Task): Locator {
  return card(page, task.id).getByRole('button', { name: `Open ${task.title}` });
}

describe.skipIf(!browserAvailable())('gallery: keyboard, select all, delete with undo', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;
  const byId = new Map<string, Task>();
  /** The tasks in gallery order (newest first). */
  let order: Task[] = [];
  let columns = 0;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        for (const task of await makeSongs(rig, TITLES, 3)) byId.set(task.id, task);
      },
      page: { beforeLoad: trackPlayedMedia },
    },
    async (opened) => {
      ({ browser, rig, view } = opened);
      await openLibraryWith(view.page, TITLES.length);
      order = (await shownIds(view.page)).map((id) => byId.get(id)!);
      columns = Number(await view.page.getByTestId('gallery').getAttribute('data-columns'));
    },
  );

  it('is one tab stop; arrow keys move by card and by row, Home and End', async () => {
    const { page } = view;
    // at 1280 x 800: a full first row and a shorter second one
    expect(columns).toBeGreaterThanOrEqual(4);
    expect(columns).toBeLessThanOrEqual(5);
    expect(await tabbableCards(page)).toEqual([order[0]!.id]);
    // Tab from the toolbar above (its last enabled button; Export selected waits for a selection)
    // reaches the first card (the gallery's one stop)
    await page.getByRole('button', { name: 'Queue again from an export…' }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedCardId(page)).toBe(order[0]!.id);

    const expectFocus = async (key: string, index: number) => {
      await page.keyboard.press(key);
      await expect
        .poll(() => focusedCardId(page), { message: `${key} to card ${index}` })
        .toBe(order[index]!.id);
    };
    await expectFocus('ArrowRight', 1);
    await expectFocus('ArrowDown', 1 + columns);
    await expectFocus('ArrowUp', 1);
    await expectFocus('ArrowLeft', 0);
    await expectFocus('End', 6);
    await expectFocus('Home', 0);
    await expectFocus('ArrowLeft', 0);
    for (let i = 1; i < columns; i++) await expectFocus('ArrowRight', i);
    // from the last column of the full row down to the shorter last row: its last card
    await expectFocus('ArrowDown', 6);
    await expectFocus('ArrowDown', 6);
    // the tab stop went with the focus
    expect(await tabbableCards(page)).toEqual([order[6]!.id]);
    // and the focus is on the card's main button
    expect(await openButton(page, order[6]!).evaluate((el) => el.getAttribute('aria-label'))).toContain(
      order[6]!.title,
    );
  });

  it('Enter opens the detail; Escape closes it, from the card or the panel, and the focus is back on the card', async () => {
    const { page } = view;
    const task = order[2]!;
    await openButton(page, task).focus();
    await page.keyboard.press('Enter');
    const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`);
    await detail.waitFor();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    expect(await focusedCardId(page)).toBe(task.id);

    await page.keyboard.press('Enter');
    await detail.waitFor();
    await detail.getByRole('button', { name: 'Rename' }).focus();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await expect.poll(() => focusedCardId(page)).toBe(task.id);
  });

  it('at 800 x 600 with the detail open (it floats over the gallery), the arrow keys reach no card it covers', async () => {
    const { page } = view;
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await openButton(page, order[0]!).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('detail-panel').waitFor();
      /** Whether a press at the middle of the focused card's shown part reaches that card. */
      const focusedCardShown = () =>
        page.evaluate(() => {
          type Box = { left: number; top: number; right: number; bottom: number };
          type El = { closest(s: string): El | null; getBoundingClientRect(): Box };
          const doc = (globalThis as unknown as { document: Record<string, unknown> }).document as {
            activeElement: El | null;
            elementFromPoint(x: number, y: number): El | null;
            querySelector(s: string): El | null;
          };
          const card = doc.activeElement?.closest('[data-testid="task-card"]');
          const scroller = doc.querySelector('[data-testid="gallery"]');
          if (!card || !scroller) return 'no focused card';
          const c = card.getBoundingClientRect();
          const s = scroller.getBoundingClientRect();
          const x = (Math.max(c.left, s.left) + Math.min(c.right, s.right)) / 2;
          const y = (Math.max(c.top, s.top) + Math.min(c.bottom, s.bottom)) / 2;
          return doc.elementFromPoint(x, y)?.closest('[data-testid="task-card"]') === card
            ? 'shown'
            : 'covered';
        });
      for (let i = 1; i < 4; i++) {
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => focusedCardId(page)).toBe(order[i]!.id);
        await expect.poll(focusedCardShown, { message: `card ${i} after ArrowRight` }).toBe('shown');
      }
      // nor does Tab: every control of the filter bar is what a press at its middle reaches
      const coveredFilters = await page.evaluate(() => {
        type El = {
          contains(e: El | null): boolean;
          getBoundingClientRect(): { left: number; top: number; width: number; height: number };
          getAttribute(n: string): string | null;
          tagName: string;
        };
        const doc = (globalThis as unknown as { document: Record<string, unknown> }).document as {
          querySelectorAll(s: string): Iterable<El>;
          elementFromPoint(x: number, y: number): El | null;
        };
        const covered: string[] = [];
        for (const control of doc.querySelectorAll('[role="search"] :is(input, select, button)')) {
          const r = control.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (!control.contains(doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)))
            covered.push(control.getAttribute('aria-label') ?? control.tagName);
        }
        return covered;
      });
      expect(coveredFilters).toEqual([]);
    } finally {
      // the detail closed and the window back as the describe block's other tests expect
      if (await page.getByTestId('detail-panel').count())
        await page.getByRole('button', { name: 'Close details' }).click();
      await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Space plays a song card in the player, and pauses it', async () => {
    const { page } = view;
    const task = order[1]!;
    await openButton(page, task).focus();
    await page.keyboard.press(' ');
    await expect
      .poll(async () => (await playedMediaState(page))?.src ?? '')
      .toContain(task.outputs[0]!.path!);
    await expect.poll(async () => (await playedMediaState(page))?.paused).toBe(false);
    // Space did not also open the detail
    expect(await page.getByTestId('detail-panel').count()).toBe(0);
    expect(await focusedCardId(page)).toBe(task.id);
    await page.keyboard.press(' ');
    await expect.poll(async () => (await playedMediaState(page))?.paused).toBe(true);
  });

  it('Ctrl+A selects every card; so does "Select all"; in the search box Ctrl+A stays the text', async () => {
    const { page } = view;
    const count = page.getByTestId('selection-count');
    await openButton(page, order[0]!).focus();
    await page.keyboard.press('Control+a');
    await expect.poll(() => count.textContent()).toBe(`${TITLES.length} selected`);
    for (const task of order)
      expect(
        await card(page, task.id)
          .getByRole('checkbox', { name: `Select ${task.title}` })
          .isChecked(),
      ).toBe(true);
    await page.getByRole('button', { name: 'Clear selection' }).click();
    expect(await count.count()).toBe(0);

    await page.getByRole('button', { name: 'Select all' }).click();
    await expect.poll(() => count.textContent()).toBe(`${TITLES.length} selected`);
    expect(await page.getByRole('button', { name: 'Select all' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Clear selection' }).click();

    const search = page.getByRole('searchbox', { name: 'Search library' });
    await search.fill('abc');
    await search.press('Control+a');
    expect(await count.count()).toBe(0);
    await search.fill('');
    await expect.poll(() => cards(page).count()).toBe(TITLES.length);
  });

  it('Delete hides the card behind an Undo toast; Undo brings it back; the delete call waits for the end of the window', async () => {
    const { page, bridge } = view;
    const deletes = () => bridge.calls.filter((c) => c.name === 'tasks.delete');
    const task = order[3]!;
    await openButton(page, task).focus();
    await page.keyboard.press('Delete');
    await card(page, task.id).waitFor({ state: 'detached' });
    const toast = page.getByTestId('toast').filter({ hasText: `Deleted “${task.title}”` });
    await toast.waitFor();
    // the focus went on to the next card; the total counts the card out
    await expect.poll(() => focusedCardId(page)).toBe(order[4]!.id);
    await expect.poll(() => page.getByTestId('library-total').textContent()).toBe('6 tasks');
    expect(deletes()).toHaveLength(0);

    await toast.getByRole('button', { name: 'Undo' }).click();
    await card(page, task.id).waitFor();
    await expect.poll(() => focusedCardId(page)).toBe(task.id);
    await new Promise((resolve) => setTimeout(resolve, 5500));
    expect(deletes()).toHaveLength(0);
    expect(await rig.call('tasks.get', { id: task.id })).not.toBeNull();
    expect(await page.getByTestId('library-total').textContent()).toBe('7 tasks');

    // this time the window runs out: then, and only then, the task is deleted
    const pressed = Date.now();
    await page.keyboard.press('Delete');
    await card(page, task.id).waitFor({ state: 'detached' });
    const call = await waitUntil(() => deletes()[0], 'the delete call', 10_000);
    expect(call.args).toEqual({ selection: { ids: [task.id] } });
    expect(call.at - pressed).toBeGreaterThanOrEqual(4500);
    // to Recently deleted, files and all
    expect((await rig.call('tasks.get', { id: task.id }))?.deletedAt).not.toBeNull();
    await toast.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('library-total').textContent()).toBe('6 tasks');
    expect(await card(page, task.id).count()).toBe(0);
  });

  it('asks before deleting the whole selection when the focused card is in it, with one Undo', async () => {
    const { page, bridge } = view;
    const before = bridge.calls.filter((c) => c.name === 'tasks.delete').length;
    const picked = [order[5]!, order[6]!];
    for (const task of picked)
      await card(page, task.id)
        .getByRole('checkbox', { name: `Select ${task.title}` })
        .check();
    await openButton(page, picked[0]!).focus();
    await page.keyboard.press('Delete');
    const dialog = page.getByTestId('confirm-dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Move 2 tasks to Recently deleted?');
    await dialog.getByRole('button', { name: 'Move 2 tasks' }).click();
    for (const task of picked) await card(page, task.id).waitFor({ state: 'detached' });
    const toast = page.getByTestId('toast').filter({ hasText: 'Moved 2 tasks to Recently deleted' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    for (const task of picked) await card(page, task.id).waitFor();
    // the selection came back with them
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('2 selected');
    await page.getByRole('button', { name: 'Clear selection' }).click();
    // moved at once and taken back by Undo: nothing is in Recently deleted
    expect(bridge.calls.filter((c) => c.name === 'tasks.delete').length).toBe(before + 1);
    for (const task of picked) expect((await rig.call('tasks.get', { id: task.id }))?.deletedAt).toBeNull();
  });

  it('closing the window during the undo window deletes nothing: the task is there when the app opens again', async () => {
    const task = order[0]!;
    const other = await rig.openPage(browser);
    await waitForApp(other.page);
    await openView(other.page, 'library');
    await openButton(other.page, task).focus();
    await other.page.keyboard.press('Delete');
    await card(other.page, task.id).waitFor({ state: 'detached' });
    await other.close();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(other.bridge.calls.filter((c) => c.name === 'tasks.delete')).toHaveLength(0);
    expect(await rig.call('tasks.get', { id: task.id })).not.toBeNull();
    const again = await rig.openPage(browser);
    try {
      await waitForApp(again.page);
      await openView(again.page, 'library');
      await card(again.page, task.id).waitFor();
    } finally {
      await again.close();
    }
  });
});
