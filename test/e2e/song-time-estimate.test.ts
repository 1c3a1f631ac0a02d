/**
 * Issue 11 item 12: the Song tab says how long the service is expected to take for a song of the
 * chosen length: a first guess from the catalog while the library has no songs, then learned from
 * the library's recent songs (tasks.expectedTime, the estimate the engine polls by), per length.
 */
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openComposeTab } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('a song time estimate', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service', timeScale: 0.05 }, (opened) => {
    ({ rig, view } = opened);
  });

  it('gives a first guess, then one learned from the library that grows with the length', async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    const expected = page.getByTestId('expected-time');
    await expect
      .poll(() => expected.textContent())
      .toMatch(/^Takes about 1 min 00 s at the service \(a first guess\)\.$/);

    const queued: Task[] = [];
    for (const duration of [5, 40, 80, 120, 160, 200]) {
      queued.push(
        await rig.call('tasks.queue', {
          model: 'ace-step',
          taskType: 'txt2audio',
          input: { style_prompt: `estimate ${duration}`, duration },
        }),
      );
    }
    for (const task of queued) await rig.waitForTask(task.id, ['saved'], 60_000);

    const short = await rig.call('tasks.expectedTime', {
      model: 'ace-step',
      taskType: 'txt2audio',
      input: { duration: 5 },
    });
    const long = await rig.call('tasks.expectedTime', {
      model: 'ace-step',
      taskType: 'txt2audio',
      input: { duration: 200 },
    });
    expect(short.samples).toBe(6);
    expect(long.expectedMs).toBeGreaterThan(short.expectedMs);

    await page.getByLabel('Duration in seconds').fill('200');
    await expect.poll(() => expected.textContent()).toMatch(/\(from your last 6 songs\)\.$/);
  });
});
