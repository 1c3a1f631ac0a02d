/**
 * How keeping going from a result looks and reads: axe-core (WCAG 2.x A and AA rules plus best
 * practices) on the From a result tab (extend with its handles, a song edit with two lyrics
 * editors, an upscale with the picture), the Face swap tab on several faces and the detail's
 * actions on a song and a picture (and an upscale of a fresh result beside its input), in the light and the dark theme; serious and critical
 * violations fail. Pictures of the same screens at 800 x 600 and 1920 x 1080 in both themes go to
 * RESULT_SHOTS_DIR (default /tmp/result-shots) for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { queueFaceSwap } from './harness/face-swap-task.ts';
import { axeInTheme, PICTURE_SIZES, shootInThemes, THEMES } from './harness/look-check.ts';
import { chooseAction, openResultDetail } from './harness/result-actions.ts';
import { queueSongs } from './harness/song-tasks.ts';
import type { StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS_DIR = process.env.RESULT_SHOTS_DIR ?? '/tmp/result-shots';

async function openDetail(page: Page, task: Task) {
  const detail = await openResultDetail(page, task);
  await detail.getByTestId('result-actions').waitFor();
  return detail;
}

/** Each screen of this feature, shown in turn; `at` is told its name once it is on screen. */
async function screens(
  page: Page,
  { song, swap, upscale }: { song: Task; swap: Task; upscale: Task },
  at: (where: string) => Promise<void>,
) {
  const detail = await openDetail(page, song);
  await detail.locator('[data-testid="waveform-player"][data-ready="true"]').waitFor({ timeout: 15_000 });
  await at('detail-song-actions');
  await openDetail(page, swap);
  await page.getByTestId('before-after').waitFor();
  await at('detail-picture-actions');
  // an upscale of a fresh result: compared with the library's copy, its parameter by its thumbnail
  const upscaled = await openDetail(page, upscale);
  await upscaled
    .getByRole('img', { name: /^Before: / })
    .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  await at('detail-upscale-compare');
  const thumb = upscaled.locator('[data-testid="input-thumb"][data-field="image"] img');
  await thumb.scrollIntoViewIfNeeded();
  await thumb.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  await at('detail-upscale-parameters');
  // at 800 x 600 the detail covers part of the grid: closed, so the next card can be opened
  await upscaled.getByRole('button', { name: 'Close details' }).click();
  await chooseAction(page, song, 'Extend');
  await page.locator('[data-testid="extend-wave"][data-ready="true"]').waitFor();
  await at('from-result-extend');
  await chooseAction(page, song, 'Edit');
  await at('from-result-song-edit');
  await chooseAction(page, swap, 'Upscale');
  await page
    .locator('[data-field="source_image"] img.slot-preview')
    .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  await at('from-result-upscale');
  await chooseAction(page, swap, 'Multi-face swap');
  await at('face-swap-several');
}

describe.skipIf(!browserAvailable())('keeping going from a result: accessibility and pictures', () => {
  let browser: Browser;
  let rig: StudioRig;
  let song: Task;
  let swap: Task;
  let upscale: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        await mkdir(SHOTS_DIR, { recursive: true });
        const [queued] = await queueSongs(rig, [
          {
            title: 'Lighthouse waltz',
            style: 'slow waltz, strings, sea breeze',
            lyrics: '[verse]\nthe light turns',
            seconds: 12,
          },
        ]);
        const picture = await queueFaceSwap(
          rig,
          'Keeper portrait',
          { name: 'cliff.png', width: 480, height: 360, colour: { r: 70, g: 130, b: 170 } },
          { name: 'keeper.png', width: 200, height: 200, colour: { r: 220, g: 170, b: 130 } },
        );
        song = await rig.waitForTask(queued.id, ['saved']);
        swap = await rig.waitForTask(picture.id, ['saved']);
        // made from the fresh result: sent as the service's link
        const upscaled = await rig.call('tasks.queue', {
          model: 'service/image-toolkit',
          taskType: 'upscale',
          title: 'Keeper portrait (upscaled)',
          input: { image: { $output: { taskId: swap.id, index: 0 } }, scale: 2 },
        });
        upscale = await rig.waitForTask(upscaled.id, ['saved']);
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  for (const theme of THEMES) {
    it(`has no serious or critical violations in the ${theme} theme`, async () => {
      const { blocking } = await axeInTheme(rig, browser, theme, (page, at) =>
        screens(page, { song, swap, upscale }, at),
      );
      expect(blocking, blocking.join('\n')).toEqual([]);
    });
  }

  for (const size of PICTURE_SIZES) {
    it(`takes pictures at ${size.name} in both themes`, async () => {
      await shootInThemes(rig, browser, size, SHOTS_DIR, (page, at) =>
        screens(page, { song, swap, upscale }, at),
      );
    });
  }
});
