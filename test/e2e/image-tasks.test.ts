/**
 * Scenarios 2 and 4: local pictures dragged into the composer.
 * - Face swap: two images made with sharp are dropped on the target and face slots, queued,
 *   seen running in Activity, then as a card with a thumbnail in the Library, and in the detail
 *   view with the before/after slider.
 * - Image edit with three images dropped on image1..image3 and a prompt that names them.
 * Behind the UI: the sandbox's ledger (what was billed, with the pictures' bytes), the copies of
 * the inputs and the outputs in the library folder, and the task rows.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, card, dropOnSlot, openComposeTab, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** The bytes a ledger body carries for an image input (data URI or raw Base64). */
function decodedImage(value: unknown): Buffer {
  const text = String(value);
  return Buffer.from(text.startsWith('data:') ? text.slice(text.indexOf(',') + 1) : text, 'base64');
}

async function expectLibraryFile(libraryDir: string, relative: string | null | undefined): Promise<Buffer> {
  expect(relative, 'a library-relative path').toBeTruthy();
  const bytes = await readFile(join(libraryDir, relative!));
  expect(bytes.length).toBeGreaterThan(0);
  return bytes;
}

describe.skipIf(!browserAvailable())('pictures dragged into face swap and image edit', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('face swap: two dropped pictures run to a result with a thumbnail and a before/after view', async () => {
    const { page } = view;
    const target = await writePicture(rig.filesDir, 'holiday.png', 640, 480, { r: 30, g: 110, b: 200 });
    const face = await writePicture(rig.filesDir, 'portrait.jpg', 300, 360, { r: 200, g: 90, b: 60 });

    await openComposeTab(page, 'Face swap');
    const targetSlot = await dropOnSlot(page, 'target_image', { path: target });
    const faceSlot = await dropOnSlot(page, 'swap_image', { path: face });
    for (const [s, name] of [
      [targetSlot, 'holiday.png'],
      [faceSlot, 'portrait.jpg'],
    ] as const) {
      expect(await s.getAttribute('data-status')).toBe('ok');
      expect(await s.getByTestId('slot-name').textContent()).toBe(name);
      // The preview is the dropped picture itself, decoded by the browser.
      await expect
        .poll(() =>
          s
            .locator('img.slot-preview')
            .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
        )
        .toBeGreaterThan(0);
    }
    expect(await targetSlot.getByTestId('slot-reason').textContent()).toContain('640');

    await queue(page);
    const queued = view.bridge.queuedTasks().at(-1)!;
    expect(queued).toMatchObject({ taskType: 'face-swap', family: 'face-swap' });

    await openView(page, 'activity');
    await activityRow(page, queued.id).waitFor();
    const saved = await rig.waitForTask(queued.id, ['saved']);

    // The inputs went as files: copied into the library, and their bytes were what the service got.
    expect(saved.inputs.map((i) => [i.field, i.source, i.width, i.height])).toEqual([
      ['target_image', 'file', 640, 480],
      ['swap_image', 'file', 300, 360],
    ]);
    const copy = await expectLibraryFile(rig.libraryDir, saved.inputs[0]!.value);
    expect(copy.equals(await readFile(target))).toBe(true);
    const ledger = (await rig.ledger()).filter((e) => e.taskId === saved.remoteId);
    expect(ledger).toHaveLength(1);
    const sent = (ledger[0]!.body as { input: Record<string, unknown> }).input;
    expect((await sharp(decodedImage(sent.target_image)).metadata()).width).toBe(640);
    expect((await sharp(decodedImage(sent.swap_image)).metadata()).height).toBe(360);

    // The result and its thumbnail are on disk.
    const output = saved.outputs[0]!;
    const png = await expectLibraryFile(rig.libraryDir, output.path);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    await expectLibraryFile(rig.libraryDir, output.thumbPath);

    // Library: the card shows the thumbnail, loaded from the library through the media URL.
    await openView(page, 'library');
    const resultCard = card(page, saved.id);
    await resultCard.and(page.locator('[data-state="saved"]')).waitFor();
    const thumb = resultCard.locator('img');
    await expect
      .poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await thumb.getAttribute('src')).toContain(rig.server.mediaBaseUrl);

    // Detail: before/after slider with both pictures, operable as a range.
    await resultCard.getByRole('button', { name: `Open ${saved.title}` }).click();
    const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${saved.id}"]`);
    await detail.waitFor();
    const slider = detail.getByTestId('before-after');
    await slider.waitFor();
    const range = slider.getByRole('slider', { name: 'Compare before and after' });
    await range.focus();
    await page.keyboard.press('ArrowRight');
    expect(await range.inputValue()).toBe('51');
    for (const img of await slider.locator('img').all()) {
      await expect
        .poll(() => img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth))
        .toBeGreaterThan(0);
    }
    expect(await detail.getByTestId('task-id').textContent()).toContain(saved.id);
  });

  it('image edit: three dropped pictures and a prompt naming them', async () => {
    const { page } = view;
    const pictures = await Promise.all([
      writePicture(rig.filesDir, 'room.png', 512, 384, { r: 220, g: 210, b: 190 }),
      writePicture(rig.filesDir, 'sofa.webp', 256, 256, { r: 90, g: 40, b: 120 }),
      writePicture(rig.filesDir, 'lamp.jpg', 200, 300, { r: 250, g: 200, b: 40 }),
    ]);
    const panel = await openComposeTab(page, 'Image edit');
    for (const [i, path] of pictures.entries()) {
      const s = await dropOnSlot(page, `image${i + 1}`, { path });
      expect(await s.getAttribute('data-status'), `image${i + 1}`).toBe('ok');
    }
    await panel
      .getByLabel('Prompt', { exact: true })
      .fill('Put the sofa from image2 and the lamp from image3 into image1');
    await queue(page);
    const queued = view.bridge.queuedTasks().at(-1)!;
    expect(queued).toMatchObject({ taskType: 'image-edit' });

    const saved: Task = await rig.waitForTask(queued.id, ['saved']);
    expect(saved.inputs.map((i) => i.field)).toEqual(['image1', 'image2', 'image3']);
    const [entry] = (await rig.ledger()).filter((e) => e.taskId === saved.remoteId);
    const sent = (entry!.body as { input: Record<string, unknown> }).input;
    expect(sent.prompt).toBe('Put the sofa from image2 and the lamp from image3 into image1');
    const sizes = await Promise.all(
      ['image1', 'image2', 'image3'].map(async (f) => {
        const m = await sharp(decodedImage(sent[f])).metadata();
        return [m.width, m.height];
      }),
    );
    expect(sizes).toEqual([
      [512, 384],
      [256, 256],
      [200, 300],
    ]);
    const output = saved.outputs[0]!;
    expect((await stat(join(rig.libraryDir, output.path!))).size).toBeGreaterThan(0);

    await openView(page, 'library');
    await card(page, saved.id).and(page.locator('[data-state="saved"]')).waitFor();
    await card(page, saved.id)
      .getByRole('button', { name: `Open ${saved.title}` })
      .click();
    await page
      .locator(`[data-testid="detail-panel"][data-task-id="${saved.id}"]`)
      .getByTestId('before-after')
      .waitFor();
    expect(await rig.tasks()).toHaveLength(2);
  });
});
