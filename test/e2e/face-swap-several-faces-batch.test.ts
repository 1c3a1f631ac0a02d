/**
 * A face swap batch made in "Several faces" mode, over the real backend and sandbox: the user
 * opens Face swap, picks "Several faces", types the face numbers (a malformed one is refused in
 * plain words and nothing is sent), drops the face photo and four target photos; the targets are
 * listed under a heading that says each gets the chosen faces (not "the same face"), the price shown is 4 x the multi-face swap's (and follows the mode back and forth),
 * Queue sends one `tasks.queueBatch` of four multi-face swaps, each stored with the face numbers
 * typed, all of one batch, and Activity shows them as one group that ends "4 of 4 done".
 */
import { describe, expect, it } from 'vitest';
import { batchCostText } from '../../src/renderer/src/model/money-text.ts';
import { batchCostOf, estimateCost, formatUsd, type Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { dropOnSlot, openComposeTab, openView, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const TARGETS = 4;

describe.skipIf(!browserAvailable())('a face swap batch with several faces', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let face: string;
  let photos: string[];

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        face = await writePicture(rig.filesDir, 'two-faces.png', 320, 240, { r: 200, g: 150, b: 110 });
        photos = await Promise.all(
          Array.from({ length: TARGETS }, (_, i) =>
            writePicture(rig.filesDir, `group-${i + 1}.png`, 360 + i * 16, 260, { r: 40 * i, g: 90, b: 160 }),
          ),
        );
      },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('four targets with face numbers set: four multi-face swaps of one batch, each with those numbers', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Face swap');
    const modes = page.getByTestId('face-swap-mode');
    await modes.getByRole('radio', { name: 'Several faces' }).check();
    const replace = panel.getByLabel('Faces to replace', { exact: true });
    const use = panel.getByLabel('Faces to use', { exact: true });
    await replace.waitFor();
    // the target slot says a batch is possible in this mode too
    await expect
      .poll(() => slot(page, 'target_image').locator('.slot-description').textContent())
      .toContain('or more for a batch');

    await dropOnSlot(page, 'swap_image', { path: face });
    await dropFiles(
      page,
      slot(page, 'target_image').getByTestId('drop-zone'),
      photos.map((path) => ({ path })),
    );
    const list = page.getByTestId('batch-targets');
    await expect
      .poll(() => list.locator('[data-testid="batch-target"][data-status="ok"]').count(), { timeout: 20_000 })
      .toBe(TARGETS);
    // the list says what each target gets: the chosen faces, not one face
    const heading = list.getByRole('heading');
    expect(await heading.textContent()).toBe(
      `${TARGETS} targets: one swap of the chosen faces each, from the same face image`,
    );

    // a malformed face number: said in plain words, Queue sends nothing
    await replace.fill('0;1');
    await use.fill('1, 0');
    const reason = page.getByTestId('queue-reason');
    await expect
      .poll(() => reason.textContent())
      .toContain('Faces to replace: face numbers separated by commas, such as 0 or 0,1');
    const before = view.bridge.calls.length;
    // the form cannot be planned: the button says only "Queue" and is marked unavailable
    const queue = page.getByRole('button', { name: 'Queue', exact: true });
    expect(await queue.getAttribute('aria-disabled')).toBe('true');
    await queue.click({ force: true });
    expect(await replace.getAttribute('aria-invalid')).toBe('true');
    expect(view.bridge.calls.slice(before).filter((c) => c.name.startsWith('tasks.queue'))).toEqual([]);
    await replace.fill('0, 1');

    // the whole batch's price, at the multi-face swap's price; One face shows the face swap's
    const price = (taskType: string) =>
      estimateCost({
        model: 'image-toolkit',
        task_type: taskType,
        input: { target_image: photos[0], swap_image: face },
      }).micros!;
    const several = price('multi-face-swap');
    const one = price('face-swap');
    expect(several).not.toBe(one);
    const cost = page.getByTestId('cost-estimate');
    await expect.poll(() => cost.textContent()).toContain(formatUsd(several * TARGETS));
    expect(await cost.textContent()).toContain(`${TARGETS} x ${formatUsd(several)}`);
    await modes.getByRole('radio', { name: 'One face' }).check();
    await expect.poll(() => cost.textContent()).toContain(`${TARGETS} x ${formatUsd(one)}`);
    expect(await list.getByTestId('batch-target').count()).toBe(TARGETS);
    expect(await heading.textContent()).toBe(`${TARGETS} targets: one face swap each, with the same face`);
    await modes.getByRole('radio', { name: 'Several faces' }).check();
    // the numbers typed are still there
    expect(await replace.inputValue()).toBe('0, 1');
    expect(await use.inputValue()).toBe('1, 0');
    await expect.poll(() => cost.textContent()).toContain(`${TARGETS} x ${formatUsd(several)}`);

    await page.getByRole('button', { name: `Queue ${TARGETS} tasks`, exact: true }).click();
    await page.getByRole('button', { name: 'Queueing…' }).waitFor({ state: 'detached' });
    const call = await waitUntil(
      () => view.bridge.calls.find((c) => c.name === 'tasks.queueBatch'),
      'the tasks.queueBatch call',
    );
    expect(call.ok, JSON.stringify(call.error)).toBe(true);
    expect(view.bridge.calls.filter((c) => c.name === 'tasks.queue')).toEqual([]);
    const drafts = (call.args as { drafts: { taskType: string; input: Record<string, unknown> }[] }).drafts;
    expect(drafts.map((d) => d.input.target_image)).toEqual(photos);
    for (const draft of drafts) {
      expect(draft.taskType).toBe('multi-face-swap');
      expect(draft.input).toMatchObject({
        swap_image: face,
        target_faces_index: '0,1',
        swap_faces_index: '1,0',
      });
    }

    // what the backend really recorded: one task per picture, the numbers typed, one batch
    const { batchId, tasks } = call.value as { batchId: string; tasks: Task[] };
    expect(tasks).toHaveLength(TARGETS);
    const stored = await Promise.all(tasks.map((t) => rig.call('tasks.get', { id: t.id })));
    for (const task of stored) {
      expect(task?.taskType).toBe('multi-face-swap');
      expect(task?.batchId).toBe(batchId);
      expect(task?.estimateMicros).toBe(several);
      expect(task?.request.input).toMatchObject({ target_faces_index: '0,1', swap_faces_index: '1,0' });
    }
    expect(new Set(stored.map((t) => t?.id)).size).toBe(TARGETS);
    const inBatch = (await rig.tasks()).filter((t) => t.batchId === batchId);
    expect(inBatch).toHaveLength(TARGETS);

    await openView(page, 'activity');
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batchId}"]`);
    await group.waitFor();
    expect(await page.getByTestId('batch-group').count()).toBe(1);
    expect(await group.locator('.activity-type').textContent()).toBe('Multi face swap');
    // its total in its rows' words: pending until they end, then what the service charged
    const first = await group.getByTestId('batch-cost').textContent();
    // just queued: the estimates' sum pending, unless some have already ended and been charged
    expect(first === `${formatUsd(several * TARGETS)} pending` || first?.includes(' charged'), first!).toBe(
      true,
    );
    await Promise.all(tasks.map((t) => rig.waitForTask(t.id, ['saved'], 60_000)));
    await expect
      .poll(() => group.getByTestId('batch-progress').textContent())
      .toContain(`${TARGETS} of ${TARGETS} done`);
    const ended = (await rig.tasks()).filter((t) => t.batchId === batchId);
    await expect
      .poll(() => group.getByTestId('batch-cost').textContent())
      .toBe(batchCostText(batchCostOf(ended), false));
    await group.getByRole('button', { name: `Show its ${TARGETS} tasks` }).click();
    await expect.poll(() => group.getByTestId('activity-row').count()).toBe(TARGETS);
    const rowIds = await group
      .getByTestId('activity-row')
      .evaluateAll((rows) =>
        rows.map((r) => (r as unknown as { dataset: { taskId: string } }).dataset.taskId),
      );
    expect(rowIds.sort()).toEqual(tasks.map((t) => t.id).sort());
  });
});
