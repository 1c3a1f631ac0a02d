/**
 * Scenario 1, first run in demo mode: a brand-new user sees the welcome dialog, chooses the
 * demo, sees the demo banner, and a song queued from the composer runs through the built-in
 * sandbox to a WAV file in the library.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, card, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('first run in demo mode', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'first-run' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('offers the demo on the first run and turns demo mode on when chosen', async () => {
    const { page } = view;
    const welcome = page.getByTestId('welcome-dialog');
    await welcome.waitFor();
    expect(await rig.call('settings.get', {})).toMatchObject({ firstRun: true, hasApiKey: false });

    await welcome.getByRole('button', { name: 'Try the demo (built-in sandbox)' }).click();
    await welcome.waitFor({ state: 'detached' });
    // ready to type: the focus is in the song's first field
    const style = page.getByRole('tabpanel').getByLabel('Style prompt', { exact: true });
    await expect.poll(() => style.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.getByTestId('demo-banner').waitFor();
    expect(await page.getByTestId('demo-banner').textContent()).toContain('built-in sandbox');

    // The choice is real: saved in the settings file, and the engine talks to the sandbox.
    expect(await rig.call('settings.get', {})).toMatchObject({ firstRun: false, demoMode: true });
    const settingsFile = JSON.parse(await readFile(join(rig.userDataDir, 'settings.json'), 'utf8'));
    expect(settingsFile).toMatchObject({ firstRun: false, demoMode: true });
    expect(await rig.call('engine.status', {})).toMatchObject({
      service: 'sandbox',
      serviceConfigured: true,
    });
  });

  it('runs a queued song through the built-in sandbox into the library', async () => {
    const { page } = view;
    await fillSong(page, { style: 'sunny ukulele pop, whistling', seconds: 4 });
    await queue(page);
    const [queued] = view.bridge.queuedTasks();
    expect(queued).toMatchObject({ taskType: 'txt2audio', state: 'queued' });
    const id = queued!.id;

    await openView(page, 'activity');
    await activityRow(page, id).waitFor();
    const saved = await rig.waitForTask(id, ['saved']);

    // The sandbox billed exactly this one create, with what the composer sent.
    const ledger = await rig.ledger();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ taskId: saved.remoteId, taskType: 'txt2audio' });
    expect((ledger[0]!.body as { input: Record<string, unknown> }).input).toMatchObject({
      style_prompt: 'sunny ukulele pop, whistling',
      duration: 4,
    });

    // The result is a real WAV in the library folder.
    const output = saved.outputs[0]!;
    expect(output).toMatchObject({ kind: 'audio', state: 'saved' });
    const wav = await readFile(join(rig.libraryDir, output.path!));
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');

    // And the UI shows it as saved, in Activity and in the Library.
    await page.locator(`[data-testid="activity-row"][data-task-id="${id}"][data-state="saved"]`).waitFor();
    await openView(page, 'library');
    await card(page, id).and(page.locator('[data-state="saved"]')).waitFor();
    expect(await card(page, id).getAttribute('data-kind')).toBe('audio');
  });
});
