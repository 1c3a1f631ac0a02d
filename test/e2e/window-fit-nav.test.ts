/**
 * The navigation's Activity counts in a small window (issue 11, item 11): at 800 x 600 the
 * sidebar shows icons only, and the counts of active tasks and of tasks needing a decision sit as
 * small badges on the top corners of the Activity icon's box (not squeezed against the glyph),
 * still part of the button's accessible name. At 1280 x 800 they sit after the name. Axe in both
 * themes; pictures to /tmp/window-fit-shots.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { blockingViolations } from './harness/look-check.ts';
import { box, inside, setTheme } from './harness/page-boxes.ts';
import { makeUncertainSong, queueSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openApp, openStudio } from './harness/studio-session.ts';
import { describeViolations } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = '/tmp/window-fit-shots';

const song = (title: string) => ({ title, style: 'nav badge, oboe', seconds: 3 });

describe.skipIf(!browserAvailable())('the navigation counts in small and large windows', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage | undefined;

  openStudio(
    {
      service: 'service',
      // one task needing a decision (the create's answer was lost) and two that stay active
      prepare: async (rig) => {
        await makeUncertainSong(rig, song('Lost answer'));
        await rig.stopService();
        await queueSongs(rig, [song('Waiting one'), song('Waiting two')]);
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  it('at 800 x 600 the counts are corner badges on the Activity icon, in its name', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 800, height: 600 } });
    const { page } = view;
    const nav = page.getByRole('navigation', { name: 'Main' });
    const activity = nav.getByRole('button', { name: /^Activity\s*,\s*2 active\s*,\s*1 need a decision$/ });
    await activity.waitFor();
    const icon = await box(activity.locator('.nav-icon'));
    const button = await box(activity);
    const active = await box(page.getByTestId('active-count'));
    const uncertain = await box(page.getByTestId('uncertain-count'));
    for (const badge of [active, uncertain]) {
      expect(inside(badge, icon)).toBe(true);
      // small, and on the icon box's top edge
      expect(badge.height).toBeLessThanOrEqual(18);
      expect(Math.abs(badge.y - icon.y)).toBeLessThanOrEqual(1);
    }
    // on the two corners, apart from each other
    expect(Math.abs(active.x + active.width - (icon.x + icon.width))).toBeLessThanOrEqual(1);
    expect(Math.abs(uncertain.x - icon.x)).toBeLessThanOrEqual(1);
    expect(uncertain.x + uncertain.width).toBeLessThan(active.x);
    expect(inside(icon, button)).toBe(true);
    await mkdir(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      const blocking = await blockingViolations(page);
      expect(blocking, describeViolations(`Navigation at 800 x 600 (${theme})`, blocking)).toEqual([]);
      await page.screenshot({
        path: `${SHOTS}/nav-800x600-${theme}.png`,
        clip: { x: 0, y: 0, width: 240, height: 260 },
      });
    }
    await view.close();
    view = undefined;
  });

  it('at 1280 x 800 the counts follow the name', async () => {
    view = await openApp({ browser, rig }, { viewport: { width: 1280, height: 800 } });
    const { page } = view;
    const activity = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Activity\s*,\s*2 active\s*,\s*1 need a decision$/ });
    await activity.waitFor();
    const label = await box(activity.locator('.nav-label'));
    const active = await box(page.getByTestId('active-count'));
    expect(active.x).toBeGreaterThanOrEqual(label.x + 20);
    await view.close();
    view = undefined;
  });
});
