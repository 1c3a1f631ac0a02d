/**
 * What Activity says of an uncertain task is what happened to its create: the service answering
 * HTTP 500 is an answer (with an error), not a lost one; a connection dropped after the create
 * was sent is no answer at all. Both stay uncertain (a 5xx on a create may still have created
 * it) and both say that submitting again may be billed twice.
 */
import { describe, expect, it } from 'vitest';
import { historyLooked } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('the reason Activity gives for an uncertain task', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  async function uncertainMessage(faults: Parameters<StudioRig['setFaults']>[0], style: string) {
    const { page } = view;
    await openView(page, 'compose');
    await rig.setFaults(faults);
    await fillSong(page, { style, seconds: 3 });
    await queue(page);
    const id = view.bridge.queuedTasks().at(-1)!.id;
    await rig.waitForTask(id, ['uncertain']);
    // given its history back before the engine looked, the service lets the app settle the task
    if (faults.noTaskHistory) await historyLooked(rig, id);
    await rig.setFaults({});
    await openView(page, 'activity');
    const row = activityRow(page, id);
    await row.and(page.locator('[data-state="uncertain"]')).waitFor();
    return (await row.getByTestId('activity-message').textContent()) ?? '';
  }

  it('a 500 answer to the create: the service answered with an error', async () => {
    const text = await uncertainMessage({ serverErrorRate: 1, applyTo: 'create' }, 'reason test, harp');
    expect(text).toMatch(
      /^The service answered with an error \(HTTP 500\b.*\) and may or may not have created \(and billed\) the task\./,
    );
    expect(text).not.toMatch(/never got an answer|no answer came back/i);
    expect(text).toContain('Submitting it again may be billed twice; discarding it sends nothing.');
  });

  it('a connection dropped after the create was sent: no answer came back', async () => {
    const text = await uncertainMessage(
      // at a service without task history, where the app cannot settle it by itself
      { seed: 7, applyTo: 'create', resetAfterBodyRate: 1, noTaskHistory: true },
      'reason test, second, oboe',
    );
    expect(text).toMatch(/^No answer came back: the connection broke after the create request was sent/);
    expect(text).not.toContain('answered with an error');
    expect(text).toContain('Submitting it again may be billed twice; discarding it sends nothing.');
  });
});
