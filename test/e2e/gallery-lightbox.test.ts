/**
 * The library's image viewer and the detail's inputs: an upscaled picture (1600 x 1200, larger
 * than the window) opens from the detail fitted to the window, goes to actual size (one image
 * pixel per screen pixel) and back, pans by dragging; a face swap compares input and result by
 * dragging on the picture itself; Escape closes the viewer (not the detail). The detail shows
 * the input pictures as thumbnails loaded through the media URLs, not as paths. axe-core finds
 * nothing serious in the viewer in either theme; screenshots at 800 x 600 and 1920 x 1080.
 * A saved picture too large to decode (a PNG claiming 99,000,000 x 1 px, written through the
 * store as the app saves it: no thumbnail, its size) is never loaded by an <img>: the card, the
 * detail and the viewer show a placeholder naming its size instead (issue 17 item 3).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { Task } from '../../src/shared/index.ts';
import { hugePng } from '../support/oversized-pictures.ts';
import { writePicture } from './harness/local-media.ts';
import { inThemeAtEachSize, THEMES } from './harness/look-check.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, describeViolations, openView, runAxe } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = process.env.GALLERY_SHOTS_DIR ?? '/tmp/gallery-shots';

const HUGE = { id: 'huge-picture', title: 'Endless ribbon', path: '2025/01/huge-picture/output-0.png' };
const HUGE_TEXT = 'Too large to show here: 99,000,000 × 1 px — open it with another program';

/**
 * A saved upscale whose picture claims 99,000,000 x 1 px, as the app saves one (no thumbnail, the
 * size read from its header, the reason as the output's note), written through the store.
 */
async function plantHugePicture(libraryDir: string): Promise<void> {
  const file = join(libraryDir, HUGE.path);
  await mkdir(join(file, '..'), { recursive: true });
  const png = hugePng(99_000_000, 1);
  await writeFile(file, png);
  const store = LibraryStore.open(libraryDir);
  try {
    const model = 'service/image-toolkit';
    const request = { model, task_type: 'upscale', input: { image: 'https://example.test/ribbon.png' } };
    const createdAt = new Date(Date.now() - 3_600_000).toISOString();
    store.insertTask({
      id: HUGE.id,
      model,
      taskType: 'upscale',
      title: HUGE.title,
      request,
      estimateMicros: 0,
      createdAt,
    });
    store.replaceOutputs(HUGE.id, [
      { kind: 'image', url: 'https://files.example.test/ribbon.png', field: 'image_url' },
    ]);
    store.updateOutput(HUGE.id, 0, {
      state: 'saved',
      path: HUGE.path,
      thumbPath: null,
      mime: 'image/png',
      size: png.length,
      width: 99_000_000,
      height: 1,
      error:
        'no thumbnail: the picture is 99000000 x 1 px; the app decodes pictures of at most 16384 px a side and 67.1 million pixels',
    });
    store.transition(HUGE.id, 'saved', { patch: { endedAt: createdAt, savedAt: createdAt } });
  } finally {
    store.close();
  }
}

/** Every request the page makes for the huge picture's file, and every <img> naming it. */
function watchHugeLoads(page: Page): { requests: string[]; images: () => Promise<string[]> } {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(HUGE.path)) requests.push(request.url());
  });
  const images = () =>
    page
      .locator('img')
      .evaluateAll(
        (imgs, path) => imgs.map((img) => img.getAttribute('src') ?? '').filter((src) => src.includes(path)),
        HUGE.path,
      );
  return { requests, images };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function openDetail(page: Page, task: Task): Promise<void> {
  await card(page, task.id)
    .getByRole('button', { name: `Open ${task.title}` })
    .click();
  await page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`).waitFor();
}

async function imageBox(page: Page): Promise<Box> {
  const box = await page.getByTestId('lightbox').locator('.lightbox-image').boundingBox();
  if (!box) throw new Error('the viewer shows no picture');
  return box;
}

function stageScroll(page: Page): Promise<{ left: number; top: number; width: number; height: number }> {
  return page.getByTestId('lightbox-stage').evaluate((el) => ({
    left: el.scrollLeft,
    top: el.scrollTop,
    width: el.scrollWidth - el.clientWidth,
    height: el.scrollHeight - el.clientHeight,
  }));
}

describe.skipIf(!browserAvailable())(
  'gallery: image viewer, compare on the picture, input thumbnails',
  () => {
    let browser: Browser;
    let rig: StudioRig;
    let view: StudioPage;
    let upscale: Task;
    let swap: Task;

    openStudio(
      {
        service: 'service',
        prepareLibrary: plantHugePicture,
        prepare: async (rig) => {
          const photo = await writePicture(rig.filesDir, 'harbour.png', 800, 600, { r: 30, g: 140, b: 170 });
          const target = await writePicture(rig.filesDir, 'street.png', 640, 480);
          const face = await writePicture(rig.filesDir, 'smile.png', 200, 200, { r: 220, g: 160, b: 120 });
          upscale = await rig.call('tasks.queue', {
            model: 'service/image-toolkit',
            taskType: 'upscale',
            title: 'Harbour, twice as large',
            input: { image: photo, scale: 2 },
          });
          swap = await rig.call('tasks.queue', {
            model: 'service/image-toolkit',
            taskType: 'face-swap',
            title: 'Street portrait',
            input: { target_image: target, swap_image: face },
          });
          upscale = await rig.waitForTask(upscale.id, ['saved']);
          swap = await rig.waitForTask(swap.id, ['saved']);
        },
      },
      async (opened) => {
        ({ browser, rig, view } = opened);
        await openView(view.page, 'library');
        await card(view.page, swap.id).waitFor();
      },
    );

    it('shows the input pictures in the detail as thumbnails from the library, not as paths', async () => {
      const { page } = view;
      await openDetail(page, swap);
      const params = page.getByTestId('task-parameters');
      for (const field of ['target_image', 'swap_image']) {
        const thumb = params.locator(`[data-testid="input-thumb"][data-field="${field}"] img`);
        await thumb.waitFor();
        const input = (await rig.call('tasks.get', { id: swap.id }))!.inputs.find((i) => i.field === field)!;
        // the same media URL mechanism as outputs: the media base plus the library-relative path
        expect(await thumb.getAttribute('src')).toMatch(new RegExp(`${input.value.replace(/\./g, '\\.')}$`));
        // the thumbnails load lazily, and the detail now reaches below the window: seen, as a
        // person scrolling to them would (unscrolled, the second stayed unloaded, naturalWidth 0)
        await thumb.scrollIntoViewIfNeeded();
        await expect
          .poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
          .toBe(field === 'target_image' ? 640 : 200);
      }
      expect(await params.textContent()).not.toContain('library file');
      expect(await params.textContent()).toContain('640 × 480');
    });

    it('opens an image from the detail fitted to the window, zooms to actual pixels and back, pans by dragging', async () => {
      const { page } = view;
      await openDetail(page, upscale);
      const opener = page.getByRole('button', { name: 'View larger' });
      await opener.click();
      const lightbox = page.getByRole('dialog', { name: upscale.title });
      await lightbox.waitFor();
      expect(await lightbox.getAttribute('data-mode')).toBe('fit');
      await expect
        .poll(() => page.getByTestId('lightbox-zoom').textContent())
        .toMatch(/^\d+% · 1600 × 1200$/);

      // fit: the whole picture inside the window, smaller than its own size
      const fitted = await imageBox(page);
      expect(fitted.width).toBeLessThan(1600);
      expect(fitted.x).toBeGreaterThanOrEqual(0);
      expect(fitted.y).toBeGreaterThanOrEqual(0);
      expect(fitted.x + fitted.width).toBeLessThanOrEqual(1280 + 0.5);
      expect(fitted.y + fitted.height).toBeLessThanOrEqual(800 + 0.5);
      expect(Math.abs(fitted.width / fitted.height - 4 / 3)).toBeLessThan(0.01);
      const percent = Number((await page.getByTestId('lightbox-zoom').textContent())!.split('%')[0]);
      expect(percent).toBe(Math.round((fitted.width / 1600) * 100));

      // actual size: 1600 x 1200 screen pixels (device scale 1), centred, scrollable
      await lightbox.getByRole('button', { name: 'Actual size' }).click();
      expect(await lightbox.getAttribute('data-mode')).toBe('actual');
      expect(await page.getByTestId('lightbox-zoom').textContent()).toContain('100%');
      const actual = await imageBox(page);
      expect(actual.width).toBeCloseTo(1600, 0);
      expect(actual.height).toBeCloseTo(1200, 0);
      const centred = await stageScroll(page);
      expect(centred.width).toBeGreaterThan(0);
      expect(Math.abs(centred.left - centred.width / 2)).toBeLessThanOrEqual(1);

      // drag the picture 150 px right and 100 px down: the view moves the other way
      const stage = (await page.getByTestId('lightbox-stage').boundingBox())!;
      const from = { x: stage.x + stage.width / 2, y: stage.y + stage.height / 2 };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + 75, from.y + 50, { steps: 3 });
      await page.mouse.move(from.x + 150, from.y + 100, { steps: 3 });
      await page.mouse.up();
      const panned = await stageScroll(page);
      expect(panned.left).toBeCloseTo(centred.left - 150, 0);
      expect(panned.top).toBeCloseTo(centred.top - 100, 0);

      // the arrow keys move it too (the stage is a focusable scroll area)
      await page.getByTestId('lightbox-stage').focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => (await stageScroll(page)).left).toBeGreaterThan(panned.left);

      // back to fit, by the button and by the 0 key after a 1
      await lightbox.getByRole('button', { name: 'Fit to window' }).click();
      expect((await imageBox(page)).width).toBeCloseTo(fitted.width, 0);
      await page.keyboard.press('1');
      expect((await imageBox(page)).width).toBeCloseTo(1600, 0);
      await page.keyboard.press('0');
      expect((await imageBox(page)).width).toBeCloseTo(fitted.width, 0);

      // double-click zooms in keeping the clicked point under the pointer, and out again
      const point = { x: fitted.x + fitted.width * 0.25, y: fitted.y + fitted.height * 0.25 };
      // (read once the zoom has been laid out and scrolled: a loaded machine may take a frame more)
      await page.mouse.dblclick(point.x, point.y);
      await expect
        .poll(async () => {
          const zoomed = await imageBox(page);
          return [
            Math.round(zoomed.width),
            Math.round((point.x - zoomed.x) / 10) * 10,
            Math.round((point.y - zoomed.y) / 10) * 10,
          ];
        })
        .toEqual([1600, 400, 300]);
      await page.mouse.dblclick(point.x, point.y);
      await expect.poll(async () => Math.round((await imageBox(page)).width)).toBe(Math.round(fitted.width));

      // the upscale can be compared with its input too
      await lightbox.getByRole('button', { name: 'Compare with input' }).waitFor();

      // Escape closes the viewer only (the detail stays); focus is back on "View larger"
      await page.keyboard.press('Escape');
      await lightbox.waitFor({ state: 'detached' });
      expect(
        await opener.evaluate(
          (el) =>
            el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        ),
      ).toBe(true);
      expect(await page.getByTestId('detail-panel').isVisible()).toBe(true);
    });

    it('compares a face swap with its input by dragging on the picture', async () => {
      const { page } = view;
      await openDetail(page, swap);
      // in the detail too: a press on the picture moves the split there
      const frame = page.getByTestId('detail-panel').getByTestId('before-after-frame');
      const box = (await frame.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
      const detailRange = page
        .getByTestId('detail-panel')
        .getByRole('slider', { name: 'Compare before and after' });
      expect(Number(await detailRange.inputValue())).toBeCloseTo(30, -1);

      await page.getByRole('button', { name: 'View larger' }).click();
      const lightbox = page.getByRole('dialog', { name: swap.title });
      await lightbox.getByRole('button', { name: 'Compare with input' }).click();
      expect(await lightbox.getAttribute('data-mode')).toBe('compare');
      const big = lightbox.getByTestId('before-after-frame');
      const bigBox = (await big.boundingBox())!;
      // the picture as large as fits, here its own size (640 x 480), never stretched past it
      expect(bigBox.width).toBeCloseTo(640, 0);
      expect(bigBox.height).toBeCloseTo(480, 0);
      expect(await page.getByTestId('lightbox-zoom').textContent()).toBe('640 × 480');
      const range = lightbox.getByRole('slider', { name: 'Compare before and after' });
      const y = bigBox.y + bigBox.height / 2;
      await page.mouse.move(bigBox.x + bigBox.width * 0.5, y);
      await page.mouse.down();
      await page.mouse.move(bigBox.x + bigBox.width * 0.4, y, { steps: 4 });
      await page.mouse.move(bigBox.x + bigBox.width * 0.2, y, { steps: 4 });
      await page.mouse.up();
      expect(Number(await range.inputValue())).toBe(20);
      const clip = await lightbox
        .locator('.before-after-after')
        .evaluate((el) => (el as unknown as { style: { clipPath: string } }).style.clipPath);
      expect(clip).toBe('inset(0px 0px 0px 20%)');
      const images = lightbox.getByRole('img');
      expect(await images.first().getAttribute('alt')).toBe(`Before: input of ${swap.title}`);
      // the keyboard's way: the range
      await range.focus();
      await page.keyboard.press('ArrowRight');
      expect(Number(await range.inputValue())).toBe(21);
      await page.keyboard.press('Escape');
      await lightbox.waitFor({ state: 'detached' });
    });

    it('never decodes a saved picture too large to decode: card, detail and viewer show its size instead', async () => {
      const { page } = view;
      const loads = watchHugeLoads(page);
      const huge = card(page, HUGE.id);
      await huge.waitFor();
      expect(await loads.images()).toEqual([]);
      await expect.poll(() => huge.getByTestId('picture-not-shown').count()).toBe(1);
      expect(await huge.getByTestId('picture-not-shown').getAttribute('title')).toBe(HUGE_TEXT);
      await huge.getByRole('button', { name: `Open ${HUGE.title}` }).click();
      const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${HUGE.id}"]`);
      const placeholder = detail.getByTestId('detail-picture-not-shown');
      await placeholder.waitFor();
      expect(await placeholder.textContent()).toContain(HUGE_TEXT);
      // the way to it: its folder, from the placeholder itself
      await placeholder.getByRole('button', { name: 'Reveal in folder' }).waitFor();
      // no viewer to open: neither "View larger" nor a click on a picture
      expect(await detail.getByRole('button', { name: 'View larger' }).count()).toBe(0);
      await placeholder.click();
      expect(await page.getByTestId('lightbox').count()).toBe(0);
      expect(await loads.images()).toEqual([]);
      expect(loads.requests).toEqual([]);
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'detached' });
    });

    for (const theme of THEMES) {
      it(`has no serious or critical axe violations in the viewer (${theme}), and looks right at 800 x 600 and 1920 x 1080`, async () => {
        await inThemeAtEachSize(rig, browser, theme, async (page, viewport) => {
          await openView(page, 'library');
          await card(page, swap.id).waitFor();
          await card(page, HUGE.id)
            .getByRole('button', { name: `Open ${HUGE.title}` })
            .click();
          await page.getByTestId('detail-picture-not-shown').waitFor();
          await page.screenshot({ path: `${SHOTS}/too-large-${theme}-${viewport.width}.png` });
          const notShown = (await runAxe(page)).filter(
            (v) => v.impact === 'serious' || v.impact === 'critical',
          );
          expect(notShown, describeViolations(`${theme} / too large`, notShown)).toEqual([]);
          await openDetail(page, swap);
          await page.screenshot({ path: `${SHOTS}/detail-${theme}-${viewport.width}.png` });
          await page.getByRole('button', { name: 'View larger' }).click();
          const lightbox = page.getByRole('dialog', { name: swap.title });
          await lightbox.locator('.lightbox-image').waitFor();
          await page.screenshot({ path: `${SHOTS}/lightbox-fit-${theme}-${viewport.width}.png` });
          const blocking: string[] = [];
          for (const mode of ['Fit to window', 'Actual size', 'Compare with input']) {
            await lightbox.getByRole('button', { name: mode }).click();
            const bad = (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
            if (bad.length) blocking.push(describeViolations(`${theme} / ${viewport.width} / ${mode}`, bad));
          }
          await page.screenshot({ path: `${SHOTS}/lightbox-compare-${theme}-${viewport.width}.png` });
          expect(blocking, blocking.join('\n')).toEqual([]);
        });
      });
    }
  },
);
