/**
 * The library's Type filter, boards and a failed task's detail, in the built app: "Songs" shows a
 * song extend beside the song, "Face swaps" a multi-face swap beside the one-face swap, "Other"
 * neither; a card dragged onto a board in the sidebar (or the selection it is part of, or a
 * selection through "Add to board…") is on it, and the board filters the gallery with the Type
 * filter; in a narrow window boards are made, renamed and deleted from the Board filter; a failed task's detail says its error as a sentence and "No result: the task failed."
 * Pictures of the boards at 800 x 600 and 1920 x 1080 in both themes go to /tmp/gallery-shots.
 */
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import { inThemeAtEachSize, THEMES } from './harness/look-check.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, isFocused, openLibraryWith, openView } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const REFUSAL = 'your plan at the service does not include this model';

/** [id, title, model, task type, input], oldest first; the last one failed. */
const PLANTED: [string, string, string, string, Record<string, unknown>][] = [
  ['song', 'Harbour lights', 'ace-step', 'txt2audio', { style_prompt: 'sea shanty', duration: 30 }],
  ['extend', 'Harbour lights (extended)', 'ace-step', 'extend', { audio: 'https://example.test/a.mp3' }],
  ['swap', 'One face', 'image-toolkit', 'face-swap', { swap_image: 'x', target_image: 'y' }],
  ['multi', 'Two faces', 'image-toolkit', 'multi-face-swap', { swap_image: 'x', target_image: 'y' }],
  ['cutout', 'Cut out', 'image-toolkit', 'background-remove', { image: 'x' }],
  ['failed', 'Refused song', 'ace-step', 'txt2audio', { style_prompt: 'refused', duration: 30 }],
];

function plant(libraryDir: string): void {
  const store = LibraryStore.open(libraryDir);
  try {
    PLANTED.forEach(([id, title, modelName, taskType, input], i) => {
      const model = `service/${modelName}`;
      store.insertTask({
        id,
        model,
        taskType,
        title,
        request: { model, task_type: taskType, input },
        estimateMicros: 10_000,
        createdAt: new Date(Date.now() - (PLANTED.length - i) * 60_000).toISOString(),
      });
      store.transition(id, 'failed', {
        patch: { error: { kind: 'bad-request', message: REFUSAL, code: 400 } },
      });
    });
  } finally {
    store.close();
  }
}

const SHOTS = process.env.GALLERY_SHOTS_DIR ?? '/tmp/gallery-shots';

async function shownIds(page: Page): Promise<string[]> {
  const cards = await page.getByTestId('task-card').all();
  const found = await Promise.all(cards.map((c) => c.getAttribute('data-task-id')));
  return found.map((id) => id ?? '').sort();
}

async function showType(page: Page, label: string, expected: string[]): Promise<void> {
  const bar = page.getByRole('search', { name: 'Filter the library' });
  await bar.getByLabel('Type').selectOption({ label });
  await expect.poll(() => shownIds(page), { timeout: 10_000 }).toEqual([...expected].sort());
}

describe.skipIf(!browserAvailable())("the Type filter and a failed task's detail", () => {
  let view: StudioPage;
  let rig: StudioRig;
  let browser: Browser;

  openStudio({ service: 'service', prepareLibrary: plant }, (opened) => {
    ({ view, rig, browser } = opened);
  });

  it('Songs lists the extend, Face swaps the multi-face swap, Other neither', async () => {
    const { page } = view;
    await openLibraryWith(page, PLANTED.length);
    await showType(page, 'Songs', ['song', 'extend', 'failed']);
    await showType(page, 'Face swaps', ['swap', 'multi']);
    await showType(page, 'Other', ['cutout']);
    await showType(
      page,
      'All types',
      PLANTED.map(([id]) => id),
    );
  });

  it("a failed task's detail says its error as a sentence and that there is no result", async () => {
    const { page } = view;
    await card(page, 'failed')
      .getByRole('button', { name: /^Open Refused song/ })
      .click();
    const detail = page.locator('[data-testid="detail-panel"][data-task-id="failed"]');
    await detail.waitFor();
    await expect
      .poll(() => detail.getByRole('note').first().textContent())
      .toBe('Your plan at the service does not include this model');
    expect(await detail.locator('.detail-media-empty').textContent()).toBe('No result: the task failed.');
    expect(await detail.getByText('No saved result yet.').count()).toBe(0);
  });

  it('a card dragged onto a board is on it, as is a selection; the board filters the gallery with Type', async () => {
    const { page } = view;
    await page.keyboard.press('Escape');
    await openLibraryWith(page, PLANTED.length);
    const nav = page.getByTestId('boards-nav');
    await nav.getByRole('button', { name: '+ New board' }).click();
    await nav.getByLabel('Name of the new board').fill('Keepers');
    await page.keyboard.press('Enter');
    const board = nav.locator('[data-testid="board"][data-board="Keepers"]');
    const count = board.getByTestId('board-count');
    await expect.poll(() => count.textContent()).toBe(', 0 tasks');
    // the board's inline rename given up with Escape: the focus is back on the board's options
    const boardOptions = board.getByRole('button', { name: 'Options of the board Keepers' });
    await boardOptions.click();
    await board.getByRole('button', { name: 'Rename' }).click();
    await nav.getByLabel('New name of the board Keepers').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => isFocused(boardOptions)).toBe(true);

    // one card dragged: its own task
    await card(page, 'song').dragTo(board);
    await expect.poll(() => count.textContent()).toBe(', 1 task');
    await expect.poll(() => page.getByText('Added 1 task to “Keepers”').count()).toBe(1);
    // the board's name is isolated from the words around it, as in the sidebar
    const added = page.getByTestId('toast').filter({ hasText: 'Added 1 task to' });
    expect(await added.locator('bdi').allTextContents()).toEqual(['Keepers']);
    // a card of the selection dragged: the whole selection
    for (const title of ['Two faces', 'Cut out'])
      await page.getByRole('checkbox', { name: `Select ${title}` }).check();
    await card(page, 'multi').dragTo(board);
    await expect.poll(() => count.textContent()).toBe(', 3 tasks');
    // the keyboard way: Add to board… on the selection
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('checkbox', { name: 'Select One face' }).check();
    await page.getByRole('button', { name: 'Add to board…' }).click();
    const dialog = page.getByTestId('add-to-board');
    expect(await dialog.getByRole('radio', { name: /Keepers/ }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Add to board' }).click();
    await expect.poll(() => count.textContent()).toBe(', 4 tasks');
    // Enter pressed twice in the name field before the first add answers adds once
    await page.getByRole('checkbox', { name: 'Select One face' }).uncheck();
    await page.getByRole('checkbox', { name: 'Select Cut out' }).check();
    await page.getByRole('button', { name: 'Add to board…' }).click();
    await dialog.getByTestId('new-board-choice').click();
    await dialog.getByLabel('Board name').fill('keepers');
    await dialog.getByLabel('Board name').evaluate((field) => {
      // both in one turn of the page: the second comes before any answer or render
      const page = globalThis as unknown as { KeyboardEvent: new (type: string, init: object) => Event };
      for (let i = 0; i < 2; i++)
        field.dispatchEvent(new page.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    await dialog.waitFor({ state: 'detached' });
    const already = page.getByTestId('toast').filter({ hasText: 'Already on “Keepers”' });
    await already.waitFor();
    // a second add would have said it again (the same toast, counted ×2), or refused the name
    expect(await already.getByTestId('toast-count').count()).toBe(0);
    expect(await page.getByTestId('toast').filter({ hasText: 'already exists' }).count()).toBe(0);

    await board.getByRole('button', { name: /^Keepers/ }).click();
    await expect.poll(() => shownIds(page)).toEqual(['cutout', 'multi', 'song', 'swap']);
    expect(await page.getByTestId('library-total').textContent()).toBe('4 tasks on the board “Keepers”');
    await showType(page, 'Face swaps', ['swap', 'multi']);
    await showType(page, 'All types', ['song', 'swap', 'multi', 'cutout']);

    for (const theme of THEMES) {
      await inThemeAtEachSize(rig, browser, theme, async (shot, size) => {
        await openView(shot, 'library');
        const inSidebar = shot.getByTestId('boards-nav').getByRole('button', { name: /^Keepers/ });
        if (await inSidebar.isVisible()) await inSidebar.click();
        else {
          // a narrow window: the navigation is glyphs, the board is a filter behind "Filters"
          const filters = shot.getByRole('search', { name: 'Filter the library' });
          await filters.getByRole('button', { name: /^Filters/ }).click();
          await filters.getByLabel('Board', { exact: true }).selectOption({ label: 'Keepers (4)' });
        }
        await expect.poll(() => shownIds(shot)).toEqual(['cutout', 'multi', 'song', 'swap']);
        await shot.screenshot({ path: `${SHOTS}/boards-${theme}-${size.width}.png` });
      });
    }
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => shownIds(page)).toHaveLength(PLANTED.length);
  });

  it("a narrow window (no boards in the navigation) makes, renames and deletes boards from the Board filter's options", async () => {
    const { page } = view;
    const wide = page.viewportSize();
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await openLibraryWith(page, PLANTED.length);
      expect(await page.getByTestId('boards-nav').isVisible()).toBe(false);
      const filters = page.getByRole('search', { name: 'Filter the library' });
      await filters.getByRole('button', { name: /^Filters/ }).click();
      const options = filters.getByRole('button', { name: 'Board options' });
      const board = filters.getByLabel('Board', { exact: true });
      const named = async (dialogTitle: RegExp, button: string, name: string) => {
        const dialog = page.getByTestId('board-name-dialog');
        expect(await dialog.getByRole('heading').textContent()).toMatch(dialogTitle);
        // the dialog's own field, not sized by the filter bar it is opened from (148 px there)
        expect((await dialog.getByLabel('Board name').boundingBox())?.width).toBeGreaterThan(300);
        await dialog.getByLabel('Board name').fill(name);
        await dialog.getByRole('button', { name: button }).click();
      };
      const gone = () => page.getByTestId('board-name-dialog').waitFor({ state: 'detached' });

      await options.click();
      await page.getByTestId('board-filter-options').getByRole('button', { name: 'New board…' }).click();
      // a name another board has is refused at the field, in words
      await named(/^New board$/, 'Make board', 'keepers');
      const taken = page.getByTestId('board-name-dialog').getByRole('alert');
      expect(await taken.textContent()).toBe('A board named "keepers" already exists');
      await named(/^New board$/, 'Make board', 'Night walks');
      await gone();
      // each dialog of the options gives the focus back to them (their panel closed as it opened)
      await expect.poll(() => isFocused(options)).toBe(true);
      // their panel closes when the focus leaves it (Tab past its last button)
      await page.keyboard.press('Enter');
      const menu = page.getByTestId('board-filter-options');
      await menu.getByRole('button', { name: 'New board…' }).waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await menu.waitFor({ state: 'detached' });
      await board.selectOption({ label: 'Night walks (0)' });

      await options.click();
      await page.getByTestId('board-filter-options').getByRole('button', { name: 'Rename board…' }).click();
      const long = 'A'.repeat(80);
      await named(/^Rename the board “Night walks”$/, 'Rename', long);
      await gone();
      await expect.poll(() => board.locator('option:checked').textContent()).toBe(`${long} (0)`);
      await expect.poll(() => isFocused(options)).toBe(true);
      // the library's count names the board, broken inside the window
      const total = await page.getByTestId('library-total').boundingBox();
      expect(total && total.x + total.width).toBeLessThanOrEqual(800);

      await options.click();
      await page.getByTestId('board-filter-options').getByRole('button', { name: 'Delete board…' }).click();
      const question = page.getByRole('dialog', { name: /^Delete the board/ });
      // a long name without spaces breaks inside the dialog instead of running out of it
      const title = question.getByRole('heading');
      const [titleBox, dialogBox] = [await title.boundingBox(), await question.boundingBox()];
      expect(titleBox && dialogBox && titleBox.x + titleBox.width <= dialogBox.x + dialogBox.width).toBe(
        true,
      );
      expect(await question.getByText('It holds no tasks; only the board goes.').count()).toBe(1);
      await question.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => isFocused(options)).toBe(true);
      await options.click();
      await page.getByTestId('board-filter-options').getByRole('button', { name: 'Delete board…' }).click();
      await question.getByRole('button', { name: 'Delete board' }).click();
      await expect.poll(() => board.locator('option:checked').textContent()).toBe('Any board');
      // the filter's options are read again after the delete: asked until the list has reloaded
      await expect.poll(() => board.locator('option', { hasText: long }).count()).toBe(0);
      await expect.poll(() => isFocused(options)).toBe(true);
    } finally {
      if (wide) await page.setViewportSize(wide);
    }
  });

  it("a board deleted from the sidebar gives the focus to the next board's row, else to + New board", async () => {
    const { page } = view;
    await openLibraryWith(page, PLANTED.length);
    const nav = page.getByTestId('boards-nav');
    await nav.getByRole('button', { name: '+ New board' }).click();
    await nav.getByLabel('Name of the new board').fill('Later');
    await page.keyboard.press('Enter');
    const later = nav.locator('[data-testid="board"][data-board="Later"]');
    await later.waitFor();
    const deleteFromSidebar = async (name: string, press: 'click' | 'dblclick' = 'click') => {
      const row = nav.locator(`[data-testid="board"][data-board="${name}"]`);
      await row.getByRole('button', { name: `Options of the board ${name}` }).click();
      await row.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: /^Delete the board/ })
        .getByRole('button', { name: 'Delete board' })
        [press]();
      await row.waitFor({ state: 'detached' });
    };
    // Keepers (from the first test) is listed before Later: Later's row takes the focus. Its
    // Delete board pressed twice deletes once: the question waits for the delete, its button
    // busy, so no second delete says the board is gone
    await deleteFromSidebar('Keepers', 'dblclick');
    expect(await page.locator('[data-testid="toast"][data-tone="error"]').allTextContents()).toEqual([]);
    await expect.poll(() => isFocused(later.getByRole('button', { name: /^Later/ }))).toBe(true);
    // the last board: + New board
    await deleteFromSidebar('Later');
    await expect.poll(() => isFocused(nav.getByRole('button', { name: '+ New board' }))).toBe(true);
  });
});
