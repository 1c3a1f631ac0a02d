/**
 * Clear on the Face swap tab empties the form but keeps its mode: a user who chose "Several
 * faces", typed face numbers and dropped pictures, then pressed Clear, finds the pictures and the
 * face numbers emptied back to their defaults and "Several faces" still chosen.
 */
import { describe, expect, it } from 'vitest';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { dropOnSlot, openComposeTab, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('Clear on the Face swap tab', () => {
  let view: StudioPage;
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
    },
  );

  it('empties the pictures and face numbers and keeps "Several faces"', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Face swap');
    const modes = page.getByTestId('face-swap-mode');
    const several = modes.getByRole('radio', { name: 'Several faces' });
    await several.check();
    const replace = panel.getByLabel('Faces to replace (in the target image)');
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
});
