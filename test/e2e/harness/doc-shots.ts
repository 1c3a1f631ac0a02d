/**
 * Taking the README's pictures (screenshots.test.ts): where they go (docs/screenshots/ with
 * UPDATE_SCREENSHOTS=1, else test-results/screenshots/), a checked shot, and getting a screen
 * ready for one (its pictures loaded, the composer from its top, no detail open).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait-until.ts';
import { REPO_ROOT } from './renderer-build.ts';

export const SHOTS_DIR = join(
  REPO_ROOT,
  process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots',
);

export interface Size {
  width: number;
  height: number;
}

async function dismissToasts(page: Page): Promise<void> {
  for (const button of await page.getByRole('button', { name: 'Dismiss notification' }).all()) {
    await button.click().catch(() => undefined);
  }
}

/** Saves a screenshot of the page (1280 x 800 unless `size` says) and checks it is one. */
export async function shoot(
  page: Page,
  name: string,
  size: Size = { width: 1280, height: 800 },
): Promise<void> {
  await dismissToasts(page);
  await page.mouse.move(0, size.height - 1);
  await page.evaluate(
    () =>
      new Promise((resolve) =>
        (globalThis as unknown as { requestAnimationFrame(cb: () => void): void }).requestAnimationFrame(() =>
          resolve(null),
        ),
      ),
  );
  const path = join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  const meta = await sharp(path).metadata();
  expect([meta.width, meta.height]).toEqual([size.width, size.height]);
  expect((await stat(path)).size).toBeGreaterThan(10_000);
}

/** Waits for the pictures of `scope` in the window to load (a lazy one out of it may never load). */
export async function imagesLoaded(page: Page, scope: string): Promise<void> {
  await waitUntil(
    () =>
      page.locator(`${scope} img`).evaluateAll((imgs) =>
        imgs.every((img) => {
          const i = img as unknown as {
            complete: boolean;
            naturalWidth: number;
            getBoundingClientRect(): { top: number; bottom: number };
          };
          const { top, bottom } = i.getBoundingClientRect();
          const height = (globalThis as unknown as { innerHeight: number }).innerHeight;
          return bottom <= 0 || top >= height || (i.complete && i.naturalWidth > 0);
        }),
      ),
    `pictures in ${scope} to load`,
  );
}

/** The composer shown from its top (filling a field or dropping a picture scrolls it there). */
export async function composerFromTop(page: Page): Promise<void> {
  await page.getByRole('tabpanel').evaluate((el) => {
    for (let e = el as unknown as { scrollTop: number; parentElement: unknown } | null; e; ) {
      e.scrollTop = 0;
      e = e.parentElement as typeof e;
    }
  });
}

/** Closes the library's detail when one is open. */
export async function closeDetail(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close details' });
  if (await close.isVisible()) await close.click();
}
