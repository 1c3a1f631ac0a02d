/**
 * The app's frame in a small window (800 x 600), from a new user's walkthrough:
 * - the frame never moves: pressing Queue on an empty Song form and tabbing through every control
 *   to the end leaves the document unscrolled (scrollTop 0, nothing to scroll) and the navigation
 *   at the top; only the view scrolls (the Reference audio slot's hidden file input and URL
 *   label once stuck out below the window and made the document scrollable);
 * - an error toast shows its whole message, wrapped, not cut with an ellipsis;
 * - the Queue bar's balance note carries its whole text as its title, as the other notes do;
 * - a navigation item's tooltip hides once the item is clicked, and shows again on a later hover;
 * - a disabled primary button (Settings' "Save key") is grey in both themes, not the accent.
 * Pictures to /tmp/app-frame-shots.
 */
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { box, inEachTheme } from './harness/page-boxes.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { fillSong, openComposeTab, openView, queue, queueButton } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = '/tmp/app-frame-shots';
const SMALL = { width: 800, height: 600 };

interface DocumentScroll {
  top: number;
  height: number;
  client: number;
}

/** How far the document is scrolled, and how tall it is against the window. */
function documentScroll(page: Page): Promise<DocumentScroll> {
  return page.evaluate(() => {
    const el = (
      globalThis as unknown as {
        document: { scrollingElement: { scrollTop: number; scrollHeight: number; clientHeight: number } };
      }
    ).document.scrollingElement;
    return { top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight };
  });
}

/**
 * The focused element: a short name for the messages, and whether the focus was on it before
 * (marked with a data attribute on the first visit).
 */
function focusedElement(page: Page): Promise<{ name: string; again: boolean }> {
  return page.evaluate(() => {
    const el = (
      globalThis as unknown as {
        document: {
          activeElement: { outerHTML: string; textContent: string; dataset: Record<string, string> } | null;
        };
      }
    ).document.activeElement;
    if (!el) return { name: '(none)', again: true };
    const again = el.dataset.frameTabbed === 'yes';
    el.dataset.frameTabbed = 'yes';
    return { name: `${el.outerHTML.slice(0, 80)} ${el.textContent.slice(0, 40)}`, again };
  });
}

async function expectFrameStill(page: Page, nav: Locator, where: string): Promise<void> {
  const scroll = await documentScroll(page);
  expect(scroll.top, `${where}: the document is not scrolled`).toBe(0);
  expect(scroll.height, `${where}: the document is no taller than the window`).toBeLessThanOrEqual(
    scroll.client,
  );
  expect((await box(nav)).y, `${where}: the navigation stays at the top`).toBe(0);
}

function computed(locator: Locator, property: string): Promise<string> {
  return locator.evaluate(
    (el, name) =>
      (
        globalThis as unknown as {
          getComputedStyle(e: unknown): { getPropertyValue(n: string): string };
        }
      )
        .getComputedStyle(el)
        .getPropertyValue(name),
    property,
  );
}

describe.skipIf(!browserAvailable())('the app frame at 800 x 600', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service', page: { viewport: SMALL } }, (opened) => {
    ({ rig, view } = opened);
  });

  it('Song: Queue on the empty form, then Tab through every control: the frame never moves', async () => {
    const { page } = view;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await openComposeTab(page, 'Song');
    await expectFrameStill(page, nav, 'Song opened');

    // not ready (aria-disabled), yet pressable: it shows the problems and focuses the first
    await queueButton(page).click({ force: true });
    await expectFrameStill(page, nav, 'Queue pressed on the empty form');

    // from the start of the page through every control, until the focus comes round again
    await page.mouse.move(400, 300);
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    const seen: string[] = [];
    for (let step = 0; step < 150; step += 1) {
      await page.keyboard.press('Tab');
      const { name, again } = await focusedElement(page);
      await expectFrameStill(page, nav, `Tab ${step + 1} on ${name}`);
      if (again) break;
      seen.push(name);
    }
    // it went through the form: Advanced and the Queue bar's controls among them
    const all = seen.join('\n');
    expect(all).toContain('Advanced');
    expect(all).toContain('Clear');
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/song-tabbed-800x600.png` });
  });

  it('the Queue bar’s balance note has its whole text as its title', async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    const balance = page.getByTestId('balance-compact');
    await balance.waitFor();
    const text = (await balance.textContent()) ?? '';
    expect(text).toMatch(/^Balance /);
    expect(await balance.getAttribute('title')).toBe(text);
  });

  it('an error toast shows its whole message, wrapped', async () => {
    const { page } = view;
    await rig.setFaults({ taskFailureRate: 1, seed: 5 });
    await fillSong(page, { style: 'frame failure, a long and winding style prompt', seconds: 3 });
    await queue(page);
    const task = view.bridge.queuedTasks().at(-1)!;
    const failure = page.getByTestId('toast').filter({ hasText: `“${task.title}” failed: ` });
    await failure.waitFor({ timeout: 15_000 });
    await rig.setFaults({});
    const message = failure.locator('.toast-message');
    const fit = await message.evaluate((el) => {
      const e = el as unknown as {
        scrollWidth: number;
        clientWidth: number;
        scrollHeight: number;
        clientHeight: number;
      };
      return { wide: e.scrollWidth - e.clientWidth, tall: e.scrollHeight - e.clientHeight };
    });
    expect(fit.wide, 'nothing of the message is cut on the right').toBeLessThanOrEqual(1);
    expect(fit.tall, 'nothing of the message is cut at the bottom').toBeLessThanOrEqual(1);
    expect(await computed(message, 'text-overflow')).not.toBe('ellipsis');
    // a long message takes more than one line
    const lineHeight = Number.parseFloat(await computed(message, 'line-height'));
    expect((await box(message)).height).toBeGreaterThan(lineHeight * 1.5);
    await expectFrameStill(page, page.getByRole('navigation', { name: 'Main' }), 'with the toast');
    await mkdir(SHOTS, { recursive: true });
    await inEachTheme(page, async (theme) => {
      await page.screenshot({ path: `${SHOTS}/error-toast-800x600-${theme}.png` });
    });
  });

  it('a navigation tooltip hides once its item is clicked; a later hover shows it again', async () => {
    const { page } = view;
    const item = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Library' });
    const label = item.locator('.nav-label');
    await item.hover();
    await expect.poll(() => computed(label, 'opacity')).toBe('1');
    await item.click();
    await page.getByRole('heading', { level: 1, name: 'Library', exact: true }).waitFor();
    // the pointer is still over the item
    await expect.poll(() => computed(label, 'opacity')).toBe('0');
    await page.mouse.move(400, 300);
    await item.hover();
    await expect.poll(() => computed(label, 'opacity')).toBe('1');
    await page.mouse.move(400, 300);
  });

  it('a disabled primary button (Save key with no key typed) is grey in both themes', async () => {
    const { page } = view;
    await openView(page, 'settings');
    const save = page.getByRole('button', { name: 'Save key', exact: true });
    await save.waitFor();
    expect(await save.isDisabled()).toBe(true);
    /** The theme's --surface-3: the grey of a not-ready Queue. */
    const grey = () =>
      page.evaluate(() => {
        const win = globalThis as unknown as {
          document: { documentElement: unknown };
          getComputedStyle(e: unknown): { getPropertyValue(n: string): string };
        };
        return win.getComputedStyle(win.document.documentElement).getPropertyValue('--surface-3').trim();
      });
    await mkdir(SHOTS, { recursive: true });
    await inEachTheme(page, async (theme) => {
      const background = await computed(save, 'background-color');
      const opacity = await computed(save, 'opacity');
      // the grey of a not-ready Queue, shown whole (not the accent faded)
      const hex = background
        .match(/\d+/g)!
        .slice(0, 3)
        .map((n) => Number(n).toString(16).padStart(2, '0'));
      expect(`#${hex.join('')}`, theme).toBe(await grey());
      expect(opacity, theme).toBe('1');
      await save.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/save-key-disabled-800x600-${theme}.png` });
    });
  });
});
