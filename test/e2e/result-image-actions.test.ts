/**
 * Keeping going from a saved picture (a face swap's result), in the library detail's actions:
 * Upscale, Remove background and Segment open the From a result tab with the picture in its slot
 * (its thumbnail and title, not a path); Use as face-swap target, Use as face and Multi-face swap
 * open the Face swap tab (one face, or several); Edit (as image1) opens Image edit. Each queues a
 * task whose stored request has the `$output` resolved (the service's URL of the picture, or its
 * library file) and whose parent is the picture; an upscale comes back at the scale asked. The
 * actions are grouped by what they make (Picture tools, Into a video, Into 3D), all inside the
 * detail at 800x600 (pictures at 800x600 and 1920x1080 in both themes in KEEP_GOING_SHOTS_DIR).
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { queueFaceSwap } from './harness/face-swap-task.ts';
import { writePicture } from './harness/local-media.ts';
import { SHOT_SIZES, shootInThemes } from './harness/look-check.ts';
import {
  chooseAction,
  expectResolvedFrom,
  lineageOf,
  openResultDetail,
  queueFromForm,
} from './harness/result-actions.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { dropOnSlot, queueButton, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS_DIR = process.env.KEEP_GOING_SHOTS_DIR ?? '/tmp/keep-going-picture-shots';

/** The slot shows the result by its thumbnail and title. */
async function expectResultInSlot(page: Page, field: string, title: string): Promise<void> {
  const target = slot(page, field);
  expect(await target.getAttribute('data-status')).toBe('ok');
  expect(await target.getByTestId('slot-name').textContent()).toBe(title);
  await expect
    .poll(() =>
      target
        .locator('img.slot-preview')
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    )
    .toBeGreaterThan(0);
  expect(await target.locator('img.slot-preview').getAttribute('src')).not.toContain('/tmp/');
}

/** Queues the open form and checks what the stored task was made from. */
async function queueMadeFrom(
  view: StudioPage,
  rig: StudioRig,
  source: Task,
  expected: { taskType: string; field: string },
): Promise<Task> {
  const call = await queueFromForm(view);
  expect(call.args).toMatchObject({
    taskType: expected.taskType,
    parentId: source.id,
    parentOutput: 0,
    input: { [expected.field]: { $output: { taskId: source.id, index: 0 } } },
  });
  const stored = (await rig.call('tasks.get', { id: (call.value as Task).id }))!;
  expect(lineageOf(stored)).toEqual({ parentId: source.id, parentOutput: 0 });
  expectResolvedFrom(stored, expected.field, source);
  return rig.waitForTask(stored.id, ['saved']);
}

describe.skipIf(!browserAvailable())('keep going from a picture', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let browser: Browser;
  let swap: Task;
  let upscaled: Task | null = null;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        const queued = await queueFaceSwap(
          rig,
          'Pier portrait',
          { name: 'pier.png', width: 320, height: 240, colour: { r: 40, g: 120, b: 190 } },
          { name: 'sailor.png', width: 160, height: 160, colour: { r: 220, g: 170, b: 130 } },
        );
        swap = await rig.waitForTask(queued.id, ['saved']);
      },
    },
    (opened) => {
      ({ rig, view, browser } = opened);
    },
  );

  it("groups a picture's actions by what they make, readable at 800x600; pictures in both themes", async () => {
    const groupsOf = (page: Page) =>
      page
        .getByTestId('result-actions')
        .getByRole('group')
        .evaluateAll((groups) =>
          groups.map((g) => [
            g.querySelector('.result-actions-group-name')?.textContent,
            [...g.querySelectorAll('button')].map((b) => b.textContent),
          ]),
        );
    await mkdir(SHOTS_DIR, { recursive: true });
    for (const size of SHOT_SIZES) {
      await shootInThemes(rig, browser, size, SHOTS_DIR, async (page, at) => {
        const detail = await openResultDetail(page, swap);
        const actions = detail.getByTestId('result-actions');
        const groups = await groupsOf(page);
        expect(groups.map(([name]) => name)).toEqual(['Picture tools', 'Into a video', 'Into 3D']);
        expect(groups[1]?.[1]).toEqual([
          'Video (Hunyuan, more motion)',
          'Video (Hunyuan, close to the picture)',
          'Video (Wanx 14B)',
        ]);
        expect(groups[2]?.[1]).toEqual(['3D model (Trellis)', '3D model (Trellis 2)']);
        await actions.scrollIntoViewIfNeeded();
        await at('keep-going-picture');
        // every button lies inside the detail, none cut off at its side
        const panel = (await detail.boundingBox())!;
        for (const box of await actions.getByRole('button').evaluateAll((buttons) =>
          buttons.map((b) => {
            const r = b.getBoundingClientRect();
            return { left: r.left, right: r.right };
          }),
        )) {
          expect(box.left).toBeGreaterThanOrEqual(panel.x);
          expect(box.right).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
        }
      });
    }
  });

  it('Upscale opens filled in and queues an upscale of the picture, twice as large', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Upscale');
    const panel = page.getByRole('tabpanel');
    expect(await page.getByRole('tab', { name: 'From a result' }).getAttribute('aria-selected')).toBe('true');
    expect(await panel.getByRole('radio', { name: 'Upscale', exact: true }).isChecked()).toBe(true);
    await expectResultInSlot(page, 'source_image', swap.title);
    expect(await panel.getByRole('spinbutton', { name: 'Scale (optional)' }).inputValue()).toBe('2');
    expect(await page.getByTestId('parent-note').textContent()).toBe(`Made from “${swap.title}”`);
    const saved = await queueMadeFrom(view, rig, swap, { taskType: 'upscale', field: 'image' });
    expect(saved.request.input.scale).toBe(2);
    const before = swap.outputs[0]!;
    expect([saved.outputs[0]?.width, saved.outputs[0]?.height]).toEqual([
      before.width! * 2,
      before.height! * 2,
    ]);
    upscaled = saved;
  });

  it("the upscale of a fresh result compares it with the library's copy of the picture, and names it by its thumbnail", async () => {
    const { page } = view;
    const task = upscaled!;
    // made from a result less than an hour old: the picture went as the service's link
    const sent = task.inputs.find((i) => i.field === 'image')!;
    expect(sent.source).toBe('url');
    const detail = await openResultDetail(page, task);
    const beforeImage = detail.getByRole('img', { name: `Before: input of ${task.title}` });
    await beforeImage.waitFor();
    // never the service's link (the page's policy blocks it): the library's own copy, loaded
    const copySrc = await beforeImage.getAttribute('src');
    expect(copySrc).not.toBe(sent.value);
    await expect
      .poll(() => beforeImage.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(swap.outputs[0]!.width);
    // the compare is as tall as the picture, not a strip
    const frame = (await detail.getByTestId('before-after-frame').boundingBox())!;
    expect(frame.height).toBeGreaterThan(100);
    // the parameters show the picture it was made from, not a raw address
    const parameters = detail.getByTestId('task-parameters');
    expect(await parameters.textContent()).not.toContain(sent.value);
    const thumb = parameters.locator('[data-testid="input-thumb"][data-field="image"] img');
    await thumb.scrollIntoViewIfNeeded();
    await expect
      .poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(
      await parameters.locator('[data-testid="input-thumb"][data-field="image"]').textContent(),
    ).toContain(swap.title);
    // the viewer compares with the same copy, at the picture's size (not a grey box)
    await detail.getByRole('button', { name: 'View larger' }).click();
    const viewer = page.getByTestId('lightbox');
    await viewer.getByRole('button', { name: 'Compare with input' }).click();
    const viewerBefore = viewer.getByRole('img', { name: `Before: input of ${task.title}` });
    await viewerBefore.waitFor();
    expect(await viewerBefore.getAttribute('src')).toBe(copySrc);
    await expect
      .poll(() => viewerBefore.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect((await viewer.getByTestId('before-after-frame').boundingBox())!.height).toBeGreaterThan(100);
    await viewer.getByRole('button', { name: 'Close viewer' }).click();
    await viewer.waitFor({ state: 'hidden' });
  });

  it('Remove background opens filled in and queues a background removal of the picture', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Remove background');
    expect(
      await page.getByRole('tabpanel').getByRole('radio', { name: 'Remove background' }).isChecked(),
    ).toBe(true);
    await expectResultInSlot(page, 'source_image', swap.title);
    const saved = await queueMadeFrom(view, rig, swap, { taskType: 'background-remove', field: 'image' });
    expect(saved.outputs[0]?.kind).toBe('image');
  });

  it('Segment asks what to cut out, then queues a segment of the picture', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Segment');
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByRole('radio', { name: 'Segment' }).isChecked()).toBe(true);
    await expectResultInSlot(page, 'source_image', swap.title);
    // without a prompt, Queue shows what is missing and sends nothing
    const queueCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queue').length;
    const before = queueCalls();
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByTestId('queue-reason').textContent()).toBe('Not ready: What to cut out is needed');
    await queueButton(page).click({ force: true });
    // the problem shows beside its field, which has the focus
    const prompt = panel.getByLabel('What to cut out', { exact: false });
    await expect.poll(() => prompt.getAttribute('aria-invalid')).toBe('true');
    expect(
      await prompt.evaluate(
        (el) =>
          el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      ),
    ).toBe(true);
    expect(queueCalls()).toBe(before);
    await prompt.fill('the face');
    const saved = await queueMadeFrom(view, rig, swap, { taskType: 'segment', field: 'image' });
    expect(saved.request.input.prompt).toBe('the face');
  });

  it('Use as face-swap target: a new face dropped on the face slot, queued as a face swap of the picture', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Use as face-swap target');
    expect(await page.getByRole('tab', { name: 'Face swap' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('radio', { name: 'One face' }).isChecked()).toBe(true);
    await expectResultInSlot(page, 'target_image', swap.title);
    const face = await writePicture(rig.filesDir, 'captain.png', 180, 180, { r: 200, g: 150, b: 120 });
    await dropOnSlot(page, 'swap_image', { path: face });
    const saved = await queueMadeFrom(view, rig, swap, { taskType: 'face-swap', field: 'target_image' });
    expect(saved.inputs.find((i) => i.field === 'swap_image')?.width).toBe(180);
  });

  it('Use as face: the picture as the face, onto a target dropped beside it', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Use as face');
    await expectResultInSlot(page, 'swap_image', swap.title);
    const target = await writePicture(rig.filesDir, 'deck.png', 300, 200, { r: 90, g: 90, b: 60 });
    await dropOnSlot(page, 'target_image', { path: target });
    await queueMadeFrom(view, rig, swap, { taskType: 'face-swap', field: 'swap_image' });
  });

  it('Multi-face swap opens the Face swap tab on several faces, priced as one, and queues it', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Multi-face swap');
    expect(await page.getByRole('radio', { name: 'Several faces' }).isChecked()).toBe(true);
    await expectResultInSlot(page, 'target_image', swap.title);
    expect(await page.getByTestId('cost-estimate').textContent()).toContain('$0.015');
    await page.getByLabel('Faces to replace', { exact: false }).fill('0');
    await page.getByLabel('Faces to use', { exact: false }).fill('0');
    const saved = await queueMadeFrom(view, rig, swap, {
      taskType: 'multi-face-swap',
      field: 'target_image',
    });
    expect(saved.request.input).toMatchObject({ target_faces_index: '0', swap_faces_index: '0' });
  });

  it('Edit (as image1) opens Image edit with the picture as image1', async () => {
    const { page } = view;
    await chooseAction(page, swap, 'Edit (as image1)');
    expect(await page.getByRole('tab', { name: 'Image edit' }).getAttribute('aria-selected')).toBe('true');
    await expectResultInSlot(page, 'image1', swap.title);
    await page.getByRole('tabpanel').getByLabel('Prompt', { exact: true }).fill('make image1 a watercolour');
    await queueMadeFrom(view, rig, swap, { taskType: 'image-edit', field: 'image1' });
  });
});
