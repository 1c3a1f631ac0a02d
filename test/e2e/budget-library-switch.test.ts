/**
 * Settings › Budget follows the library in use. The budget and its spending are kept in each
 * library, so turning demo mode off shows the user's library's spending at once (not the demo
 * library's until the next save), and turning it back on shows the demo library's again; a task
 * saved while Settings is open shows in the spending without leaving it.
 */
import { describe, it } from 'vitest';
import { formatUsd } from '../../src/shared/index.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('the Budget card after switching libraries', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'demo' }, (opened) => {
    ({ rig, view } = opened);
  });

  /** Waits until the Budget card's spending line names `tasks` (e.g. `1 task`, `0 tasks`). */
  async function spendingShows(tasks: RegExp): Promise<void> {
    await view.page.getByTestId('cost-summary').filter({ hasText: tasks }).waitFor();
  }

  it('shows the demo library spending, then the user library, then the demo library again', async () => {
    const { page } = view;
    await fillSong(page, { style: 'budget switch test, celesta', seconds: 4 });
    await queue(page);
    await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['saved']);

    await openView(page, 'settings');
    // demo mode never says spent (issue 21, item 2): what its tasks would have cost
    await spendingShows(/ Its 1 task would have cost about /);

    await page.getByRole('switch', { name: 'Demo mode (built-in sandbox)' }).click();
    await page.getByTestId('library-notice').waitFor();
    // the user's library is empty: nothing spent there
    await spendingShows(/^\$0\.00 spent across 0 tasks /);

    await page.getByRole('switch', { name: 'Demo mode (built-in sandbox)' }).click();
    await page.getByTestId('demo-banner').waitFor();
    await spendingShows(/ Its 1 task would have cost about /);
  });

  it('counts a task saved while Settings is open', async () => {
    const { page } = view;
    await openView(page, 'compose');
    await fillSong(page, { style: 'budget switch test, second, marimba', seconds: 4 });
    await queue(page);
    const id = view.bridge.queuedTasks().at(-1)!.id;
    await openView(page, 'settings');
    await page.getByTestId('cost-summary').waitFor();
    await rig.waitForTask(id, ['saved']);
    const cost = await rig.call('cost.summary', {});
    const spent = formatUsd(cost.spentMicros).replace(/[$.]/g, '\\$&');
    await spendingShows(new RegExp(`Its 2 tasks would have cost about ${spent}`));
  });
});
