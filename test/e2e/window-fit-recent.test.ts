/**
 * The composer in a wide window (issue 11, item 11: "the composer uses the width"): at
 * 1920 x 1080 a "Recent results" column beside it lists the last six saved tasks with their
 * thumbnails, a newly saved one first, each opening its detail in the Library; at 1280 x 800 and
 * 800 x 600 the column is absent. Axe in both themes; pictures to /tmp/window-fit-shots.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { blockingViolations } from './harness/look-check.ts';
import { box, inEachTheme } from './harness/page-boxes.ts';
import { fillLibrary } from './harness/saved-task-fill.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openApp, openStudio } from './harness/studio-session.ts';
import { describeViolations } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = '/tmp/window-fit-shots';

async function axeAndShoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.mouse.move(600, 5);
  await inEachTheme(page, async (theme) => {
    const blocking = await blockingViolations(page);
    expect(blocking, describeViolations(`${name} (${theme})`, blocking)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png` });
  });
}

describe.skipIf(!browserAvailable())('recent results beside the composer in a wide window', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage | undefined;

  openStudio({ service: 'service', prepareLibrary: (dir) => fillLibrary(dir, 20), page: false }, (opened) => {
    ({ browser, rig } = opened);
  });

  it('at 1920 x 1080 the last six saved results show beside the composer and open their detail', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 1920, height: 1080 } });
    const { page } = view;
    const column = page.getByRole('region', { name: 'Recent results' });
    const items = column.getByTestId('recent-result');
    await expect.poll(() => items.count()).toBe(6);
    expect(await items.first().textContent()).toContain('Picture 20');
    expect(await column.locator('img').count()).toBeGreaterThanOrEqual(4);
    // beside the composer's form, not over it, and inside the window
    const form = await box(page.locator('#main > .view'));
    const side = await box(column);
    expect(side.x).toBeGreaterThanOrEqual(form.x + form.width - 0.5);
    expect(side.x + side.width).toBeLessThanOrEqual(1920);
    expect(form.width).toBeGreaterThan(1000);

    // a newly saved task comes first
    await saveSongs(rig, [{ title: 'Fresh tune', style: 'recent results, kalimba', seconds: 3 }]);
    await expect.poll(() => items.first().textContent()).toContain('Fresh tune');
    expect(await items.count()).toBe(6);
    await axeAndShoot(page, 'compose-1920x1080');

    // one opens its detail in the Library
    const third = items.nth(2);
    const title = (await third.locator('.recent-title').textContent()) as string;
    await third.click();
    const detail = page.getByTestId('detail-panel');
    await detail.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Library');
    expect(await detail.textContent()).toContain(title);
    expect(await column.count()).toBe(0);
    await view.close();
    view = undefined;
  });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    it(`at ${size.width} x ${size.height} there is no recent results column`, async () => {
      view = await openApp({ browser, rig }, { viewport: size });
      const { page } = view;
      await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
      await page.waitForTimeout(300);
      expect(await page.getByRole('region', { name: 'Recent results' }).count()).toBe(0);
      expect(await page.getByTestId('recent-result').count()).toBe(0);
      if (size.width === 800) await axeAndShoot(page, 'compose-800x600');
      await view.close();
      view = undefined;
    });
  }
});
