/**
 * Clear on the Face swap tab empties the form but keeps its mode: a user who chose "Several
 * faces", typed face numbers and dropped pictures, then pressed Clear, finds the pictures and the
 * face numbers emptied back to their defaults and "Several faces" still chosen. Clear offers
 * Undo, which puts the whole form back; and every tab's draft is there again when the window is
 * closed and opened anew (issue 17, item 12).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../support/wait-until.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage } from './harness/studio-rig.ts';
import { openApp, openStudio, type StudioSession } from './harness/studio-session.ts';
import { dropOnSlot, fillSong, openComposeTab, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('Clear on the composer, and its drafts', () => {
  let view: StudioPage;
  let session: StudioSession;
  let face: string;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        face = await writePicture(rig.filesDir, 'two-faces.png', 320, 240, { r: 200, g: 150, b: 110 });
      },
    },
    (opened) => {
      ({ view } = opened);
      session = opened;
    },
  );

  it('empties the pictures and face numbers and keeps "Several faces"', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Face swap');
    const modes = page.getByTestId('face-swap-mode');
    const several = modes.getByRole('radio', { name: 'Several faces' });
    await several.check();
    const replace = panel.getByLabel('Faces to replace', { exact: true });
    await replace.fill('0,1');
    await dropOnSlot(page, 'swap_image', { path: face });
    await expect
      .poll(() => slot(page, 'swap_image').locator('img').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Clear', exact: true }).click();

    await expect.poll(() => slot(page, 'swap_image').locator('img').count()).toBe(0);
    expect(await several.isChecked()).toBe(true);
    expect(await modes.getByRole('radio', { name: 'One face' }).isChecked()).toBe(false);
    expect(await replace.inputValue()).toBe('0');
  });
  it('Clear offers Undo, which puts the whole form back, pictures and all', async () => {
    const { page } = view;
    await fillSong(page, { style: 'rain on a tin roof', lyrics: '[verse]\nwords I will not type twice' });
    await page.getByLabel(/^Title/).fill('Tin roof');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    expect(await page.getByLabel('Style prompt', { exact: true }).inputValue()).toBe('');
    const toast = page.getByTestId('toast').filter({ hasText: 'Cleared the Song form' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    expect(await page.getByLabel('Style prompt', { exact: true }).inputValue()).toBe('rain on a tin roof');
    expect(await page.getByLabel('Lyrics', { exact: false }).first().inputValue()).toBe(
      '[verse]\nwords I will not type twice',
    );
    expect(await page.getByLabel(/^Title/).inputValue()).toBe('Tin roof');

    await openComposeTab(page, 'Face swap');
    await dropOnSlot(page, 'swap_image', { path: face });
    await expect.poll(() => slot(page, 'swap_image').locator('img').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(() => slot(page, 'swap_image').locator('img').count()).toBe(0);
    await page
      .getByTestId('toast')
      .filter({ hasText: 'Cleared the Face swap form' })
      .getByRole('button', { name: 'Undo' })
      .click();
    // the picture is back with its preview (kept for the Undo)
    await expect
      .poll(() =>
        slot(page, 'swap_image')
          .locator('img')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
  });

  it("every tab's draft is saved as the user types and is there when the window opens again", async () => {
    const file = join(session.rig.userDataDir, 'composer-forms.json');
    // saved without pressing anything: the words and the picture are on disk
    await waitUntil(async () => {
      const text = await readFile(file, 'utf8').catch(() => '');
      return text.includes('words I will not type twice') && text.includes('two-faces.png');
    }, 'the draft to be saved');
    await view.close();
    view = await openApp(session);
    const { page } = view;
    await openComposeTab(page, 'Song');
    await expect
      .poll(() => page.getByLabel('Style prompt', { exact: true }).inputValue())
      .toBe('rain on a tin roof');
    expect(await page.getByLabel('Lyrics', { exact: false }).first().inputValue()).toBe(
      '[verse]\nwords I will not type twice',
    );
    await openComposeTab(page, 'Face swap');
    // the dropped file is named again (this run of the app still has it) and checked anew
    await expect.poll(() => slot(page, 'swap_image').textContent()).toContain('320 x 240 px');
    expect(await slot(page, 'swap_image').textContent()).toContain('two-faces.png');
  });
});
