/**
 * The Image, Video and 3D tabs (issue 19, item 2), made from the catalog, in demo mode:
 * - a Flux image from text, a Hunyuan video from a dropped picture and a 3D model from a dropped
 *   picture are queued and reach Activity;
 * - re-running a saved Flux image opens the Image tab on Flux, its prompt filled in;
 * - a prompt list (one task per line, alternatives {a|b}) shows its count and total before Queue,
 *   is queued as one batch, and over 100 tasks Queue says why; the Song tab's style prompt lists
 *   too (the lyrics go with each song), and "One task per line" is kept after a restart;
 * - the Video tab offers each model and speed with its price beside it;
 * - a slot's buttons say the kind they take ("Replace video"), whatever the field's label;
 * - an MP4 too large or too long for a video slot is refused on the slot, with the reason;
 * - pictures of each tab at 800x600 and 1920x1080 in both themes (KIND_SHOTS_DIR, default
 *   /tmp/kind-tab-shots).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { generateVideoMp4 } from '../../src/sandbox/media/video-mp4.ts';
import { estimateCost, formatUsd, type Task } from '../../src/shared/index.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import { SHOT_SIZES, shootInThemes } from './harness/look-check.ts';
import { box } from './harness/page-boxes.ts';
import {
  chooseAction,
  expectResolvedFrom,
  lineageOf,
  openResultDetail,
  queueFromForm,
} from './harness/result-actions.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, dropOnSlot, openComposeTab, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS_DIR = process.env.KIND_SHOTS_DIR ?? '/tmp/kind-tab-shots';

async function chooseEntry(page: Page, entryId: string): Promise<void> {
  await page.locator(`.entry-option[data-entry="${entryId}"] input[type="radio"]`).check();
  await page.locator(`[data-testid="kind-tab"][data-entry="${entryId}"]`).waitFor();
}

describe.skipIf(!browserAvailable())('the Image, Video and 3D tabs queue what the catalog lists', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let browser: Browser;
  /** The Hunyuan video the Video test queues (a face is put onto it later). */
  let videoTaskId = '';

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view, browser } = opened);
  });

  /** Queues the tab's form and waits for its task's row in Activity; gives the task. */
  async function queueToActivity(page: Page) {
    const before = view.bridge.queuedTasks().length;
    await queue(page);
    const queued = view.bridge.queuedTasks();
    expect(queued.length).toBe(before + 1);
    const task = queued.at(-1)!;
    await openView(page, 'activity');
    await activityRow(page, task.id).waitFor();
    return task;
  }

  it('Image: a Flux schnell picture from text', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Image');
    await panel.locator('[data-testid="kind-tab"][data-entry="flux1-schnell/txt2img"]').waitFor();
    // at 1280 x 800 the Random seed button stays inside the form (review of issue 22, cosmetic)
    const seed = await box(panel.getByRole('button', { name: 'Random seed' }));
    const form = await box(panel.locator('[data-testid="kind-tab"]'));
    expect(seed.x + seed.width).toBeLessThanOrEqual(form.x + form.width);
    await panel.getByLabel('Prompt', { exact: true }).fill('a red fox in the snow, woodcut');
    const task = await queueToActivity(page);
    expect(task).toMatchObject({ taskType: 'txt2img', entryId: 'flux1-schnell/txt2img' });
    expect(task.request.input).toMatchObject({ prompt: 'a red fox in the snow, woodcut' });
  });

  it('re-running a saved Flux image opens the Image tab on Flux, with its prompt', async () => {
    const { page } = view;
    const flux = view.bridge.queuedTasks().find((t) => t.entryId === 'flux1-schnell/txt2img')!;
    const saved = await rig.waitForTask(flux.id, ['saved']);
    // another tab was left open: the re-run must not open it, nor Other
    await openComposeTab(page, '3D');
    const detail = await openResultDetail(page, saved);
    await detail.getByRole('button', { name: 'Re-run' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Image', exact: true }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const panel = page.getByRole('tabpanel');
    await panel.locator('[data-testid="kind-tab"][data-entry="flux1-schnell/txt2img"]').waitFor();
    expect(await panel.getByLabel('Prompt', { exact: true }).inputValue()).toBe(
      'a red fox in the snow, woodcut',
    );
  });

  it('an exported Flux picture dropped on the composer opens its form filled in, saying where it came from (issue 22, item 2)', async () => {
    const { page } = view;
    const flux = view.bridge.queuedTasks().find((t) => t.entryId === 'flux1-schnell/txt2img')!;
    const saved = await rig.waitForTask(flux.id, ['saved']);
    // exported to the folder the dialog answers (the rig's export folder)
    const exported = await rig.call('tasks.export', { ids: [saved.id] });
    const [done] = exported!.tasks;
    const png = join(done!.folder, done!.files.find((f) => f.endsWith('.png') && !f.startsWith('input-'))!);
    // another tab is open and the prompt says something else: the drop must replace both
    const image = await openComposeTab(page, 'Image');
    await image.getByLabel('Prompt', { exact: true }).fill('something else');
    await openComposeTab(page, '3D');
    await dropFiles(page, page.getByTestId('compose-view'), [{ path: png }]);
    await page
      .locator('[data-testid="toast"]')
      .filter({ hasText: `Filled in from the PNG text chunk of ${png.split('/').pop()}` })
      .waitFor();
    expect(await page.getByRole('tab', { name: 'Image', exact: true }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const panel = page.getByRole('tabpanel');
    await panel.locator('[data-testid="kind-tab"][data-entry="flux1-schnell/txt2img"]').waitFor();
    expect(await panel.getByLabel('Prompt', { exact: true }).inputValue()).toBe(
      'a red fox in the snow, woodcut',
    );
    const recall = view.bridge.calls.find((c) => c.name === 'tasks.recallFile');
    expect(recall?.value).toMatchObject({ origin: 'embedded', task: { id: saved.id }, outputIndex: 0 });
    // the draft it replaced comes back with Undo, as after Clear (review of issue 22, item 1)
    const filled = page
      .getByTestId('toast')
      .filter({ hasText: `Filled in from the PNG text chunk of ${png.split('/').pop()}` })
      .filter({ hasText: 'It replaced what the Image form held: Undo puts that back.' });
    await filled.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => panel.getByLabel('Prompt', { exact: true }).inputValue()).toBe('something else');
  });

  it('prompt lists: one task per line and per alternative, the count and total before Queue, at most 100', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Image');
    await panel.locator('[data-testid="kind-tab"][data-entry="flux1-schnell/txt2img"]').waitFor();
    const prompt = panel.getByLabel('Prompt', { exact: true });
    await prompt.fill('a fox at {dawn|dusk}\n\na heron');
    await panel.getByRole('checkbox', { name: 'One task per line' }).check();
    const each = estimateCost({ model: 'flux1-schnell', task_type: 'txt2img', input: { prompt: 'x' } })
      .micros as number;
    const queueButton = page.getByRole('button', { name: 'Queue 3 tasks' });
    await queueButton.waitFor();
    const cost = page.getByTestId('cost-estimate');
    await expect.poll(() => cost.locator('.cost-amount').textContent()).toBe(formatUsd(3 * each));
    expect(await cost.textContent()).toContain(`(3 x ${formatUsd(each)})`);

    // over the limit: Queue says why and sends nothing
    await prompt.fill(Array.from({ length: 101 }, (_, i) => `a bird no. ${i}`).join('\n'));
    const reason = page.getByTestId('queue-reason');
    const over = (n: number) =>
      `This makes ${n} tasks; at most 100 can be queued at once (use fewer alternatives or lines)`;
    await expect.poll(() => reason.textContent()).toBe(`Not ready: ${over(101)}`);
    // said at the prompt, as a problem (review of issue 22, items 7 and 8), with no one task's price
    expect(await prompt.getAttribute('aria-invalid')).toBe('true');
    expect(await panel.textContent()).toContain(over(101));
    expect(await reason.getAttribute('class')).toContain('queue-why-bad');
    expect(await cost.locator('.cost-amount').textContent()).toBe('—');
    // alternatives over 100 are counted too
    await panel.getByRole('checkbox', { name: 'One task per line' }).uncheck();
    await prompt.fill('{a|b|c|d|e|f|g|h|i|j} {1|2|3|4|5|6|7|8|9|10} {x|y}');
    await expect.poll(() => reason.textContent()).toBe(`Not ready: ${over(200)}`);
    // an open brace in the negative prompt: at that field, naming it
    await prompt.fill('a fox');
    const negative = panel.getByLabel(/^Negative prompt/);
    await negative.fill('{blur|noise');
    await expect.poll(() => negative.getAttribute('aria-invalid')).toBe('true');
    const unclosed = 'The { at character 1 of the negative prompt is not closed';
    expect(await panel.textContent()).toContain(unclosed);
    expect(await reason.textContent()).toContain(`Not ready: ${unclosed}`);
    // the escape it tells of never breaks across lines; with no price, the line says why (issue 22 leftovers, item 3)
    const escaped = panel.locator('[data-testid="field-error"] .unbroken', { hasText: '\\{' });
    const wraps = await escaped.evaluate(
      (e) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string } }).getComputedStyle(
          e,
        ).whiteSpace,
    );
    expect(wraps).toBe('nowrap');
    expect(await cost.getByTestId('cost-none').textContent()).toBe('no price until the list is fixed');
    await negative.fill('');
    await panel.getByRole('checkbox', { name: 'One task per line' }).check();
    await prompt.fill('a fox at {dawn|dusk}\n\na heron');
    const before = view.bridge.calls.length;
    await queueButton.click();
    await page.getByRole('button', { name: 'Queueing…' }).waitFor({ state: 'detached' });
    const batch = view.bridge.calls.slice(before).find((c) => c.name === 'tasks.queueBatch');
    if (!batch?.ok) throw new Error('no batch was queued');
    const { drafts } = batch.args as { drafts: { input: { prompt: string } }[] };
    expect(drafts.map((d) => d.input.prompt)).toEqual(['a fox at dawn', 'a fox at dusk', 'a heron']);
    await panel.getByRole('checkbox', { name: 'One task per line' }).uncheck();
    await prompt.fill('a red fox in the snow, woodcut');
  });

  it('the Song tab lists style prompts (one song per line, the same lyrics each), and "One task per line" is kept after a restart', async () => {
    const { page } = view;
    let panel = await openComposeTab(page, 'Song');
    await panel.getByLabel('Style prompt', { exact: true }).fill('lofi piano\nsurf rock');
    await panel.getByRole('textbox', { name: /^Lyrics/ }).fill('[verse]\none line\ntwo lines');
    await panel.getByLabel('Duration in seconds').fill('3');
    await panel.getByRole('checkbox', { name: 'One task per line' }).check();
    // kept in the saved forms, so the window opened again has it on
    await expect
      .poll(async () => (await rig.call('compose.loadForms', {})).forms?.batch.promptLines?.song)
      .toBe(true);
    await page.reload();
    panel = await openComposeTab(page, 'Song');
    const lines = panel.getByRole('checkbox', { name: 'One task per line' });
    await expect.poll(() => lines.isChecked()).toBe(true);
    const before = view.bridge.calls.length;
    await page.getByRole('button', { name: 'Queue 2 tasks' }).click();
    await page.getByRole('button', { name: 'Queueing…' }).waitFor({ state: 'detached' });
    const batch = view.bridge.calls.slice(before).find((c) => c.name === 'tasks.queueBatch');
    if (!batch?.ok) throw new Error('no batch was queued');
    const { drafts } = batch.args as { drafts: { input: { style_prompt: string; lyrics: string } }[] };
    expect(drafts.map((d) => d.input.style_prompt)).toEqual(['lofi piano', 'surf rock']);
    expect(new Set(drafts.map((d) => d.input.lyrics)).size).toBe(1);
    await lines.uncheck();
  });

  it('Video: each model and speed with its price; a Hunyuan video from a dropped picture', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Video');
    const price = (id: string) =>
      panel.locator(`.entry-option[data-entry="${id}"] [data-testid="entry-price"]`).textContent();
    expect(await price('hunyuan/fast-txt2video')).toBe('$0.03 per task');
    expect(await price('hunyuan/txt2video')).toBe('$0.09 per task');
    expect(await price('wanx/txt2video-1.3b')).toBe('$0.12 per task');
    expect(await price('wanx/txt2video-14b')).toBe('$0.28 per task');
    expect(await price('video-toolkit/face-swap')).toBe('price not published: asked first');

    await chooseEntry(page, 'hunyuan/img2video-concat');
    const picture = await writePicture(rig.filesDir, 'harbour.png', 480, 320, { r: 40, g: 120, b: 190 });
    const slot = await dropOnSlot(page, 'video_picture', { path: picture });
    expect(await slot.getAttribute('data-status')).toBe('ok');
    await panel.getByLabel('Prompt', { exact: true }).fill('the boats rock gently');
    const task = await queueToActivity(page);
    expect(task).toMatchObject({ taskType: 'img2video-concat', entryId: 'hunyuan/img2video-concat' });
    expect(task.request.input).toMatchObject({ prompt: 'the boats rock gently' });
    expect(task.inputs.map((i) => [i.field, i.source])).toEqual([['image', 'file']]);
    videoTaskId = task.id;
  });

  it('keeps going from a saved video: a face onto it, made from it (its parent recorded)', async () => {
    const { page } = view;
    const video = await rig.waitForTask(videoTaskId, ['saved']);
    expect(video.outputs[0]?.kind).toBe('video');
    await chooseAction(page, video, 'Swap a face into the video');
    const panel = page.getByRole('tabpanel');
    expect(await page.getByRole('tab', { name: 'Video' }).getAttribute('aria-selected')).toBe('true');
    await panel.locator('[data-testid="kind-tab"][data-entry="video-toolkit/face-swap"]').waitFor();
    const target = page.locator('[data-testid="media-slot"][data-field="video_source"]');
    expect(await target.getAttribute('data-status')).toBe('ok');
    expect(await target.getByTestId('slot-name').textContent()).toBe(video.title);
    // the slot's buttons say the kind of what they take, not the field's label ("The video")
    expect(await target.getByRole('button', { name: 'Replace video', exact: true }).count()).toBe(1);
    expect(await target.getByRole('button', { name: 'Remove video', exact: true }).count()).toBe(1);
    const face = await writePicture(rig.filesDir, 'face.png', 200, 240, { r: 210, g: 160, b: 120 });
    const faceSlot = await dropOnSlot(page, 'video_picture', { path: face });
    expect(await faceSlot.getByRole('button', { name: 'Replace picture', exact: true }).count()).toBe(1);
    // no published price: Queue asks first
    const call = await queueFromForm(view);
    const task = call.value as Task;
    expect(task).toMatchObject({ entryId: 'video-toolkit/face-swap' });
    expect(lineageOf(task)).toEqual({ parentId: video.id, parentOutput: 0 });
    expectResolvedFrom(task, 'target_video', video);
  });

  it('3D: a Trellis model from a dropped picture', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, '3D');
    // the tab opens on its first entry, From text (review s7b, defect 9): a picture is the second group's
    await panel.locator('[data-testid="kind-tab"][data-entry="trellis/text-to-3d"]').waitFor();
    await panel.locator('label.entry-option[data-entry="trellis/image-to-3d"]').click();
    await panel.locator('[data-testid="kind-tab"][data-entry="trellis/image-to-3d"]').waitFor();
    const empty = page.locator('[data-testid="media-slot"][data-field="model3d_picture"]');
    expect(await empty.getByRole('button', { name: 'Choose a picture…', exact: true }).count()).toBe(1);
    const picture = await writePicture(rig.filesDir, 'teapot.png', 512, 512, { r: 200, g: 150, b: 60 });
    await dropOnSlot(page, 'model3d_picture', { path: picture });
    const task = await queueToActivity(page);
    expect(task).toMatchObject({ taskType: 'image-to-3d', entryId: 'trellis/image-to-3d' });
    expect(task.inputs.map((i) => [i.field, i.source])).toEqual([['image', 'file']]);
  });

  it('a video slot refuses an MP4 too large or too long at once, saying why on the slot', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Video');
    await chooseEntry(page, 'video-toolkit/face-swap');
    // 480 x 272 I_PCM frames are about 200 KB each: 60 of them are over 10 MB
    const large = join(rig.filesDir, 'large.mp4');
    await writeFile(large, generateVideoMp4({ prompt: 'waves', seconds: 6, width: 480, height: 272 }));
    let slot = await dropOnSlot(page, 'video_source', { path: large });
    expect(await slot.getAttribute('data-status')).toBe('bad');
    expect(await slot.getByTestId('slot-reason').textContent()).toMatch(/10 MB/);
    // 720 frames of 16 x 16: small, but longer than the 600 frames a video may have
    const long = join(rig.filesDir, 'long.mp4');
    await writeFile(long, generateVideoMp4({ prompt: 'waves', seconds: 12, width: 16, height: 16, fps: 60 }));
    slot = await dropOnSlot(page, 'video_source', { path: long });
    expect(await slot.getAttribute('data-status')).toBe('bad');
    expect(await slot.getByTestId('slot-reason').textContent()).toMatch(/720 frames/);
    expect(await panel.getByTestId('entry-description').textContent()).toContain('Video face swap');
  });

  it('looks right at 800x600 and 1920x1080 in both themes', async () => {
    await mkdir(SHOTS_DIR, { recursive: true });
    for (const size of SHOT_SIZES) {
      await shootInThemes(rig, browser, size, SHOTS_DIR, async (page, at) => {
        for (const [tab, name] of [
          ['Image', 'image'],
          ['Video', 'video'],
          ['3D', 'model3d'],
        ] as const) {
          await openComposeTab(page, tab);
          await page.locator('[data-testid="kind-tab"]').waitFor();
          await at(`compose-${name}`);
        }
      });
    }
  });
});
