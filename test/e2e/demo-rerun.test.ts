/**
 * A re-run in demo mode: the demo library is its own folder (not the library folder set in
 * Settings), so the composer must place a demo task's stored inputs in the demo library. A face
 * swap re-run there queues the same pictures again, with no refusal and no path from elsewhere.
 */
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { launchChromium } from './harness/chromium-location.ts';
import { queueFaceSwap } from './harness/face-swap-task.ts';
import { createStudioRig, type StudioPage, type StudioRig } from './harness/studio-rig.ts';
import { card, openView, queue, waitForApp } from './harness/studio-ui.ts';
import { browserAvailable, rendererDir } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('re-run in demo mode', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;
  let street: Task;

  beforeAll(async () => {
    [browser, rig] = await Promise.all([
      launchChromium(),
      createStudioRig({ rendererDir: rendererDir(), service: 'demo' }),
    ]);
    const queued: Task = await queueFaceSwap(
      rig,
      'Demo street',
      { name: 'street.png', width: 480, height: 320 },
      { name: 'smile.png', width: 200, height: 200, colour: { r: 220, g: 160, b: 120 } },
    );
    street = await rig.waitForTask(queued.id, ['saved']);
    view = await rig.openPage(browser);
    await waitForApp(view.page);
  });

  afterAll(async () => {
    if (view?.problems.length) console.log(`page problems:\n  ${view.problems.join('\n  ')}`);
    await rig?.close();
    await browser?.close();
  });

  it('queues the same two pictures from the demo library again', async () => {
    const { page } = view;
    const settings = await rig.call('settings.get', {});
    expect(settings.libraryInUse).not.toBe(settings.libraryDir); // demo mode has its own library
    await openView(page, 'library');
    await card(page, street.id)
      .getByRole('button', { name: `Open ${street.title}` })
      .click();
    const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${street.id}"]`);
    await detail.getByRole('button', { name: 'Re-run' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
    await queue(page);
    await expect.poll(() => view.bridge.queuedTasks().length).toBeGreaterThan(0);
    const rerun = view.bridge.queuedTasks().at(-1)!;
    expect(rerun.parentId).toBe(street.id);
    const original = (await rig.call('tasks.get', { id: street.id }))!;
    expect(rerun.inputs.map((i) => i.sha256)).toEqual(original.inputs.map((i) => i.sha256));
    expect(rerun.inputs.map((i) => i.value)).toEqual(original.inputs.map((i) => i.value));
  });
});
