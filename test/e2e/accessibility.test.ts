/**
 * Scenario 8, accessibility: axe-core (WCAG 2.x A and AA rules plus best practices) on every main
 * screen — Compose (each tab), Activity (with saved, failed and uncertain tasks), Library, the
 * detail view of a song (waveform player) and of a face swap (before/after), and Settings (with a
 * custom service, and with the hosted one: balance, Advanced: model ids open with an override and
 * a refused id) — in the light and the dark theme. Serious and critical violations fail the test;
 * the others are printed.
 */
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { queueFaceSwap } from './harness/face-swap-task.ts';
import { axeInTheme, THEMES } from './harness/look-check.ts';
import { makeFailedSong, makeUncertainSong, queueSongs } from './harness/song-tasks.ts';
import { SERVICE_KEY, type StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  type AxeViolation,
  card,
  describeViolations,
  openComposeTab,
  openView,
  runAxe,
  waitForApp,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const BLOCKING = new Set(['serious', 'critical']);

describe.skipIf(!browserAvailable())('accessibility (axe-core) of every main screen', () => {
  let browser: Browser;
  let rig: StudioRig;
  let song: Task;
  let swap: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        [song] = await queueSongs(rig, [{ title: 'Morning strings', style: 'calm strings', seconds: 3 }]);
        swap = await queueFaceSwap(
          rig,
          'Beach swap',
          { name: 'target.png', width: 320, height: 240 },
          { name: 'face.png', width: 160, height: 160, colour: { r: 210, g: 150, b: 110 } },
        );
        song = await rig.waitForTask(song.id, ['saved']);
        swap = await rig.waitForTask(swap.id, ['saved']);
        // A failed and an uncertain task, so Activity shows its error and decision rows too.
        await makeFailedSong(rig, { title: 'Broken song', style: 'calm strings', seconds: 3 });
        await makeUncertainSong(rig, { title: 'Lost answer', style: 'calm strings', seconds: 3 });
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  async function screens(page: Page, check: (where: string) => Promise<void>): Promise<void> {
    for (const tab of ['Song', 'Face swap', 'Image edit', 'Other'] as const) {
      await openComposeTab(page, tab);
      await check(`Compose / ${tab}`);
    }
    await openView(page, 'activity');
    await page.getByTestId('activity-row').first().waitFor();
    await check('Activity');
    await openView(page, 'library');
    await card(page, song.id).waitFor();
    await check('Library');
    await card(page, song.id)
      .getByRole('button', { name: `Open ${song.title}` })
      .click();
    await page.locator('[data-testid="waveform-player"][data-ready="true"]').waitFor({ timeout: 15_000 });
    await check('Detail / song');
    await card(page, swap.id)
      .getByRole('button', { name: `Open ${swap.title}` })
      .click();
    await page.getByTestId('before-after').waitFor();
    await check('Detail / face swap');
    await openView(page, 'settings');
    await check('Settings');
  }

  for (const theme of THEMES) {
    it(`has no serious or critical violations in the ${theme} theme`, async () => {
      const { blocking } = await axeInTheme(rig, browser, theme, async (page, at) => {
        expect(
          await page.evaluate(
            () =>
              (
                globalThis as unknown as {
                  document: { documentElement: { dataset: Record<string, string> } };
                }
              ).document.documentElement.dataset.theme,
          ),
        ).toBe(theme);
        await screens(page, at);
      });
      expect(blocking, blocking.join('\n')).toEqual([]);
    });
  }
});

describe.skipIf(!browserAvailable())('accessibility (axe-core) of Settings with the hosted service', () => {
  let browser: Browser;
  let rig: StudioRig;

  openStudio(
    {
      service: 'hosted',
      // A key stored (hosted profile, balance shown) and one model id renamed.
      prepare: async (rig) => {
        await rig.call('settings.setApiKey', { key: SERVICE_KEY });
        await rig.call('settings.update', {
          modelOverrides: { 'qwen-image/image-edit': 'Qubico/qwen-edit-image' },
        });
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  for (const theme of THEMES) {
    it(`has no serious or critical violations in the ${theme} theme`, async () => {
      const view = await rig.openPage(browser, { colorScheme: theme });
      const found: AxeViolation[] = [];
      try {
        const { page } = view;
        await waitForApp(page);
        await openView(page, 'settings');
        await page.getByTestId('balance').filter({ hasText: 'Balance: $10.00 left' }).waitFor();
        found.push(...(await runAxe(page)));
        // Advanced open, with an override (its "Default:" hint) and a refused id (its error).
        const advanced = page.locator('details.advanced');
        await advanced.getByText('Advanced: model ids', { exact: true }).click();
        const field = page.getByTestId('model-id-ace-step/txt2audio');
        await field.fill('no-vendor');
        await field.press('Enter');
        await page.locator('.model-id-row').filter({ has: field }).getByTestId('field-error').waitFor();
        await page.getByText('Default: Qubico/qwen-image').waitFor();
        found.push(...(await runAxe(page)));
      } finally {
        await view.close();
      }
      const bad = found.filter((v) => v.impact !== null && BLOCKING.has(v.impact));
      const rest = found.filter((v) => !bad.includes(v));
      if (rest.length) console.log(describeViolations(`${theme} / Settings (hosted)`, rest));
      expect(bad, describeViolations(`${theme} / Settings (hosted)`, bad)).toEqual([]);
    });
  }
});
