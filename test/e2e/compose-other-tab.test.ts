/**
 * The Other tab refuses what the service would refuse, from the catalog's rules for the chosen
 * task type, and says what each task costs:
 * - `{"prompt": 42}` and the empty `image` of an example: each key's problem in plain words,
 *   Queue unavailable, nothing sent;
 * - every task type offered has a price, or says it has none and that Queue will ask first; it
 *   does ask, and "Queue anyway" queues with the user's word;
 * - a picture dropped on the type's `image` field goes into the JSON and is checked;
 * - Tab indents in the JSON editor, Shift+Tab outdents, Esc then Tab leaves it.
 */
import { describe, expect, it } from 'vitest';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openComposeTab, queueButton } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

interface PageTextArea {
  value: string;
  selectionStart: number;
  selectionEnd: number;
  setSelectionRange(start: number, end: number): void;
}

function isFocused(view: StudioPage, label: string): Promise<boolean> {
  return view.page
    .getByLabel(label, { exact: true })
    .evaluate(
      (el) =>
        el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
    );
}

describe.skipIf(!browserAvailable())('the Other tab checks its JSON against the catalog', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  const queueCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queue').length;

  it('{"prompt": 42} is refused as the service would, in plain words', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Other');
    const json = panel.getByLabel('Input (JSON)');
    await json.fill('{"prompt": 42}');
    const errors = panel.getByTestId('field-error');
    await errors.first().waitFor();
    expect(await errors.allTextContents()).toEqual(['"prompt" must be text, not a number']);
    expect(await json.getAttribute('aria-invalid')).toBe('true');
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Input: "prompt" must be text, not a number',
    );
    await panel.getByLabel('Model id', { exact: false }).focus();
    await page.keyboard.press('Control+Enter');
    // the caret goes to the key in the JSON
    await expect.poll(() => isFocused(view, 'Input (JSON)')).toBe(true);
    const selected = await json.evaluate((el) => {
      const area = el as unknown as PageTextArea;
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    expect(selected).toBe('prompt');
    expect(queueCalls()).toBe(0);
  });

  it('every task type shows its price, or that it has none and Queue will ask', async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    const models = await panel.getByLabel('Model', { exact: true }).locator('option').allTextContents();
    expect(models.length).toBeGreaterThan(1);
    for (const model of models) {
      await panel.getByLabel('Model', { exact: true }).selectOption(model);
      const options = await panel.getByLabel('Task type').locator('option').allTextContents();
      for (const option of options) expect(option, option).toMatch(/ · (\$[\d.]+ per \w+|price unknown)$/);
    }
    await panel.getByLabel('Model', { exact: true }).selectOption('image-toolkit');
    await panel.getByLabel('Task type').selectOption('upscale');
    expect(await page.getByTestId('other-price').textContent()).toBe(
      'Price unknown: the service publishes none for this task type. Queue will ask you to confirm first.',
    );
    await panel.getByLabel('Task type').selectOption('multi-face-swap');
    expect(await page.getByTestId('other-price').textContent()).toBe('Price: $0.015 per task.');
  });

  it("the example's empty image is refused; a picture dropped on its field fills and checks it", async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Task type').selectOption('upscale');
    const errors = panel.getByTestId('field-error');
    await errors.first().waitFor();
    expect(await errors.allTextContents()).toEqual([
      '"image" is empty: Image upscale needs a picture (drop a file below, or write a URL)',
    ]);
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');

    const picture = await writePicture(rig.filesDir, 'small.png', 320, 240);
    const target = page.locator('[data-testid="json-media-field"][data-key="image"]');
    await dropFiles(page, target, [{ path: picture }]);
    await expect
      .poll(() => target.getByTestId('json-media-check').textContent())
      .toMatch(/^small\.png: Ready/);
    const input = JSON.parse(await panel.getByLabel('Input (JSON)').inputValue());
    expect(input).toEqual({ image: picture, scale: 2, face_enhance: false });
    await errors.first().waitFor({ state: 'detached' });
    expect(await queueButton(page).getAttribute('aria-disabled')).toBeNull();
  });

  it('a task type without a price asks first; "Queue anyway" queues it with the user\'s word', async () => {
    const { page } = view;
    expect(await page.getByTestId('cost-estimate').textContent()).toContain(
      'no published price; Queue asks first',
    );
    await queueButton(page).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('The service publishes no price for Image upscale');
    expect(queueCalls()).toBe(0);
    await confirm.getByRole('button', { name: 'Queue anyway' }).click();
    await expect.poll(() => view.bridge.queuedTasks().length).toBe(1);
    const call = view.bridge.calls.find((c) => c.name === 'tasks.queue')!;
    expect(call.args).toMatchObject({ taskType: 'upscale', acceptUnknownPrice: true });
    await rig.waitForTask(view.bridge.queuedTasks()[0]!.id, ['saved']);
  });

  it('Tab indents and Shift+Tab outdents in the JSON editor; Esc then Tab leaves it', async () => {
    const { page } = view;
    const json = page.getByRole('tabpanel').getByLabel('Input (JSON)');
    await json.fill('{\n"prompt": "a lighthouse"\n}');
    await json.evaluate((el) => (el as unknown as PageTextArea).setSelectionRange(2, 2));
    await page.keyboard.press('Tab');
    expect(await json.inputValue()).toBe('{\n  "prompt": "a lighthouse"\n}');
    expect(await isFocused(view, 'Input (JSON)')).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await json.inputValue()).toBe('{\n"prompt": "a lighthouse"\n}');
    // a selection over several lines indents each of them; undo takes it back in one step
    await json.evaluate((el) => (el as unknown as PageTextArea).setSelectionRange(0, 30));
    await page.keyboard.press('Tab');
    expect(await json.inputValue()).toBe('  {\n  "prompt": "a lighthouse"\n  }');
    await page.keyboard.press('Control+z');
    expect(await json.inputValue()).toBe('{\n"prompt": "a lighthouse"\n}');
    // the keyboard way out
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await isFocused(view, 'Input (JSON)')).toBe(false);
    expect(await json.inputValue()).toBe('{\n"prompt": "a lighthouse"\n}');
  });
});
