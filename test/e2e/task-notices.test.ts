/**
 * Notifications (issue 11, item 13): an in-app notice when a task is saved ("Open" shows it) or
 * fails ("Fix & retry"), a "Queue done" notice when the last queued or running task of a run
 * ends, and an optional tone (Settings › Notifications, off by default) made with the Web Audio
 * API: the test records each oscillator the page starts, with its frequency.
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../support/wait-until.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** Test instrumentation: records the frequency of every oscillator started, in `window.__tones`. */
async function recordTones(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const win = globalThis as unknown as {
      __tones: number[];
      OscillatorNode: { prototype: { start(this: { frequency: { value: number } }, when?: number): void } };
    };
    win.__tones = [];
    const proto = win.OscillatorNode.prototype;
    const start = proto.start;
    proto.start = function (this: { frequency: { value: number } }, when?: number) {
      win.__tones.push(this.frequency.value);
      return start.call(this, when);
    };
  });
}

function tones(page: Page): Promise<number[]> {
  return page.evaluate(() => (globalThis as unknown as { __tones: number[] }).__tones.slice());
}

function toast(page: Page, text: string | RegExp) {
  return page.getByTestId('toast').filter({ hasText: text });
}

/** Closes every toast shown, so what follows is judged on its own notices. */
async function clearToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Dismiss notification' });
  while ((await close.count()) > 0) await close.first().click();
}

describe.skipIf(!browserAvailable())('notices of tasks that end', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service', page: { beforeLoad: recordTones } }, (opened) => {
    ({ rig, view } = opened);
  });

  /** Queues songs while the service is stopped, then lets them all go at once; returns their tasks. */
  async function runTogether(styles: string[]) {
    const { page } = view;
    await rig.stopService();
    for (const style of styles) {
      await fillSong(page, { style, seconds: 3 });
      await queue(page);
    }
    const queued = view.bridge.queuedTasks().slice(-styles.length);
    await rig.restartService();
    return queued;
  }

  it('says in the app when each task is saved, then that the queue is done; no sound by default', async () => {
    const { page } = view;
    const [first, second] = await runTogether(['notice one, flute', 'notice two, sitar']);
    await toast(page, `Saved “${first!.title}”`).waitFor({ timeout: 15_000 });
    await toast(page, `Saved “${second!.title}”`).waitFor();
    const done = toast(page, 'Queue done: 2 saved');
    await done.waitFor();
    expect(await done.getAttribute('data-tone')).toBe('success');
    expect((await rig.call('settings.get', {})).notifySound).toBe(false);
    expect(await tones(page)).toEqual([]);

    // "Open" shows the task in the library
    await toast(page, `Saved “${first!.title}”`).getByRole('button', { name: 'Open' }).click();
    await page.locator(`[data-testid="detail-panel"][data-task-id="${first!.id}"]`).waitFor();
  });

  it('says when a task fails, with "Fix & retry"; one task alone gives no queue-done notice', async () => {
    const { page } = view;
    await clearToasts(page);
    await rig.setFaults({ taskFailureRate: 1, seed: 5 });
    await fillSong(page, { style: 'notice failure, theremin', seconds: 3 });
    await queue(page);
    const task = view.bridge.queuedTasks().at(-1)!;
    const failure = toast(page, `“${task.title}” failed: `);
    await failure.waitFor({ timeout: 15_000 });
    await rig.setFaults({});
    expect(await failure.getAttribute('data-tone')).toBe('error');
    expect(await toast(page, /Queue done/).count()).toBe(0);
    await failure.getByRole('button', { name: 'Fix & retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose', exact: true }).waitFor();
    expect(await page.getByLabel('Style prompt', { exact: true }).inputValue()).toBe(
      'notice failure, theremin',
    );
    await page.getByRole('button', { name: 'Clear' }).click();
  });

  it('plays a short tone when turned on in Settings: rising when saved, falling on a failure, three notes when the queue is done', async () => {
    const { page } = view;
    await openView(page, 'settings');
    const sound = page.getByRole('switch', { name: 'Play a sound when a task ends' });
    expect(await sound.isChecked()).toBe(false);
    await sound.click();
    // a sample of the tone when it is turned on
    await waitUntil(async () => (await tones(page)).length === 2, 'the sample tone');
    expect(await tones(page)).toEqual([660, 880]);
    await waitUntil(async () => (await rig.call('settings.get', {})).notifySound, 'the setting to be saved');
    expect(await sound.isChecked()).toBe(true);

    await fillSong(page, { style: 'tone test, marimba', seconds: 3 });
    await queue(page);
    await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['saved']);
    await waitUntil(async () => (await tones(page)).length === 4, 'the tone of a saved task');
    expect((await tones(page)).slice(2)).toEqual([660, 880]);

    await rig.setFaults({ taskFailureRate: 1, seed: 9 });
    await queue(page);
    await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['failed']);
    await rig.setFaults({});
    await waitUntil(async () => (await tones(page)).length === 6, 'the tone of a failure');
    expect((await tones(page)).slice(4)).toEqual([440, 330]);

    const [, last] = await runTogether(['tone run one, bells', 'tone run two, bells']);
    await rig.waitForTask(last!.id, ['saved']);
    await toast(page, 'Queue done: 2 saved').waitFor();
    await waitUntil(
      async () => (await tones(page)).slice(-3).join() === '523,659,784',
      'the queue-done tone',
    );
  });
});
