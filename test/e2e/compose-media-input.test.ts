/**
 * Pictures into the composer's slots in the other ways people add them:
 * - two pictures dropped on a face swap's target fill the target and the face; dropped again
 *   while the face is taken, the second is left out and a notice says why;
 * - a picture copied to the clipboard and pasted (Ctrl+V) while a slot has focus fills it;
 * - a web address: the slot says the service fetches it (no preview: the app's content
 *   security policy keeps remote pictures out, and nothing is downloaded).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openComposeTab, queueButton, slot, useUrlOnSlot, waitForSlotChecked } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('pictures dropped together, pasted, or given by address', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('two pictures dropped on the face swap target fill the target and the face', async () => {
    const { page } = view;
    const [beach, face] = await Promise.all([
      writePicture(rig.filesDir, 'beach.png', 640, 480),
      writePicture(rig.filesDir, 'face.jpg', 300, 360, { r: 200, g: 90, b: 60 }),
    ]);
    await openComposeTab(page, 'Face swap');
    await dropFiles(page, slot(page, 'target_image').getByTestId('drop-zone'), [
      { path: beach },
      { path: face },
    ]);
    for (const [field, name] of [
      ['target_image', 'beach.png'],
      ['swap_image', 'face.jpg'],
    ] as const) {
      await waitForSlotChecked(slot(page, field));
      expect(await slot(page, field).getAttribute('data-status'), field).toBe('ok');
      expect(await slot(page, field).getByTestId('slot-name').textContent()).toBe(name);
    }
    expect(await queueButton(page).getAttribute('aria-disabled')).toBeNull();
  });

  it('dropped again while the face is taken: the target is replaced, the other picture left out with the reason', async () => {
    const { page } = view;
    const [street, other] = await Promise.all([
      writePicture(rig.filesDir, 'street.png', 500, 400),
      writePicture(rig.filesDir, 'other.png', 200, 200),
    ]);
    await dropFiles(page, slot(page, 'target_image').getByTestId('drop-zone'), [
      { path: street },
      { path: other },
    ]);
    const notice = page.getByTestId('toast').filter({ hasText: 'was not used' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      '"other.png" was not used: Face image already holds an input. Drop it there to replace it.',
    );
    await expect
      .poll(() => slot(page, 'target_image').getByTestId('slot-name').textContent())
      .toBe('street.png');
    expect(await slot(page, 'swap_image').getByTestId('slot-name').textContent()).toBe('face.jpg');
  });

  it('a picture pasted from the clipboard (Ctrl+V) fills the slot that has focus', async () => {
    const { page, context } = view;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.server.url });
    const picture = await writePicture(rig.filesDir, 'copied.png', 256, 192, { r: 20, g: 160, b: 90 });
    const base64 = (await readFile(picture)).toString('base64');
    const panel = await openComposeTab(page, 'Image edit');
    // the copy: a PNG on the system clipboard, as an image editor or a screenshot tool puts it
    await page.evaluate(async (data) => {
      const win = globalThis as unknown as {
        navigator: { clipboard: { write(items: unknown[]): Promise<void> } };
        ClipboardItem: new (items: Record<string, unknown>) => unknown;
        Blob: new (parts: unknown[], options: { type: string }) => unknown;
      };
      const binary = atob(data);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const blob = new win.Blob([bytes], { type: 'image/png' });
      await win.navigator.clipboard.write([new win.ClipboardItem({ 'image/png': blob })]);
    }, base64);
    await panel.getByRole('button', { name: 'Browse for image2' }).focus();
    await page.keyboard.press('Control+v');
    const image2 = slot(page, 'image2');
    await waitForSlotChecked(image2);
    expect(await image2.getAttribute('data-status')).toBe('ok');
    expect(await image2.getByTestId('slot-reason').textContent()).toContain('256 x 192 px');
    // only the focused slot took it
    expect(await slot(page, 'image1').getAttribute('data-status')).toBe('empty');
  });

  it('a web address: the slot says the service fetches it, and shows no preview', async () => {
    const { page } = view;
    const target = await useUrlOnSlot(page, 'image1', 'image1', 'https://images.example.com/room.png');
    expect(await target.getAttribute('data-status')).toBe('ok');
    const note = target.getByTestId('slot-url-note');
    expect(await note.textContent()).toContain('The service fetches this picture from the web address');
    expect(await target.locator('img').count()).toBe(0);
    // before any address is used, the box says it too (to screen readers, through its description)
    const box = slot(page, 'image3').getByLabel('image3 URL');
    const describedBy = (await box.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(
      'The service fetches a web address',
    );
  });
});
