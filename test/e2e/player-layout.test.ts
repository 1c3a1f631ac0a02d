/**
 * The player bar's place on screen, at 800 x 600 and 1920 x 1080, light and dark: one line at the
 * bottom of the window, across it, with nothing overflowing; the view ends above it (the
 * composer's queue bar and the gallery's last row stay whole and visible, the toasts sit above
 * it); operable from the keyboard; axe-core finds no serious or critical violation with it shown.
 * Screenshots go to /tmp/player-<size>-<theme>-<view>.png.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { axeFindings, checkAxe, inTheme, printMinor, THEMES } from './harness/look-check.ts';
import type { PageElement, PageWindow } from './harness/page-dom.ts';
import { playerBar } from './harness/player-ui.ts';
import { makeSongs } from './harness/song-tasks.ts';
import type { StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openComposeTab, openView, waitForApp } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
] as const;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator}`);
  return { top: found.y, bottom: found.y + found.height, left: found.x, right: found.x + found.width };
}

/** True when the element's middle is on screen and not covered by anything outside it. */
function uncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const element = el as unknown as PageElement & { contains(other: unknown): boolean };
    const win = globalThis as unknown as PageWindow & {
      document: { elementFromPoint(x: number, y: number): unknown };
    };
    const rect = element.getBoundingClientRect();
    const hit = win.document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && element.contains(hit);
  });
}

describe.skipIf(!browserAvailable())('the player bar on screen', () => {
  let browser: Browser;
  let rig: StudioRig;
  let songs: Task[];

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        const titles = Array.from({ length: 14 }, (_, i) => `Tide song ${i + 1}`);
        // one title long enough to be cut short in the bar
        titles[13] = 'A very long song title about the harbour at dawn, the gulls and the ferry horns';
        songs = await makeSongs(rig, titles, 3);
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  async function playNewest(page: Page): Promise<Task> {
    const newest = songs.at(-1)!;
    await openView(page, 'library');
    await card(page, newest.id)
      .getByRole('button', { name: `Play ${newest.title}`, exact: true })
      .click();
    await playerBar(page).and(page.locator('[data-playing="true"]')).waitFor();
    return newest;
  }

  for (const size of SIZES) {
    for (const theme of THEMES) {
      it(`sits on one line below the view at ${size.width} x ${size.height}, ${theme}`, async () => {
        await rig.call('settings.update', { theme });
        const view = await rig.openPage(browser, { viewport: size, colorScheme: theme });
        const shot = (name: string) =>
          view.page.screenshot({
            path: `/tmp/player-${size.width}x${size.height}-${theme}-${name}.png`,
            animations: 'disabled',
          });
        try {
          const { page } = view;
          await waitForApp(page);
          await playNewest(page);
          const bar = playerBar(page);
          // the same song the whole time (not on to the next one while the test looks)
          await bar.getByRole('button', { name: 'Loop' }).click();

          // across the bottom of the window, one line high, nothing overflowing
          const barBox = await box(bar);
          expect(barBox.bottom).toBeCloseTo(size.height, 0);
          expect(barBox.left).toBe(0);
          expect(barBox.right).toBe(size.width);
          expect(barBox.bottom - barBox.top).toBeLessThanOrEqual(64);
          for (const control of await bar.locator(':scope > *').all()) {
            if (!(await control.isVisible())) continue;
            const b = await box(control);
            expect(b.top).toBeGreaterThanOrEqual(barBox.top);
            expect(b.bottom).toBeLessThanOrEqual(barBox.bottom);
            expect(b.right).toBeLessThanOrEqual(barBox.right);
          }
          expect(await bar.evaluate((el) => (el as unknown as { scrollWidth: number }).scrollWidth)).toBe(
            size.width,
          );
          // the toasts' corner is above the bar (in a small window they float at the top of the view)
          const toastsRegionBottom = await page
            .locator('section.toasts')
            .evaluate(
              (el) =>
                (el as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect()
                  .bottom,
            );
          expect(toastsRegionBottom).toBeLessThanOrEqual(barBox.top);
          const toastsBottom = await page
            .getByRole('region', { name: 'Notifications' })
            .evaluate(
              (el) =>
                (
                  globalThis as unknown as { getComputedStyle(e: unknown): { bottom: string } }
                ).getComputedStyle(el).bottom,
            );
          if (size.width > 960) {
            expect(Number.parseFloat(toastsBottom)).toBeGreaterThanOrEqual(barBox.bottom - barBox.top);
          }

          // the gallery's last row, scrolled to, is whole and visible above the bar
          const gallery = page.getByTestId('gallery');
          const oldest = card(page, songs[0]!.id);
          // scrolled to the end (the card may be rendered below the fold already: the grid renders ahead)
          for (let i = 0; i < 10 && (i === 0 || !(await oldest.isVisible())); i++) {
            await gallery.evaluate((el) => {
              const scroller = el as unknown as PageElement;
              scroller.scrollTop = scroller.scrollHeight;
            });
            await page.waitForTimeout(100);
          }
          await oldest.waitFor();
          await expect.poll(async () => (await box(oldest)).bottom).toBeLessThanOrEqual(barBox.top);
          // (at 800 x 600 the filters leave the gallery less than a row: its caption is what shows)
          expect(await uncovered(oldest.locator('.card-title'))).toBe(true);
          await shot('library');

          // the song's detail panel ends above the bar too
          await card(page, songs[0]!.id)
            .getByRole('button', { name: `Open ${songs[0]!.title}` })
            .click();
          await page
            .locator('[data-testid="waveform-player"][data-ready="true"]')
            .waitFor({ timeout: 15_000 });
          expect((await box(page.getByTestId('detail-panel'))).bottom).toBeLessThanOrEqual(barBox.top);
          await shot('detail');

          // the composer's queue bar, at the end of the page, is whole and visible above it
          await openComposeTab(page, 'Song');
          await page.locator('main#main').evaluate((el) => {
            const main = el as unknown as PageElement;
            main.scrollTop = main.scrollHeight;
          });
          const queueBar = page.locator('.queue-bar');
          expect(await uncovered(page.getByRole('button', { name: 'Queue', exact: true }))).toBe(true);
          if (size.height <= 720) {
            // a small window: the player folds into the Queue bar while composing (issue 21
            // item 7), which then ends at the window's bottom
            expect(await bar.isVisible()).toBe(false);
            expect((await box(queueBar)).bottom).toBeLessThanOrEqual(size.height);
            const fold = queueBar.getByTestId('player-fold');
            expect(await fold.getByRole('button', { name: 'Pause', exact: true }).isVisible()).toBe(true);
            expect(await uncovered(fold.getByRole('button', { name: 'Pause', exact: true }))).toBe(true);
          } else {
            expect((await box(queueBar)).bottom).toBeLessThanOrEqual(barBox.top);
            expect(await bar.isVisible()).toBe(true);
          }
          await shot('compose');

          // from the keyboard (in the library: the bar is there at every size)
          await openView(page, 'library');
          const pause = bar.getByRole('button', { name: 'Pause', exact: true });
          await pause.focus();
          await page.keyboard.press('Space');
          await bar.and(page.locator('[data-playing="false"]')).waitFor();
          await page.keyboard.press('Shift+Tab'); // Previous song
          await page.keyboard.press('Tab'); // Play
          await page.keyboard.press('Enter');
          await bar.and(page.locator('[data-playing="true"]')).waitFor();
        } finally {
          await view.close();
        }
      });
    }
  }

  for (const theme of THEMES) {
    it(`has no serious or critical axe violations with the bar shown, ${theme}`, async () => {
      const findings = axeFindings();
      await inTheme(rig, browser, theme, async (page) => {
        await playNewest(page);
        const check = (where: string) => checkAxe(page, `${theme} / ${where}`, findings);
        await check('Library, playing');
        await playerBar(page).getByRole('button', { name: 'Loop' }).click();
        await playerBar(page).getByRole('button', { name: 'Pause', exact: true }).click();
        await check('Library, paused, loop on');
        await openView(page, 'compose');
        await check('Compose');
        await openView(page, 'settings');
        await check('Settings');
      });
      printMinor(findings, `axe (${theme})`);
      const found = findings.blocking;
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
