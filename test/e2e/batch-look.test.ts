/**
 * How batches, variations and lineage look and read: axe-core (WCAG 2.x A and AA rules plus best
 * practices) on the composer's batch of targets and variations, a batch's group in Activity
 * (expanded), the compare view and the detail's lineage, in the light and the dark theme; serious
 * and critical violations fail. Pictures of the same screens at 800 x 600 and 1920 x 1080 in both
 * themes go to BATCH_SHOTS_DIR (default /tmp/batch-shots) for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import { axeInTheme, PICTURE_SIZES, shootInThemes, THEMES } from './harness/look-check.ts';
import { makeExtendedSong } from './harness/song-tasks.ts';
import type { StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, dropOnSlot, openComposeTab, openView, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS_DIR = process.env.BATCH_SHOTS_DIR ?? '/tmp/batch-shots';

interface Fixture {
  face: string;
  photos: string[];
  batchId: string;
  songBatchId: string;
  extended: Task;
}

/** How far the batch group's list item reaches into the next one (px; 0 or less: no overlap). */
function overlapOfNext(page: Page, batchId: string): Promise<number> {
  return page.evaluate((id) => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
    type Box = { getBoundingClientRect(): { top: number; bottom: number }; nextElementSibling: Box | null };
    const group = doc.querySelector(`[data-batch-id="${id}"]`) as { closest(s: string): Box } | null;
    const item = group?.closest('.virtual-item');
    const next = item?.nextElementSibling;
    if (!item || !next) return 0;
    return item.getBoundingClientRect().bottom - next.getBoundingClientRect().top;
  }, batchId);
}

/** Each screen of this feature, shown in turn; `at` is told its name once it is on screen. */
async function screens(page: Page, f: Fixture, at: (where: string) => Promise<void>) {
  await openComposeTab(page, 'Face swap');
  await dropOnSlot(page, 'swap_image', { path: f.face });
  await dropFiles(
    page,
    slot(page, 'target_image').getByTestId('drop-zone'),
    f.photos.map((path) => ({ path })),
  );
  await expect
    .poll(() => page.locator('[data-testid="batch-target"][data-status="ok"]').count(), { timeout: 20_000 })
    .toBe(f.photos.length);
  await at('compose-face-batch');
  await openComposeTab(page, 'Image edit');
  await dropOnSlot(page, 'image1', { path: f.photos[0]! });
  await page.getByTestId('variations').getByLabel('Variations').fill('4');
  await page.getByTestId('variation-seeds').waitFor();
  await at('compose-variations');
  await openView(page, 'activity');
  const group = page.locator(`[data-testid="batch-group"][data-batch-id="${f.batchId}"]`);
  await group.getByRole('button', { name: /^Show its/ }).click();
  await group.getByTestId('activity-row').first().waitFor();
  // the list makes room for the expanded group: the row after it starts below it
  await expect.poll(() => overlapOfNext(page, f.batchId), { timeout: 5_000 }).toBeLessThanOrEqual(0);
  await at('activity-batch-group');
  await group.getByRole('button', { name: 'Compare results' }).click();
  const compare = page.getByTestId('batch-compare');
  await compare.waitFor();
  await compare
    .getByRole('button', { name: /^Favourite / })
    .first()
    .click();
  await compare
    .locator('img')
    .evaluateAll((imgs) =>
      Promise.all(imgs.map((i) => (i as unknown as { decode(): Promise<void> }).decode())),
    );
  await at('compare-view');
  await compare.getByRole('button', { name: 'Back to the library' }).click();
  await openView(page, 'activity');
  await page
    .locator(`[data-testid="batch-group"][data-batch-id="${f.songBatchId}"]`)
    .getByRole('button', { name: 'Compare results' })
    .click();
  await page.locator('.compare-songs [data-testid="song-play"]').first().waitFor();
  await at('compare-songs');
  await page.getByRole('button', { name: 'Back to the library' }).click();
  await card(page, f.extended.id)
    .getByRole('button', { name: /^Open Tide song \(extended\)/ })
    .click();
  await page.getByTestId('made-from').waitFor();
  await page.getByTestId('lineage').scrollIntoViewIfNeeded();
  await at('detail-lineage');
}

/** What the screens show, made before the tests: a face swap batch of six, a batch of three songs, a song extended. */
async function makeFixture(rig: StudioRig): Promise<Fixture> {
  const face = await writePicture(rig.filesDir, 'face.png', 220, 260, { r: 215, g: 165, b: 125 });
  const photos = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      writePicture(rig.filesDir, `harbour-${i + 1}.png`, 400, 300, {
        r: 30 + 30 * i,
        g: 120,
        b: 190 - 20 * i,
      }),
    ),
  );
  for (const path of [face, ...photos]) rig.backend.grantDroppedFile(path);
  const batch = await rig.call('tasks.queueBatch', {
    drafts: photos.map((target, i) => ({
      model: 'service/image-toolkit',
      taskType: 'face-swap',
      title: `Harbour portrait ${i + 1}`,
      input: { target_image: target, swap_image: face },
    })),
  });
  await Promise.all(batch.tasks.map((t) => rig.waitForTask(t.id, ['saved'])));
  const songs = await rig.call('tasks.queueBatch', {
    drafts: ['morning', 'noon', 'evening'].map((part) => ({
      model: 'service/ace-step',
      taskType: 'txt2audio',
      title: `Harbour ${part}`,
      input: { style_prompt: 'sea shanty', lyrics: `[verse]\n${part} tide`, duration: 3 },
    })),
  });
  await Promise.all(songs.tasks.map((t) => rig.waitForTask(t.id, ['saved'])));
  const { extended } = await makeExtendedSong(rig, {
    title: 'Tide song',
    style: 'folk, fiddle',
    lyrics: '[verse]\nthe tide comes in',
    seconds: 3,
  });
  return { face, photos, batchId: batch.batchId, songBatchId: songs.batchId, extended };
}

describe.skipIf(!browserAvailable())('batches, variations and lineage: accessibility and pictures', () => {
  let browser: Browser;
  let rig: StudioRig;
  let fixture: Fixture;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        fixture = await makeFixture(rig);
      },
      page: false,
    },
    async (opened) => {
      ({ browser, rig } = opened);
      await mkdir(SHOTS_DIR, { recursive: true });
    },
  );

  for (const theme of THEMES) {
    it(`has no serious or critical violations in the ${theme} theme`, async () => {
      const { blocking } = await axeInTheme(rig, browser, theme, (page, at) => screens(page, fixture, at));
      expect(blocking, blocking.join('\n')).toEqual([]);
    });
  }

  for (const size of PICTURE_SIZES) {
    it(`takes pictures at ${size.name} in both themes`, async () => {
      await shootInThemes(rig, browser, size, SHOTS_DIR, (page, at) => screens(page, fixture, at));
    });
  }
});
