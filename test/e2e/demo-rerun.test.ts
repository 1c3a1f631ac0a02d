/**
 * A re-run in demo mode: the demo library is its own folder (not the library folder set in
 * Settings), so the composer must place a demo task's stored inputs in the demo library. A face
 * swap re-run there queues the same pictures again, with no refusal and no path from elsewhere.
 * Its inputs are named by the files given (street.png), in the detail and the composer's slots.
 */
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { queueFaceSwap } from './harness/face-swap-task.ts';
import { openResultDetail } from './harness/result-actions.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { queue, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('re-run in demo mode', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let street: Task;

  openStudio(
    {
      service: 'demo',
      prepare: async (rig) => {
        const queued: Task = await queueFaceSwap(
          rig,
          'Demo street',
          { name: 'street.png', width: 480, height: 320 },
          { name: 'smile.png', width: 200, height: 200, colour: { r: 220, g: 160, b: 120 } },
        );
        street = await rig.waitForTask(queued.id, ['saved']);
      },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('queues the same two pictures from the demo library again', async () => {
    const { page } = view;
    const settings = await rig.call('settings.get', {});
    expect(settings.libraryInUse).not.toBe(settings.libraryDir); // demo mode has its own library
    const detail = await openResultDetail(page, street);
    // its inputs are named by the files given (issue 21, item 10), never by the copies' content hash
    const parameters = detail.getByTestId('task-parameters');
    const thumbs = parameters.getByTestId('input-thumb');
    await expect.poll(() => thumbs.count()).toBe(2);
    expect(await thumbs.evaluateAll((figures) => figures.map((f) => f.textContent ?? ''))).toEqual([
      expect.stringContaining('street.png'),
      expect.stringContaining('smile.png'),
    ]);
    expect(await parameters.textContent()).not.toMatch(/[0-9a-f]{64}/);
    await detail.getByRole('button', { name: 'Re-run' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    // the composer's slots say the same names
    expect(await slot(page, 'target_image').textContent()).toContain('street.png');
    expect(await slot(page, 'swap_image').textContent()).toContain('smile.png');
    expect(await slot(page, 'target_image').textContent()).not.toMatch(/[0-9a-f]{64}/);
    await queue(page);
    await expect.poll(() => view.bridge.queuedTasks().length).toBeGreaterThan(0);
    const rerun = view.bridge.queuedTasks().at(-1)!;
    expect(rerun.parentId).toBe(street.id);
    const original = (await rig.call('tasks.get', { id: street.id }))!;
    expect(rerun.inputs.map((i) => i.sha256)).toEqual(original.inputs.map((i) => i.sha256));
    expect(rerun.inputs.map((i) => i.value)).toEqual(original.inputs.map((i) => i.value));
  });
});
