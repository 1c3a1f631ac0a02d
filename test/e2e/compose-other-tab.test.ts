/**
 * The Other tab refuses what the service would refuse, from the catalog's rules for the chosen
 * task type, and says what each task costs:
 * - `{"prompt": 42}` and the empty `image` of an example: each key's problem in plain words,
 *   Queue unavailable, nothing sent;
 * - every task type offered has a price, or says it has none and that Queue will ask first; it
 *   does ask, and "Queue anyway" queues with the user's word;
 * - a picture dropped on the type's `image` field goes into the JSON and is checked;
 * - Tab indents in the JSON editor, Shift+Tab outdents, Esc then Tab leaves it;
 * - the catalog contract's browser pass: every entry with a generated form (the Other tab's, the
 *   Image, Video and 3D tabs') renders its fields in the catalog's words, with its price and
 *   (Other) "Edit as JSON"; the list comes from the catalog, so a new entry needs no new test;
 * - the hand-made Song and Face swap forms say the catalog's words for each of their fields.
 */
import type { Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { formFields } from '../../src/renderer/src/features/compose/catalog-form/form-fields.ts';
import { entryById, type FieldRule, TASK_TYPES } from '../../src/shared/index.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openComposeTab, openView, queueButton } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

interface PageTextArea {
  value: string;
  selectionStart: number;
  selectionEnd: number;
  setSelectionRange(start: number, end: number): void;
}

/** The text of an element with its white space made single (labels and hints span several nodes). */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ');
}

/**
 * Each field the entry's generated form shows is in `form`'s text with its label, and its help
 * (a field's message takes its help's place while the field has a problem: a required picture
 * not given yet, once a Queue was tried in this tab).
 */
async function expectFieldWords(form: Locator, entryId: string): Promise<void> {
  const entry = entryById(entryId);
  expect(entry, entryId).toBeDefined();
  const text = await textOf(form);
  const errors = (await form.getByTestId('field-error').allTextContents()).length;
  for (const { name, rule } of formFields(entry!)) {
    expect(text, `${entryId}: ${name}'s label`).toContain(rule.label);
    if (rule.help && !text.includes(rule.help)) {
      expect(errors, `${entryId}: ${name}'s help, or a message in its place`).toBeGreaterThan(0);
    }
  }
}

/** The catalog's words of a hand-made form's field are on its page: the label names a control, the help shows. */
async function expectHandMadeWords(page: Page, rule: FieldRule, name: string): Promise<void> {
  const panel = page.getByRole('tabpanel');
  const labelled = panel.getByLabel(rule.label, { exact: false });
  expect(await labelled.count(), `${name}: a control named ${rule.label}`).toBeGreaterThan(0);
  if (rule.help) expect(await textOf(panel), `${name}'s help`).toContain(rule.help);
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
    // the tab opens on the entry's form; its JSON editor is one click away
    await panel.getByRole('button', { name: 'Edit as JSON' }).click();
    const json = panel.getByLabel('Input (JSON)');
    await json.fill('{"prompt": 42}');
    const errors = panel.getByTestId('field-error');
    await errors.first().waitFor();
    // a key the catalog knows: the engine's words (what create raw prints), the key first
    expect(await errors.allTextContents()).toEqual(['prompt: Prompt must be text']);
    expect(await json.getAttribute('aria-invalid')).toBe('true');
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: prompt: Prompt must be text',
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
      const typeSelect = panel.getByLabel('Task type');
      const chosen = await typeSelect.evaluate((el) => {
        const select = el as unknown as { selectedIndex: number };
        return select.selectedIndex;
      });
      const options = await typeSelect.locator('option').allTextContents();
      // the chosen type is priced for the form's input (its example gives a size); another
      // type priced by the output's size can only say its least, as its size is not known yet
      options.forEach((option, i) => {
        if (i === chosen) expect(option, option).toMatch(/ · (\$[\d.]+ per \w+|price unknown)$/);
        else expect(option, option).toMatch(/ · ((from )?\$[\d.]+ per \w+|price unknown)$/);
      });
    }
    // Z-image is priced by the picture's size: the tier of the size in the input, or its least without one
    await panel.getByLabel('Model', { exact: true }).selectOption('z-image');
    const zImage = () => panel.getByLabel('Task type').locator('option:checked').textContent();
    expect(await zImage()).toBe('Image from text (Z-image) (txt2img) · $0.004 per image');
    expect(await page.getByTestId('other-price').textContent()).toBe('Price: $0.004 per image.');
    const json = panel.getByLabel('Input (JSON)');
    await json.fill('{"prompt": "a lighthouse", "width": 1536, "height": 1536}');
    await expect.poll(() => page.getByTestId('other-price').textContent()).toBe('Price: $0.008 per image.');
    expect(await zImage()).toBe('Image from text (Z-image) (txt2img) · $0.008 per image');
    await json.fill('{"prompt": "a lighthouse"}');
    await expect
      .poll(() => page.getByTestId('other-price').textContent())
      .toBe('Price: from $0.002 per image.');
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
    expect(await errors.allTextContents()).toEqual(['image: Add the picture to upscale']);
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

  it('"Don\'t ask again for this task type": kept in the settings, the next one queues without asking', async () => {
    const { page } = view;
    const queued = () => view.bridge.queuedTasks().length;
    const before = queued();
    await queueButton(page).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    await confirm.getByRole('checkbox', { name: 'Don’t ask again for Image upscale' }).check();
    await confirm.getByRole('button', { name: 'Queue anyway' }).click();
    await expect.poll(queued).toBe(before + 1);
    const first = view.bridge.queuedTasks().at(-1)!;
    expect(first.entryId).toBe('image-toolkit/upscale');
    await expect
      .poll(async () => (await rig.call('settings.get', {})).unknownPriceAccepted)
      .toEqual(['image-toolkit/upscale']);
    // the next one: no question, queued with the word given once
    await queueButton(page).click();
    await expect.poll(queued).toBe(before + 2);
    expect(await confirm.count()).toBe(0);
    const calls = view.bridge.calls.filter((c) => c.name === 'tasks.queue');
    expect(calls.at(-1)?.args).toMatchObject({ taskType: 'upscale', acceptUnknownPrice: true });
    await Promise.all(
      view.bridge
        .queuedTasks()
        .slice(-2)
        .map((t) => rig.waitForTask(t.id, ['saved'])),
    );
    // Settings lists it, and "Ask again" takes the word back
    await openView(page, 'settings');
    const types = page.getByTestId('unknown-price-types');
    expect(await types.textContent()).toContain('Image upscale');
    await types.getByRole('button', { name: 'Ask again before queueing Image upscale' }).click();
    await types.waitFor({ state: 'detached' });
    expect((await rig.call('settings.get', {})).unknownPriceAccepted).toEqual([]);
    await openComposeTab(page, 'Other');
  });

  it("Flux's generated form: the catalog's words, a live check, the price, and Edit as JSON with the same values", async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('button', { name: 'Edit as form' }).click();
    await panel.getByLabel('Model', { exact: true }).selectOption('flux1-schnell');
    const form = panel.locator('[data-testid="catalog-form"][data-entry="flux1-schnell/txt2img"]');
    await form.waitFor();
    expect(await panel.getByLabel('Prompt', { exact: true }).inputValue()).toBe(
      'a lighthouse at dusk, watercolour',
    );
    const guidance = panel.getByLabel('Guidance (optional)');
    await guidance.fill('9');
    const errors = panel.getByTestId('field-error');
    await errors.first().waitFor();
    expect(await errors.allTextContents()).toEqual(['Guidance must be from 1.5 to 5']);
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Guidance must be from 1.5 to 5',
    );
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');
    await guidance.fill('3.5');
    await errors.first().waitFor({ state: 'detached' });
    await panel.getByLabel('Pictures (optional)').selectOption({ label: '3 pictures' });
    await expect.poll(() => page.getByTestId('cost-estimate').textContent()).toContain('$0.0045');
    await panel.getByLabel('Size (optional)').selectOption({ label: 'Wide 16:9 · 1344 x 768' });
    await panel.getByRole('button', { name: 'Random seed' }).click();
    const seed = Number(await panel.getByLabel('Seed (optional)').inputValue());
    expect(Number.isInteger(seed)).toBe(true);

    await panel.getByRole('button', { name: 'Edit as JSON' }).click();
    expect(JSON.parse(await panel.getByLabel('Input (JSON)').inputValue())).toEqual({
      prompt: 'a lighthouse at dusk, watercolour',
      width: 1344,
      height: 768,
      batch_size: 3,
      guidance_scale: 3.5,
      seed,
    });
    await panel.getByRole('button', { name: 'Edit as form' }).click();
    expect(await panel.getByLabel('Size (optional)').inputValue()).not.toBe('custom');
  });

  it("video upscale's generated form: its video field in words, a web address taken, its price per frame", async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    const queuedBefore = queueCalls();
    await panel.getByLabel('Model', { exact: true }).selectOption('video-toolkit');
    await panel.locator('[data-testid="catalog-form"][data-entry="video-toolkit/upscale"]').waitFor();
    expect(await page.getByTestId('other-price').textContent()).toBe('Price: $0.0003 per frame.');
    // nothing said of the empty video before a Queue attempt; then it is named and focused
    expect(await page.getByTestId('queue-reason').textContent()).toBe('Not ready: Add the video to upscale');
    await panel.getByLabel('Model id', { exact: false }).focus();
    await page.keyboard.press('Control+Enter');
    const errors = panel.getByTestId('field-error');
    await errors.first().waitFor();
    expect(await errors.allTextContents()).toEqual(['Add the video to upscale']);
    await expect.poll(() => isFocused(view, 'The video')).toBe(true);
    await panel.getByLabel('The video', { exact: true }).fill('https://example.test/clip.mp4');
    await errors.first().waitFor({ state: 'detached' });
    expect(await queueButton(page).getAttribute('aria-disabled')).toBeNull();
    // nothing queued by this test (the earlier ones queued theirs)
    expect(queueCalls()).toBe(queuedBefore);
    await panel.getByRole('button', { name: 'Edit as JSON' }).click();
    expect(JSON.parse(await panel.getByLabel('Input (JSON)').inputValue())).toEqual({
      video: 'https://example.test/clip.mp4',
    });
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

  it("every entry with a generated form renders its fields in the catalog's words, its price and Edit as JSON", async () => {
    const { page } = view;
    const started = Date.now();
    const shown = new Set<string>();
    const panel = await openComposeTab(page, 'Other');
    const backToForm = panel.getByRole('button', { name: 'Edit as form' });
    if (await backToForm.isVisible()) await backToForm.click();
    const modelSelect = panel.getByLabel('Model', { exact: true });
    const typeSelect = panel.getByLabel('Task type');
    const valuesOf = (select: Locator) =>
      select
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    for (const model of await valuesOf(modelSelect)) {
      await modelSelect.selectOption(model);
      for (const taskType of await valuesOf(typeSelect)) {
        await typeSelect.selectOption(taskType);
        const form = panel.locator('[data-testid="catalog-form"][data-entry]');
        await expect.poll(() => form.getAttribute('data-entry')).toMatch(new RegExp(`/${taskType}$`));
        const id = (await form.getAttribute('data-entry')) as string;
        await expectFieldWords(form, id);
        expect(await page.getByTestId('other-price').textContent(), id).toMatch(/^Price( unknown)?: /);
        expect(await panel.getByRole('button', { name: 'Edit as JSON' }).isVisible(), id).toBe(true);
        shown.add(id);
      }
    }
    for (const tab of ['Image', 'Video', '3D'] as const) {
      const kindPanel = await openComposeTab(page, tab);
      const ids = await kindPanel
        .locator('.entry-option[data-entry]')
        .evaluateAll((options) =>
          options.map((o) => (o as unknown as { dataset: { entry: string } }).dataset.entry),
        );
      expect(ids.length, tab).toBeGreaterThan(0);
      for (const id of ids) {
        await kindPanel.locator(`.entry-option[data-entry="${id}"] input[type="radio"]`).check();
        const form = kindPanel.locator(`[data-testid="kind-tab"][data-entry="${id}"]`);
        await form.waitFor();
        await expectFieldWords(form.locator('[data-testid="catalog-form"]'), id);
        const price = await kindPanel.locator(
          `.entry-option[data-entry="${id}"] [data-testid="entry-price"]`,
        );
        expect(await price.textContent(), id).toMatch(/\$[\d.]+ per \w+|price not published/);
        expect(await page.getByTestId('cost-estimate').isVisible(), id).toBe(true);
        shown.add(id);
      }
    }
    // every entry without a hand-made form was shown: one more in the catalog is one more here
    const generated = TASK_TYPES.filter((e) => e.family === 'other').map((e) => e.id);
    expect([...shown].sort()).toEqual([...generated].sort());
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("the hand-made Song and Face swap forms say the catalog's words for each field", async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    const song = entryById('ace-step/txt2audio')!;
    for (const name of ['style_prompt', 'negative_prompt', 'lyrics', 'duration', 'style_audio']) {
      await expectHandMadeWords(page, song.input.fields[name]!, name);
    }
    const panel = await openComposeTab(page, 'Face swap');
    const one = entryById('image-toolkit/face-swap')!;
    for (const name of ['target_image', 'swap_image'])
      await expectHandMadeWords(page, one.input.fields[name]!, name);
    await panel.getByRole('radio', { name: 'Several faces' }).check();
    const several = entryById('image-toolkit/multi-face-swap')!;
    for (const name of ['target_image', 'swap_image', 'target_faces_index', 'swap_faces_index']) {
      await expectHandMadeWords(page, several.input.fields[name]!, name);
    }
    await panel.getByRole('radio', { name: 'One face' }).check();
  });

  it('at 1280 x 800 the Model and Task type selects show every choice whole, inside the form', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Other');
    await page.setViewportSize({ width: 1280, height: 800 });
    const modelSelect = panel.getByLabel('Model', { exact: true });
    const typeSelect = panel.getByLabel('Task type');
    /** What of the chosen option's text does not fit: its pixels beyond the select's text box. */
    const overflow = (select: typeof typeSelect) =>
      select.evaluate((el) => {
        const sel = el as unknown as {
          options: ArrayLike<{ text: string }>;
          selectedIndex: number;
          clientWidth: number;
          getBoundingClientRect(): { x: number; width: number };
        };
        const style = (
          globalThis as unknown as {
            getComputedStyle(e: unknown): { font: string; paddingLeft: string; paddingRight: string };
          }
        ).getComputedStyle(el);
        const canvas = (
          globalThis as unknown as {
            document: {
              createElement(t: 'canvas'): {
                getContext(c: '2d'): { font: string; measureText(t: string): { width: number } };
              };
            };
          }
        ).document.createElement('canvas');
        const context = canvas.getContext('2d');
        context.font = style.font;
        const text = sel.options[sel.selectedIndex]?.text ?? '';
        // the drop-down arrow takes about 20 px of the right padding's side
        const room =
          sel.clientWidth -
          Number.parseFloat(style.paddingLeft) -
          Math.max(20, Number.parseFloat(style.paddingRight));
        return { text, over: Math.ceil(context.measureText(text).width - room) };
      });
    const panelBox = await panel.boundingBox();
    const cut: string[] = [];
    for (const model of await modelSelect.locator('option').allTextContents()) {
      await modelSelect.selectOption(model);
      const shownModel = await overflow(modelSelect);
      if (shownModel.over > 0) cut.push(`${shownModel.text}: ${shownModel.over} px`);
      for (const type of await typeSelect
        .locator('option')
        .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))) {
        await typeSelect.selectOption(type);
        const shown = await overflow(typeSelect);
        if (shown.over > 0) cut.push(`${shown.text}: ${shown.over} px`);
      }
    }
    expect(cut).toEqual([]);
    const selectBox = await typeSelect.boundingBox();
    expect(selectBox!.x + selectBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
  });
});
