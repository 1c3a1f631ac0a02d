/**
 * Scenario 7, resolving an uncertain task. The sandbox accepts (and bills) each create and then
 * drops the connection without answering (`resetAfterBodyRate: 1`), so the app cannot know
 * whether the service got it: the task shows as uncertain with the explanation, and is never
 * sent again by itself. "Submit again" (after a confirmation) sends it once more and it
 * completes — the ledger then holds both creates; "Discard" on another one cancels it and sends
 * nothing more.
 */
import { describe, expect, it } from 'vitest';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const LOST_ANSWER = { seed: 7, applyTo: 'create', resetAfterBodyRate: 1 } as const;

describe.skipIf(!browserAvailable())('an uncertain task', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  /** Queues a song from the composer while the sandbox drops create answers; returns its id. */
  async function queueIntoUncertain(style: string): Promise<string> {
    const { page } = view;
    await rig.setFaults(LOST_ANSWER);
    await fillSong(page, { style, seconds: 3 });
    await queue(page);
    const id = view.bridge.queuedTasks().at(-1)!.id;
    await rig.waitForTask(id, ['uncertain']);
    await rig.setFaults({});
    return id;
  }

  it('shows the task as uncertain, explained, and does not send it again by itself', async () => {
    const { page } = view;
    const id = await queueIntoUncertain('lo-fi beats, rainy window');
    expect(await rig.ledger()).toHaveLength(1); // received and billed; the answer was lost

    await openView(page, 'activity');
    const row = activityRow(page, id);
    await row.and(page.locator('[data-state="uncertain"]')).waitFor();
    expect(await row.getByTestId('activity-message').textContent()).toContain(
      "can't tell whether the service received it",
    );
    expect(await page.getByTestId('uncertain-count').textContent()).toContain('1');
    await page.locator('[data-testid="activity-section"][data-section="decide"]').waitFor();

    await new Promise((r) => setTimeout(r, 600));
    expect(await rig.ledger()).toHaveLength(1);
    expect((await rig.call('tasks.get', { id }))?.state).toBe('uncertain');
  });

  it('"Submit again" asks first, then sends it once more and it completes', async () => {
    const { page } = view;
    const [task] = await rig.tasks();
    const row = activityRow(page, task!.id);
    await row.getByRole('button', { name: 'Submit again' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('billed twice');
    // Cancel first: nothing happens.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await rig.call('tasks.get', { id: task!.id }))?.state).toBe('uncertain');

    await row.getByRole('button', { name: 'Submit again' }).click();
    await confirm.getByRole('button', { name: 'Submit again' }).click();
    const saved = await rig.waitForTask(task!.id, ['saved']);
    const ledger = await rig.ledger();
    expect(ledger).toHaveLength(2);
    expect(ledger[1]!.taskId).toBe(saved.remoteId);
    expect(ledger[1]!.body).toEqual(ledger[0]!.body);
    await row.and(page.locator('[data-state="saved"]')).waitFor();
    await page.getByTestId('uncertain-count').waitFor({ state: 'detached' });
  });

  it('"Discard" cancels another uncertain task and sends nothing more', async () => {
    const { page } = view;
    const id = await queueIntoUncertain('brass band, street parade');
    expect(await rig.ledger()).toHaveLength(3);
    await openView(page, 'activity');
    const row = activityRow(page, id);
    await row.and(page.locator('[data-state="uncertain"]')).waitFor();
    await row.getByRole('button', { name: 'Discard' }).click();
    await rig.waitForTask(id, ['cancelled']);
    await new Promise((r) => setTimeout(r, 400));
    expect(await rig.ledger()).toHaveLength(3);
    const events = await rig.call('tasks.events', { id });
    expect(events.map((e) => e.to)).toEqual(['queued', 'submitting', 'uncertain', 'cancelled']);
    await page.getByTestId('uncertain-count').waitFor({ state: 'detached' });
  });
});
