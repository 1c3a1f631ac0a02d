/**
 * Words a person uses (issue 11, item 12, outside the composer and the gallery's cards): the
 * library's total without "120 loaded", what the service reported a task cost in money instead of
 * points "consumed" and "held", and messages from main shown as sentences (a capital first) in
 * rows, banners and toasts.
 */
import { describe, expect, it } from 'vitest';
import { fillLibrary } from './harness/saved-task-fill.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, card, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('words a person uses', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service', prepareLibrary: (dir) => fillLibrary(dir, 130) }, (opened) => {
    ({ rig, view } = opened);
  });

  it('the library says how many tasks it has, not how many pages are loaded', async () => {
    const { page } = view;
    await openView(page, 'library');
    await page.getByTestId('task-card').first().waitFor();
    await page.getByTestId('library-total').filter({ hasText: '130 tasks' }).waitFor();
    expect(await page.getByTestId('library-total').textContent()).toBe('130 tasks');
  });

  it('a saved task shows what the service reported it cost, in money', async () => {
    const { page } = view;
    await fillSong(page, { style: 'plain words, banjo', seconds: 4 });
    await queue(page);
    const task = await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['saved']);
    expect(task.usage).toMatchObject({ consume: 2_000 });
    await openView(page, 'library');
    await card(page, task.id)
      .getByRole('button', { name: `Open ${task.title}` })
      .click();
    const usage = page.getByTestId('cost-usage');
    expect(await usage.textContent()).toBe('$0.002 charged, as the service reported');
    const facts = (await page.getByTestId('detail-panel').textContent()) ?? '';
    expect(facts).not.toMatch(/consumed|held|points/);
  });

  it('messages from main start with a capital, in the row, the notice and the banner', async () => {
    const { page } = view;
    await rig.setFaults({ planRefusedTaskTypes: ['txt2audio'] });
    await fillSong(page, { style: 'plain words refused, tuba', seconds: 4 });
    await queue(page);
    const task = await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['failed']);
    await rig.setFaults({});
    // the engine's words start in lower case ("your plan at the service …")
    expect(task.error?.message).toMatch(/^your plan/);
    const notice = page.getByTestId('toast').filter({ hasText: `“${task.title}” failed: ` });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('failed: Your plan at the service');
    await openView(page, 'activity');
    expect(await activityRow(page, task.id).getByTestId('activity-message').textContent()).toMatch(
      /^Your plan/,
    );
    expect(await page.getByTestId('plan-banner').textContent()).toMatch(/^Your plan/);
  });
});
