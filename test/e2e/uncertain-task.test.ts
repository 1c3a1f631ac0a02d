/**
 * Scenario 7, resolving an uncertain task. The sandbox accepts (and bills) each create and then
 * drops the connection without answering (`resetAfterBodyRate: 1`), so the app cannot know
 * whether the service got it: the task shows as uncertain with the explanation, and is never
 * sent again by itself. "Submit again" (after a confirmation) sends it once more and it
 * completes — the ledger then holds both creates; "Discard" on another one cancels it and sends
 * nothing more. When the service's history holds two tasks that could be its create, Activity
 * shows both (id, created time) and takes the one the user picks, sending nothing again.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../support/wait-until.ts';
import { inEachTheme } from './harness/page-boxes.ts';
import { historyLooked } from './harness/song-tasks.ts';
import { SERVICE_KEY, type StudioPage, type StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** The create's answer lost at a service without task history: the app cannot settle it by itself. */
const LOST_ANSWER = { seed: 7, applyTo: 'create', resetAfterBodyRate: 1, noTaskHistory: true } as const;
const SHOTS_DIR = process.env.SETTLE_SHOTS_DIR ?? '/tmp/settle-shots';

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
    await historyLooked(rig, id);
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
    // it may bill twice: not the row's primary button, and the question's is marked as a risk
    const submit = row.getByRole('button', { name: 'Submit again' });
    expect(await submit.getAttribute('class')).not.toContain('button-primary');
    expect(await row.locator('.button-primary').count()).toBe(0);
    await submit.click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('billed twice');
    const sure = confirm.getByRole('button', { name: 'Submit again' });
    expect(await sure.getAttribute('class')).toContain('button-danger');
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

  it('several tasks of the service could be it: Activity shows each and takes the one picked, sending nothing again', async () => {
    const { page } = view;
    // the first song made once more elsewhere (the web workspace), with the very same input
    const first = (await rig.ledger())[0]!;
    const made = await fetch(`${rig.sandbox().url}/api/v1/task`, {
      method: 'POST',
      headers: { 'x-api-key': SERVICE_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(first.body),
    });
    expect(made.status).toBe(200);
    await rig.setFaults({ seed: 7, applyTo: 'create', resetAfterBodyRate: 1 });
    await openView(page, 'compose');
    await fillSong(page, { style: 'lo-fi beats, rainy window', seconds: 3 });
    await queue(page);
    const id = view.bridge.queuedTasks().at(-1)!.id;
    await rig.waitForTask(id, ['uncertain']);
    await rig.setFaults({});
    await openView(page, 'activity');
    const row = activityRow(page, id);
    const choice = row.getByTestId('settlement-choice');
    await choice.waitFor();
    const ledger = await rig.ledger();
    // the first song's own first create is one too: its answer was lost, and Submit again made another
    const candidates = [first.taskId, ...ledger.slice(-2).map((e) => e.taskId)];
    for (const remoteId of candidates) expect(await choice.textContent()).toContain(remoteId);
    expect(await row.getByTestId('activity-message').textContent()).toMatch(
      /^The service has 3 tasks that could be this one \(created from .+ UTC\): choose the one that is this task, or submit it again, or discard it\.$/,
    );
    await row.scrollIntoViewIfNeeded();
    await mkdir(SHOTS_DIR, { recursive: true });
    for (const [w, h] of [
      [800, 600],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await inEachTheme(page, async (theme) => {
        await row.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS_DIR, `settle-choice-${w}x${h}-${theme}.png`) });
      });
    }
    const chosen = candidates[2]!;
    await choice.getByRole('button', { name: `Take the service's task ${chosen} as this one` }).click();
    const saved = await rig.waitForTask(id, ['saved']);
    expect(saved.remoteId).toBe(chosen);
    expect(await rig.ledger()).toHaveLength(ledger.length);
    await row.and(page.locator('[data-state="saved"]')).waitFor();
  });

  it('Account history lists the account’s tasks, filters by family, and imports one made elsewhere, then marks it In library', async () => {
    const { page } = view;
    // a picture made at the service with the key, as the vendor's web workspace would
    const made = await fetch(`${rig.sandbox().url}/api/v1/task`, {
      method: 'POST',
      headers: { 'x-api-key': SERVICE_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'Qubico/flux1-schnell',
        task_type: 'txt2img',
        input: { prompt: 'a paper crane on a desk', width: 512, height: 512 },
      }),
    });
    expect(made.status).toBe(200);
    const remoteId = ((await made.json()) as { data: { task_id: string } }).data.task_id;
    const ledger = await rig.ledger();

    await openView(page, 'history');
    const rows = page.getByTestId('history-row');
    const row = rows.and(page.locator(`[data-remote-id="${remoteId}"]`));
    await row.waitFor();
    // the songs of this app are listed too: one the library holds says so; the lost first create does not
    const held = (await rig.tasks()).find((t) => t.state === 'saved')!;
    const songRow = rows.and(page.locator(`[data-remote-id="${held.remoteId}"]`));
    expect(await songRow.getByTestId('history-held').textContent()).toBe('In library');
    const lost = rows.and(page.locator(`[data-remote-id="${ledger[0]!.taskId}"]`));
    expect(await lost.getByTestId('history-held').textContent()).toBe('—');
    expect(await row.getByTestId('history-held').textContent()).toBe('—');

    await page.getByTestId('history-family').selectOption('flux');
    await waitUntil(async () => (await rows.count()) === 1, 'only the flux task listed');
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Import selected (1)' }).click();
    await row.getByRole('button', { name: 'In library' }).waitFor();
    const imported = await waitUntil(
      async () => (await rig.tasks()).find((t) => t.remoteId === remoteId && t.state === 'saved') ?? null,
      'the imported picture to be saved',
    );
    expect(imported.outputs[0]?.kind).toBe('image');
    expect(await row.getByRole('checkbox').isDisabled()).toBe(true);
    // nothing was created by the import
    expect(await rig.ledger()).toHaveLength(ledger.length);

    await page.getByTestId('history-family').selectOption('');
    await rows.nth(2).waitFor();
    await mkdir(SHOTS_DIR, { recursive: true });
    for (const [w, h] of [
      [800, 600],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await inEachTheme(page, async (theme) => {
        await page.screenshot({ path: join(SHOTS_DIR, `account-history-${w}x${h}-${theme}.png`) });
      });
    }
    await row.getByRole('button', { name: 'In library' }).click();
    await page.getByRole('heading', { level: 1, name: 'Library', exact: true }).waitFor();
  });
});
