/**
 * Scenario 9: screenshots of the main screens at 1280 x 800, taken from the real app over the
 * real backend. They go to test-results/screenshots/ on every run, and to docs/screenshots/
 * (which the README shows) when UPDATE_SCREENSHOTS=1, so a test run leaves the tree clean:
 * compose-song.png (lyrics with markers), compose-face-swap.png (two pictures dropped),
 * activity.png (tasks running at the service), library.png (grid with thumbnails),
 * detail-song.png (waveform player), detail-face-swap.png (before/after), compare.png (the image
 * viewer comparing a face swap with its input), library-songs.png (song cards first, one playing
 * in the player bar), player-bar.png (the composer while a song plays), small-window-light.png and
 * small-window-dark.png (800 x 600: icon navigation, a song's detail, the player bar),
 * compose-picture-tools.png (two pictures dropped on Remove background), compare-two.png (two
 * variations of a batch compared from a selection), library-board.png (a board of the
 * navigation shown as a filter), settings.png; and, at
 * 800 x 600 and 1920 x 1080 in both themes, Settings with the hosted service and the queue bar's
 * balance (settings-hosted-*, settings-model-ids-*, compose-balance-*; see the last block).
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Locator } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import {
  closeDetail,
  composerFromTop,
  imagesLoaded,
  SHOTS_DIR,
  type Size,
  shoot,
} from './harness/doc-shots.ts';
import { fillShotLibrary, LYRICS, SONGS } from './harness/doc-shots-library.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import { playerBar } from './harness/player-ui.ts';
import { saveSongs } from './harness/song-tasks.ts';
import { createStudioRig, SERVICE_KEY, type StudioPage, type StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  card,
  dropOnSlot,
  fillSong,
  openComposeTab,
  openView,
  slot,
  waitForApp,
} from './harness/studio-ui.ts';
import { browserAvailable, rendererDir } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('screenshots of the main screens', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;
  const saved: Task[] = [];
  const batchVariations: Task[] = [];

  openStudio(
    {
      service: 'service',
      // A library worth looking at: songs, face swaps and image edits, run by the real engine.
      prepare: async (rig) => {
        await mkdir(SHOTS_DIR, { recursive: true });
        const library = await fillShotLibrary(rig);
        saved.push(...library.saved);
        batchVariations.push(...library.variations);
      },
    },
    (opened) => {
      ({ browser, rig, view } = opened);
    },
  );

  it('compose: a song with lyrics', async () => {
    const { page } = view;
    await fillSong(page, {
      style: 'synthwave, night drive, analog pads, 100 bpm',
      lyrics: LYRICS,
      seconds: 90,
    });
    await page.getByLabel(/^Negative prompt/).fill('distortion, shouting');
    await composerFromTop(page);
    await shoot(page, 'compose-song');
  });

  it('compose: a face swap with two pictures', async () => {
    const { page } = view;
    await openComposeTab(page, 'Face swap');
    const target = await writePicture(rig.filesDir, 'lake.png', 800, 600, { r: 50, g: 120, b: 170 });
    const face = await writePicture(rig.filesDir, 'me.jpg', 400, 400, { r: 220, g: 170, b: 130 });
    await dropOnSlot(page, 'target_image', { path: target });
    await dropOnSlot(page, 'swap_image', { path: face });
    await imagesLoaded(page, '[data-testid="media-slot"]');
    await composerFromTop(page);
    await shoot(page, 'compose-face-swap');
  });

  it('library: the grid with thumbnails', async () => {
    const { page } = view;
    await openView(page, 'library');
    await waitUntil(async () => (await page.getByTestId('task-card').count()) >= 12, 'the cards');
    await imagesLoaded(page, '[data-testid="gallery"]');
    await shoot(page, 'library');
  });

  it('detail: a face swap, before and after', async () => {
    const { page } = view;
    const swap = saved.find((t) => t.taskType === 'face-swap')!;
    await card(page, swap.id)
      .getByRole('button', { name: `Open ${swap.title}` })
      .click();
    await page.getByTestId('before-after').waitFor();
    await imagesLoaded(page, '[data-testid="before-after"]');
    await shoot(page, 'detail-face-swap');
  });

  it('viewer: a face swap compared with its input', async () => {
    const { page } = view;
    await page.getByRole('button', { name: 'View larger' }).click();
    const viewer = page.getByRole('dialog', { name: saved.find((t) => t.taskType === 'face-swap')!.title });
    await viewer.getByRole('button', { name: 'Compare with input' }).click();
    const frame = viewer.getByTestId('before-after-frame');
    await imagesLoaded(page, '[data-testid="lightbox"]');
    const box = (await frame.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.42, box.y + box.height / 2);
    await shoot(page, 'compare');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Close details' }).click();
  });

  it('library: song cards and the player bar', async () => {
    const { page } = view;
    await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
    const song = saved[1]!;
    await card(page, song.id)
      .getByRole('button', { name: `Play ${song.title}`, exact: true })
      .click();
    await playerBar(page).and(page.locator('[data-playing="true"]')).waitFor();
    await playerBar(page).getByRole('button', { name: 'Loop' }).click();
    await imagesLoaded(page, '[data-testid="gallery"]');
    await page.waitForTimeout(1_500); // the bar's waveform shows some of the song played
    await shoot(page, 'library-songs');
  });

  it('detail: a song with its waveform', async () => {
    const { page } = view;
    const song = saved[0]!;
    await card(page, song.id)
      .getByRole('button', { name: `Open ${song.title}` })
      .click();
    await page.locator('[data-testid="waveform-player"][data-ready="true"]').waitFor({ timeout: 15_000 });
    await shoot(page, 'detail-song');
  });

  it('compose: the next song written while one plays', async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    await playerBar(page).waitFor();
    await composerFromTop(page);
    await shoot(page, 'player-bar');
  });

  it('compose: Picture tools with two dropped pictures', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Picture tools');
    await panel.getByRole('radio', { name: /^Remove background/ }).check();
    const pictures = await Promise.all(
      [1, 2].map((i) =>
        writePicture(rig.filesDir, `product-${i}.png`, 480, 360, { r: 60 * i, g: 140, b: 200 - 50 * i }),
      ),
    );
    await dropFiles(
      page,
      slot(page, 'source_image').getByTestId('drop-zone'),
      pictures.map((path) => ({ path })),
    );
    const list = page.locator('[data-testid="batch-targets"][data-field="source_image"]');
    await waitUntil(
      async () => (await list.locator('[data-testid="batch-target"][data-status="ok"]').count()) === 2,
      'both pictures checked',
    );
    await imagesLoaded(page, '[data-testid="media-slot"]');
    await composerFromTop(page);
    await shoot(page, 'compose-picture-tools');
  });

  it('compare: two variations of a batch, split', async () => {
    const { page } = view;
    await openView(page, 'library');
    await closeDetail(page);
    await page.getByLabel('Sort').selectOption({ label: 'Newest first' });
    for (const task of batchVariations.slice(0, 2)) {
      await card(page, task.id).scrollIntoViewIfNeeded();
      await card(page, task.id)
        .getByRole('checkbox', { name: `Select ${task.title}` })
        .check();
    }
    await page.getByTestId('compare-open').click();
    await page.getByTestId('compare-view').waitFor();
    await imagesLoaded(page, '[data-testid="compare-view"]');
    await shoot(page, 'compare-two');
    await page.keyboard.press('Escape');
    await page.getByTestId('compare-view').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Clear selection' }).click();
  });

  it('boards: a board shown as a filter of the gallery', async () => {
    const { page } = view;
    await page.locator('[data-testid="board"][data-board="Portraits"] .board-item').click();
    await waitUntil(async () => (await page.getByTestId('task-card').count()) === 4, "the board's cards");
    await imagesLoaded(page, '[data-testid="gallery"]');
    await shoot(page, 'library-board');
  });

  it('a small window (800 x 600), light and dark', async () => {
    const size = { width: 800, height: 600 };
    const before = (await rig.call('settings.get', {})).theme;
    for (const theme of ['light', 'dark'] as const) {
      await rig.call('settings.update', { theme });
      const small = await rig.openPage(browser, { colorScheme: theme, viewport: size });
      try {
        const { page } = small;
        await waitForApp(page);
        await openView(page, 'library');
        const song = saved[2]!;
        await card(page, song.id)
          .getByRole('button', { name: `Play ${song.title}`, exact: true })
          .click();
        await playerBar(page).and(page.locator('[data-playing="true"]')).waitFor();
        await playerBar(page).getByRole('button', { name: 'Loop' }).click();
        await card(page, song.id)
          .getByRole('button', { name: `Open ${song.title}` })
          .click();
        await page.locator('[data-testid="waveform-player"][data-ready="true"]').waitFor({ timeout: 15_000 });
        await imagesLoaded(page, '[data-testid="gallery"]');
        await shoot(page, `small-window-${theme}`, size);
      } finally {
        await small.close();
      }
    }
    await rig.call('settings.update', { theme: before });
  });

  it('settings', async () => {
    const { page } = view;
    await openView(page, 'settings');
    await shoot(page, 'settings');
  });

  it('activity: tasks running at the service', async () => {
    // A fresh studio whose service runs at half the real pace (a song waits about 1.5 s, then
    // works for several seconds) and takes three tasks at once, so tasks are seen running and
    // waiting. Its own library: durations learnt from the fast library above would be wrong here.
    const live = await createStudioRig({
      rendererDir: rendererDir(),
      service: 'service',
      timeScale: 0.5,
      maxActiveRemote: 3,
    });
    try {
      const running: Task[] = [];
      const target = await writePicture(live.filesDir, 'crowd.png', 640, 480);
      running.push(
        await live.call('tasks.queue', {
          model: 'service/image-toolkit',
          taskType: 'face-swap',
          title: 'Concert crowd',
          input: { target_image: target, swap_image: target },
        }),
      );
      for (const [title, style] of SONGS) {
        running.push(
          await live.call('tasks.queue', {
            model: 'service/ace-step',
            taskType: 'txt2audio',
            title: `${title} (remix)`,
            input: { style_prompt: style!, duration: 120 },
          }),
        );
      }
      const liveView = await live.openPage(browser);
      try {
        const { page } = liveView;
        await waitForApp(page);
        await openView(page, 'activity');
        await waitUntil(
          async () => {
            const states = await Promise.all(
              running.map(async (t) => (await live.call('tasks.get', { id: t.id }))?.state),
            );
            return states.filter((s) => s === 'processing').length >= 2;
          },
          'two tasks processing at the service',
          20_000,
        );
        await page.waitForTimeout(1_000); // let the elapsed-time bars move
        await shoot(page, 'activity');
        expect(await page.getByTestId('activity-row').count()).toBe(running.length);
      } finally {
        await liveView.close();
      }
    } finally {
      await live.close();
    }
  });
});

/**
 * Settings with the hosted service (a key stored, the balance shown, Advanced: model ids open)
 * and the composer's queue bar with the balance, at 800 x 600 and 1920 x 1080, light and dark:
 * settings-hosted-<size>-<theme>.png (the Service section), settings-model-ids-<size>-<theme>.png
 * (Advanced open) and compose-balance-<size>-<theme>.png.
 */
describe.skipIf(!browserAvailable())('screenshots of the hosted service settings', () => {
  const SIZES: Size[] = [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ];
  let browser: Browser;
  let rig: StudioRig;

  openStudio(
    {
      service: 'hosted',
      // A user who stored a key (demo off, hosted profile), renamed image edit's model and made a song.
      prepare: async (rig) => {
        await mkdir(SHOTS_DIR, { recursive: true });
        await rig.call('settings.setApiKey', { key: SERVICE_KEY });
        await rig.call('settings.update', {
          modelOverrides: { 'qwen-image/image-edit': 'Qubico/qwen-edit-image' },
        });
        await saveSongs(rig, [
          {
            title: 'Harbour morning',
            style: 'acoustic folk, gulls, warm guitar',
            seconds: 30,
            model: 'ace-step',
          },
        ]);
      },
      page: false,
    },
    (opened) => {
      ({ browser, rig } = opened);
    },
  );

  /** Scrolls the view so `target` is at the top of the main area. */
  async function scrollToTop(target: Locator): Promise<void> {
    await target.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }),
    );
  }

  for (const size of SIZES) {
    for (const theme of ['light', 'dark'] as const) {
      const tag = `${size.width}x${size.height}-${theme}`;
      it(`settings and queue bar at ${tag}`, async () => {
        const view = await rig.openPage(browser, { colorScheme: theme, viewport: size });
        try {
          const { page } = view;
          await waitForApp(page);
          await openView(page, 'settings');
          const service = page.locator('.settings-section').filter({ has: page.getByTestId('service-now') });
          await page.getByTestId('balance').filter({ hasText: 'Balance: $9.985 left' }).waitFor();
          await scrollToTop(service);
          await shoot(page, `settings-hosted-${tag}`, size);

          const advanced = page.locator('details.advanced');
          await advanced.getByText('Advanced: model ids', { exact: true }).click();
          await page.getByTestId('model-id-qwen-image/image-edit').waitFor();
          await scrollToTop(advanced);
          await shoot(page, `settings-model-ids-${tag}`, size);

          await fillSong(page, { style: 'acoustic folk, gulls, warm guitar', seconds: 30 });
          await page.getByTestId('balance-compact').filter({ hasText: '$9.985 left' }).waitFor();
          await composerFromTop(page);
          await shoot(page, `compose-balance-${tag}`, size);
        } finally {
          await view.close();
        }
      });
    }
  }
});
