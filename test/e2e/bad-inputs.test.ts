/**
 * Scenario 5: each bad input shows its reason where it was given and queues nothing:
 * - a 3000 x 3000 picture on a face-swap slot (the spec wants each side under 2048),
 * - a .gif URL on a face-swap slot (face swap takes .jpg, .jpeg, .png, .webp),
 * - a corrupt file (a PNG signature followed by garbage) on an image-edit slot,
 * - an empty prompt on an otherwise valid image edit,
 * - a PNG whose header claims 99,000,000 x 1 px (about 400 MB to decode), dropped with and without
 *   a path and among a face swap's batch: refused with its size, and never shown, so Chromium
 *   never decodes it (no blob: preview is even made for it).
 * Behind the UI: the service's ledger stays empty, the library has no task and no copied input.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { hugePng } from '../support/oversized-pictures.ts';
import { dataTransferOf, dropFiles } from './harness/file-drop.ts';
import { writeCorruptPng, writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  dropOnSlot,
  openComposeTab,
  queueButton,
  slot,
  useUrlOnSlot,
  waitForSlotChecked,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

/** From now on, the page notes the name of every File it makes an object URL (a preview) of. */
async function notePreviews(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const win = globalThis as unknown as {
      URL: { createObjectURL(object: { name?: string }): string };
      __previewsOf?: string[];
    };
    if (win.__previewsOf) return;
    const made: string[] = [];
    win.__previewsOf = made;
    const create = win.URL.createObjectURL.bind(win.URL);
    win.URL.createObjectURL = (object) => {
      made.push(object.name ?? '(not a file)');
      return create(object);
    };
  });
  return () => page.evaluate(() => [...((globalThis as { __previewsOf?: string[] }).__previewsOf ?? [])]);
}

const WIDE_REASON = 'Image is 99000000 x 1 px; each side must be under 2048 px';

describe.skipIf(!browserAvailable())('bad inputs show their reason and queue nothing', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('a 3000 x 3000 picture on a face-swap slot is refused with the size rule', async () => {
    const { page } = view;
    const huge = await writePicture(rig.filesDir, 'huge.png', 3000, 3000);
    await openComposeTab(page, 'Face swap');
    const target = await dropOnSlot(page, 'target_image', { path: huge });
    expect(await target.getAttribute('data-status')).toBe('bad');
    const reason = (await target.getByTestId('slot-reason').textContent()) ?? '';
    // The slot names its field itself: the wire name ("target_image: …") is not repeated.
    expect(reason).toBe('Image is 3000 x 3000 px; each side must be under 2048 px');
    expect(await queueButton(page).isDisabled()).toBe(true);
    expect(await page.getByTestId('queue-reason').textContent()).toContain('Target image');
  });

  it('a .gif URL on a face-swap slot is refused with the allowed extensions', async () => {
    const { page } = view;
    const face = await useUrlOnSlot(page, 'swap_image', 'Face image', 'https://images.example.com/face.gif');
    expect(await face.getAttribute('data-status')).toBe('bad');
    const reason = (await face.getByTestId('slot-reason').textContent()) ?? '';
    expect(reason).toBe('A .gif URL is not allowed for a face swap; use .jpg, .jpeg, .png or .webp');
    expect(await queueButton(page).isDisabled()).toBe(true);
  });

  it('a corrupt file (PNG signature, then garbage) is refused', async () => {
    const { page } = view;
    const corrupt = await writeCorruptPng(rig.filesDir, 'broken.png');
    await openComposeTab(page, 'Image edit');
    const image1 = await dropOnSlot(page, 'image1', { path: corrupt });
    expect(await image1.getAttribute('data-status')).toBe('bad');
    const reason = (await image1.getByTestId('slot-reason').textContent()) ?? '';
    expect(reason).toMatch(/^"broken\.png" is not a readable image/);
    expect(await queueButton(page).isDisabled()).toBe(true);
  });

  it('a picture claiming 99,000,000 x 1 px is refused with its size and never previewed, with or without a path', async () => {
    const { page } = view;
    const previews = await notePreviews(page);
    const wide = join(rig.filesDir, 'wide.png');
    await writeFile(wide, hugePng(99_000_000, 1));
    const [fine, other] = await Promise.all([
      writePicture(rig.filesDir, 'small.png', 320, 240),
      writePicture(rig.filesDir, 'small2.png', 300, 200),
    ]);
    // among a face swap's batch: its row says why, with no thumbnail; the others show theirs
    await openComposeTab(page, 'Face swap');
    await dropFiles(page, slot(page, 'target_image').getByTestId('drop-zone'), [
      { path: fine },
      { path: wide },
      { path: other },
    ]);
    const rows = page.getByTestId('batch-target');
    await expect.poll(() => rows.and(page.locator('[data-status="checking"]')).count()).toBe(0);
    expect(await rows.nth(1).textContent()).toContain(WIDE_REASON);
    expect(await rows.nth(1).locator('img').count()).toBe(0);
    expect(await rows.nth(2).locator('img[src^="blob:"]').count()).toBe(1);
    // a picture that passed shows its preview: the check only holds the refused ones back
    expect(await slot(page, 'target_image').locator('img[src^="blob:"]').count()).toBe(1);

    await openComposeTab(page, 'Image edit');
    // a dropped file with its path (main reads the header from disk)
    const image2 = await dropOnSlot(page, 'image2', { path: wide });
    expect(await image2.getAttribute('data-status')).toBe('bad');
    expect(await image2.getByTestId('slot-reason').textContent()).toBe(WIDE_REASON);
    expect(await image2.locator('img').count()).toBe(0);
    // a File without a path (made in memory, as a paste): its bytes go to main as a data: URL
    const transfer = await dataTransferOf(page, [{ path: wide, name: 'pasted-wide.png' }]);
    await page.evaluate(() => {
      delete (globalThis as unknown as { __studioFilePaths: Record<string, string> }).__studioFilePaths[
        'pasted-wide.png'
      ];
    });
    const image3 = slot(page, 'image3');
    await image3.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await transfer.dispose();
    await waitForSlotChecked(image3);
    expect(await image3.getByTestId('slot-reason').textContent()).toBe(WIDE_REASON);
    expect(await image3.locator('img').count()).toBe(0);
    // no preview was even made of it: the page never handed its bytes to a decoder
    const made = await previews();
    expect(made).toEqual(expect.arrayContaining(['small.png', 'small2.png']));
    expect(made.filter((name) => name.includes('wide'))).toEqual([]);
  });

  it('an empty prompt on an image edit is refused at Queue, naming the prompt', async () => {
    const { page } = view;
    const good = await writePicture(rig.filesDir, 'fine.png', 400, 300);
    const image1 = await dropOnSlot(page, 'image1', { path: good });
    expect(await image1.getAttribute('data-status')).toBe('ok');
    const prompt = page.getByRole('tabpanel').getByLabel('Prompt', { exact: true });
    await prompt.fill('');
    // Queue is marked unavailable (aria-disabled) while the prompt is empty, which Playwright
    // will not click; a person can, and pressing it shows the problems.
    await queueButton(page).click({ force: true });
    const error = page
      .getByTestId('field-error')
      .or(page.getByTestId('queue-reason').and(page.locator('.queue-why-bad')));
    await error.first().waitFor();
    const reason = (await error.first().textContent()) ?? '';
    expect(reason).toContain('Write a prompt that describes the edit');
    expect(await prompt.getAttribute('aria-invalid')).toBe('true');
  });

  it('nothing was queued, billed or copied', async () => {
    const queueCalls = view.bridge.calls.filter((c) => c.name === 'tasks.queue');
    expect(queueCalls.every((c) => !c.ok)).toBe(true);
    expect(await rig.tasks()).toEqual([]);
    expect(await rig.ledger()).toEqual([]);
    expect((await rig.call('tasks.count', {})).total).toBe(0);
    // Only the database (and its lock/WAL files) in the library: no input was copied in.
    const files = await filesUnder(rig.libraryDir);
    expect(files.filter((f) => /\.(png|jpe?g|webp|gif)$/i.test(f))).toEqual([]);
  });
});
