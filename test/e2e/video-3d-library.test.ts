/**
 * Video and 3D results in the library, in the built app over the rig's sandbox: a video's card
 * shows the poster the window drew once (kept by main as the output's thumbnail) and its length,
 * plays a muted preview while the pointer rests on it, and its detail plays it; a video upscale
 * plays beside its input, in step; a Trellis model's card shows its picture and its detail turns
 * the GLB in the 3D viewer (its canvas draws the model: non-blank pixels); the Makes and Model
 * filters; the detail's keep-going actions come from the catalog (a video into upscale and face
 * swap; a 3D task's follow the output shown); a viewer whose code cannot be loaded says so and
 * the window stays. Pictures at 800 x 600 and 1920 x 1080 in both themes go to VIDEO_SHOTS_DIR
 * (default /tmp/video-3d-shots).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, ConsoleMessage, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { axeInTheme, PICTURE_SIZES, shootInThemes, THEMES } from './harness/look-check.ts';
import { lineageOf, openResultDetail, queueFromForm } from './harness/result-actions.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openLibraryWith, waitForApp } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** What the tests read of a <video> in the page (the Node types have no DOM). */
type MediaElement = { currentTime: number; muted: boolean; play(): Promise<void> };

const SHOTS_DIR = process.env.VIDEO_SHOTS_DIR ?? '/tmp/video-3d-shots';

async function makeTasks(rig: StudioRig): Promise<{ video: Task; upscale: Task; model: Task }> {
  const queued = await rig.call('tasks.queue', {
    model: 'service/video-gen',
    taskType: 'txt2video',
    title: 'Waves at dusk',
    input: { prompt: 'waves rolling onto a beach at dusk', duration: 2 },
  });
  const boat = await rig.call('tasks.queue', {
    model: 'service/trellis',
    taskType: 'text-to-3d',
    title: 'Little red boat',
    input: { prompt: 'a little red boat' },
  });
  const video = await rig.waitForTask(queued.id, ['saved'], 60_000);
  const up = await rig.call('tasks.queue', {
    model: 'service/video-toolkit',
    taskType: 'upscale',
    title: 'Waves at dusk (upscaled)',
    input: { video: { $output: { taskId: video.id, index: 0 } } },
    acceptUnknownPrice: true,
  });
  return {
    video,
    upscale: await rig.waitForTask(up.id, ['saved'], 60_000),
    model: await rig.waitForTask(boat.id, ['saved'], 60_000),
  };
}

/** The ids of the cards shown, sorted. */
async function shownIds(page: Page): Promise<string[]> {
  const cards = await page.getByTestId('task-card').all();
  return (await Promise.all(cards.map((c) => c.getAttribute('data-task-id')))).map((id) => id ?? '').sort();
}

async function filterBy(page: Page, label: 'Makes' | 'Model', option: string): Promise<void> {
  const bar = page.getByRole('search', { name: 'Filter the library' });
  await bar.getByLabel(label, { exact: true }).selectOption({ label: option });
}

/** Distinct colours (rounded to 16 levels) in a PNG: a blank canvas has one. */
async function coloursIn(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += info.channels) {
    seen.add(((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4));
  }
  return seen.size;
}

/**
 * Waits until the detail's 3D viewer has drawn its model (its `data-state` ready) and returns it.
 * A viewer that says it failed ends the wait at once; either way the error says what the viewer
 * showed last (still loading the viewer's code, the model, or its words) and what the page
 * logged as errors meanwhile, so a slow run is told from a stuck one.
 */
async function viewerReady(page: Page, detail: Locator, timeoutMs = 30_000): Promise<Locator> {
  const viewer = detail.getByTestId('model-viewer');
  const logged: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') logged.push(message.text());
  };
  const onError = (error: Error) => logged.push(`${error.message} ${error.stack ?? ''}`.slice(0, 600));
  page.on('console', onConsole);
  page.on('pageerror', onError);
  let seen = 'nothing yet';
  const started = Date.now();
  try {
    await waitUntil(
      async () => {
        const state = await viewer.getAttribute('data-state', { timeout: 1_000 }).catch(() => null);
        seen = state
          ? `${state}: ${await viewer.textContent({ timeout: 1_000 }).catch(() => '(gone)')}`
          : `no viewer; the detail says: ${(await detail.textContent({ timeout: 1_000 }).catch(() => 'no detail'))?.slice(0, 300)}; panels: ${await page.locator('[data-testid="detail-panel"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))}`;
        if (state === 'failed') throw new Error('the 3D viewer failed');
        return state === 'ready';
      },
      'the 3D viewer to draw the model',
      timeoutMs,
    );
  } catch (err) {
    const picture = join(SHOTS_DIR, `viewer-not-ready-${Date.now()}.png`);
    await page.screenshot({ path: picture }).catch(() => undefined);
    throw new Error(
      `${(err as Error).message} (after ${Date.now() - started} ms); it showed "${seen}"; the page logged: ${logged.join(' | ') || 'no errors'}; the window then: ${picture}`,
    );
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
  }
  return viewer;
}

/**
 * The screens of this feature in turn: the gallery, a video's detail, a video beside its input, a
 * 3D model and its turntable video.
 */
async function screens(
  page: Page,
  tasks: { video: Task; upscale: Task; model: Task },
  at: (where: string) => Promise<void>,
): Promise<void> {
  await openLibraryWith(page, 3);
  await expect.poll(() => card(page, tasks.video.id).locator('img').count()).toBe(1);
  await at('video-3d-gallery');
  await (await openResultDetail(page, tasks.video)).getByTestId('video-player').waitFor();
  await at('video-detail');
  const video = await openResultDetail(page, tasks.upscale);
  await video.getByTestId('video-compare').waitFor();
  await at('video-upscale-compare');
  const model = await openResultDetail(page, tasks.model);
  await viewerReady(page, model);
  await at('model-viewer');
  // its turntable video, shown in place of the model
  await model.locator('.output-picker').getByRole('button', { name: 'Video', exact: true }).click();
  await model.getByTestId('video-player').waitFor();
  await at('model-turntable');
}

describe.skipIf(!browserAvailable())('video and 3D results in the library', () => {
  let view: StudioPage;
  let rig: StudioRig;
  let browser: Browser;
  let tasks: { video: Task; upscale: Task; model: Task };

  openStudio(
    {
      service: 'service',
      prepare: async (started) => {
        await mkdir(SHOTS_DIR, { recursive: true });
        tasks = await makeTasks(started);
      },
    },
    (opened) => {
      ({ view, rig, browser } = opened);
    },
  );

  it("a video's card shows its poster and length, previews on hover, and its detail plays", async () => {
    const { page } = view;
    await openLibraryWith(page, 3);
    const videoCard = card(page, tasks.video.id);
    // the window drew the poster once and main kept it beside the video
    const poster = videoCard.locator('img');
    await expect.poll(() => poster.getAttribute('src'), { timeout: 20_000 }).toMatch(/poster-1\.png$/);
    await expect
      .poll(() => poster.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const saved = (await rig.tasks()).find((t) => t.id === tasks.video.id);
    expect(saved?.outputs[0]?.thumbPath).toMatch(/poster-1\.png$/);
    expect(await videoCard.locator('.card-duration').textContent()).toBe('0:02');
    expect(await page.locator('[data-testid="task-card"] video').count()).toBe(0);
    // resting the pointer on it plays a muted preview; leaving it removes the player
    await videoCard.locator('.card-thumb').hover();
    const preview = videoCard.getByTestId('card-preview');
    await expect
      .poll(() => preview.evaluate((v) => (v as unknown as MediaElement).currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await preview.evaluate((v) => (v as unknown as MediaElement).muted)).toBe(true);
    await page.mouse.move(0, 0);
    await expect.poll(() => page.locator('[data-testid="task-card"] video').count()).toBe(0);

    const detail = await openResultDetail(page, tasks.video);
    const player = detail.getByTestId('video-player');
    await player.evaluate((v) => (v as unknown as MediaElement).play());
    await expect
      .poll(() => player.evaluate((v) => (v as unknown as MediaElement).currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0);
    // keep going: the catalog's video operations
    const actions = detail.getByTestId('result-actions');
    expect(await actions.getByRole('button').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/upscale/i), expect.stringMatching(/face/i)]),
    );
  });

  it('a video upscale plays beside its input, in step', async () => {
    const { page } = view;
    const detail = await openResultDetail(page, tasks.upscale);
    await detail.getByTestId('video-compare').waitFor();
    // its lineage names what was sent in its kind's word
    await expect
      .poll(() => detail.getByTestId('sent-source').allTextContents())
      .toEqual(["The video was sent as the service's link."]);
    await detail.getByRole('button', { name: 'Play both' }).click();
    const times = () =>
      detail.evaluate((root) =>
        [...root.querySelectorAll('video')].map((v) => ({ t: v.currentTime, paused: v.paused })),
      );
    await expect
      .poll(async () => (await times()).every((v) => !v.paused && v.t > 0), { timeout: 10_000 })
      .toBe(true);
    await detail.getByRole('button', { name: 'Pause both' }).click();
    await expect.poll(async () => (await times()).every((v) => v.paused)).toBe(true);
    const [before, after] = await times();
    expect(Math.abs((before?.t ?? 0) - (after?.t ?? 99))).toBeLessThan(0.25);
  });

  it("a 3D result's card shows its picture and its detail turns the model in the viewer", async () => {
    const { page } = view;
    const modelCard = card(page, tasks.model.id);
    expect(await modelCard.getAttribute('data-kind')).toBe('3d');
    await expect.poll(() => modelCard.locator('img').count()).toBe(1);
    const detail = await openResultDetail(page, tasks.model);
    await viewerReady(page, detail);
    const canvas = detail.getByTestId('model-canvas');
    const first = await canvas.screenshot();
    expect(await coloursIn(first)).toBeGreaterThan(3);
    // dragging turns it: the picture changes
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    expect((await canvas.screenshot()).equals(first)).toBe(false);
    // Drag out hands the GLB itself to the system's drag
    await detail.getByTestId('drag-out').dispatchEvent('dragstart');
    await expect
      .poll(() => rig.shell.calls.filter((c) => c.op === 'startDrag').map((c) => c.args[0]))
      .toEqual([expect.stringMatching(/\.glb$/)]);
    // the turntable and the picture are the task's other outputs; the picture goes into the picture tools
    const picker = detail.locator('.output-picker');
    expect(await picker.getByRole('button').allTextContents()).toEqual(['3D model', 'Video', 'Picture']);
    await detail.locator('.result-actions-output select').selectOption({ label: 'Picture' });
    expect(await detail.getByTestId('result-actions').getByRole('heading').textContent()).toBe(
      'Keep going from this picture',
    );
    expect(await detail.getByTestId('result-actions').getByRole('button').count()).toBeGreaterThan(0);
  });

  it("a 3D result's keep-going follows the output its detail shows, and records that output as the parent", async () => {
    const { page } = view;
    const detail = await openResultDetail(page, tasks.model);
    const picker = detail.locator('.output-picker');
    const actions = detail.getByTestId('result-actions');
    const use = actions.locator('.result-actions-output select');
    const pressed = () => picker.locator('button[aria-pressed="true"]').textContent();
    // the model has no tools of its own: the section says which of the model's outputs it uses
    await picker.getByRole('button', { name: '3D model', exact: true }).click();
    expect(await pressed()).toBe('3D model');
    expect(await actions.getByRole('heading').textContent()).toBe("Keep going from this 3D model's video");
    await picker.getByRole('button', { name: 'Picture', exact: true }).click();
    expect(await actions.getByRole('heading').textContent()).toBe('Keep going from this picture');
    expect(await use.inputValue()).toBe('2');
    await picker.getByRole('button', { name: 'Video', exact: true }).click();
    expect(await actions.getByRole('heading').textContent()).toBe('Keep going from this video');
    expect(await use.inputValue()).toBe('1');
    expect(await actions.getByRole('button', { name: 'Upscale video', exact: true }).count()).toBe(1);
    // choosing in the section shows that output above it too
    await use.selectOption({ label: 'Picture' });
    expect(await pressed()).toBe('Picture');
    await actions.getByRole('button', { name: 'Remove background', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    const call = await queueFromForm(view);
    expect(call.args).toMatchObject({ parentId: tasks.model.id, parentOutput: 2 });
    const stored = (await rig.call('tasks.get', { id: (call.value as Task).id }))!;
    expect(lineageOf(stored)).toEqual({ parentId: tasks.model.id, parentOutput: 2 });
    // out of the way of the other tests' library of three
    await rig.waitForTask(stored.id, ['saved'], 60_000);
    await rig.call('tasks.delete', { selection: { ids: [stored.id] } });
    await openLibraryWith(page, 3);
  });

  it('a 3D viewer whose code cannot be loaded says so in the detail; the window stays', async () => {
    const opened = await rig.openPage(browser, {
      // the viewer's own chunk fails to arrive (an app updated under a running window, a bad disk)
      beforeLoad: async (page) => {
        await page.route(/\/assets\/ModelViewer-[^/]*\.js$/, (route) => route.abort());
      },
    });
    try {
      const { page } = opened;
      await waitForApp(page);
      const detail = await openResultDetail(page, tasks.model);
      const viewer = detail.getByTestId('model-viewer');
      await waitUntil(
        async () => (await viewer.count()) > 0 && (await viewer.getAttribute('data-state')) === 'failed',
        'the viewer to say it failed',
      );
      expect(await viewer.getByRole('alert').textContent()).toBe(
        'The 3D viewer could not be loaded. Export the model or drag it to another program.',
      );
      // the rest of the detail and the window are still there
      expect(await detail.getByTestId('drag-out').count()).toBe(1);
      await detail.locator('.output-picker').getByRole('button', { name: 'Picture', exact: true }).click();
      await detail.locator('img.detail-image').waitFor();
      expect(await page.getByTestId('nav-compose').isVisible()).toBe(true);
    } finally {
      await opened.close();
    }
  });

  it('filters by what a task makes and by model', async () => {
    const { page } = view;
    const close = page.getByTestId('detail-panel').getByRole('button', { name: 'Close details' });
    if (await close.isVisible()) await close.click();
    const bar = page.getByRole('search', { name: 'Filter the library' });
    const toggle = bar.getByRole('button', { name: /^Filters/ });
    if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false')
      await toggle.click();
    await bar.getByLabel('Makes', { exact: true }).waitFor();
    await filterBy(page, 'Makes', 'Videos');
    await expect.poll(() => shownIds(page)).toEqual([tasks.video.id, tasks.upscale.id].sort());
    await filterBy(page, 'Makes', '3D models');
    await expect.poll(() => shownIds(page)).toEqual([tasks.model.id]);
    await filterBy(page, 'Makes', 'Anything');
    await filterBy(page, 'Model', 'video-gen');
    await expect.poll(() => shownIds(page)).toEqual([tasks.video.id]);
    await filterBy(page, 'Makes', 'Pictures');
    await expect.poll(() => shownIds(page)).toEqual([]);
    await bar.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => shownIds(page)).toHaveLength(3);
  });

  for (const theme of THEMES) {
    it(`has no serious or critical violations in the ${theme} theme`, async () => {
      const { blocking } = await axeInTheme(rig, browser, theme, (page, at) => screens(page, tasks, at));
      expect(blocking, blocking.join('\n')).toEqual([]);
    });
  }

  for (const size of PICTURE_SIZES) {
    it(`takes pictures at ${size.name} in both themes`, async () => {
      await shootInThemes(rig, browser, size, SHOTS_DIR, (page, at) => screens(page, tasks, at));
    });
  }
});
