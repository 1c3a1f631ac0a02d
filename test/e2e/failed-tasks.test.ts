/**
 * Failed tasks lead somewhere (issue 11, item 6). In Activity a failure offers "Fix & retry"
 * (the composer opens on its tab filled in with its inputs, the failure shown as the form's
 * problem and beside the field it names; queued, it is a re-run of the failure), "Dismiss" (off
 * Activity's list, kept in the library, with Undo, remembered after a restart), and failures
 * older than a day are offered ("Show 3 older failures"). Axe on Activity in both themes.
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { Task } from '../../src/shared/index.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  activityRow,
  card,
  describeViolations,
  fillSong,
  openView,
  queue,
  queueButton,
  runAxe,
  waitForApp,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const THREE_DAYS_AGO = Date.now() - 3 * 86_400_000;
const OLD_REFUSAL = 'the service refused the task: input.duration must be between 1 and 240, got 500';

/** Three songs that failed three days ago, written into the library before the app opens it. */
function plantOldFailures(libraryDir: string): void {
  const store = LibraryStore.open(libraryDir, { now: () => new Date(THREE_DAYS_AGO) });
  try {
    for (let i = 1; i <= 3; i++) {
      const input = { style_prompt: `old failure ${i}, cello`, duration: 500 };
      const task = store.insertTask({
        model: 'service/ace-step',
        taskType: 'txt2audio',
        title: `Old failure ${i}`,
        request: { model: 'service/ace-step', task_type: 'txt2audio', input },
        estimateMicros: 10_000,
        expectedMs: 20_000,
        createdAt: new Date(THREE_DAYS_AGO + i * 60_000).toISOString(),
      });
      store.transition(task.id, 'failed', {
        patch: { error: { kind: 'bad-request', message: OLD_REFUSAL, code: 400 } },
      });
    }
  } finally {
    store.close();
  }
}

function failedSection(page: Page) {
  return page.locator('[data-testid="activity-section"][data-section="failed"]');
}

describe.skipIf(!browserAvailable())('failed tasks lead somewhere', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let failed: Task;

  openStudio({ service: 'service', prepareLibrary: plantOldFailures }, (opened) => {
    ({ rig, view } = opened);
  });

  it('"Fix & retry" opens the composer on the task\'s tab, filled in, with the failure shown', async () => {
    const { page } = view;
    await rig.setFaults({ taskFailureRate: 1, seed: 3 });
    await fillSong(page, { style: 'fix and retry, oboe', seconds: 5 });
    await queue(page);
    failed = await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['failed']);
    await rig.setFaults({});

    // the composer is left for another tab, so opening the failure has to come back to Song
    await page.getByRole('tab', { name: 'Face swap', exact: true }).click();
    await openView(page, 'activity');
    const row = activityRow(page, failed.id);
    await row.getByRole('button', { name: 'Fix & retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose', exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'Song', exact: true }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await page.getByLabel('Style prompt', { exact: true }).inputValue()).toBe('fix and retry, oboe');
    expect(await page.getByLabel('Duration in seconds').inputValue()).toBe('5');
    const reason = page.getByTestId('queue-reason');
    expect(await reason.textContent()).toMatch(/^The last try failed: [A-Z]/);

    await queue(page);
    const retry = view.bridge.queuedTasks().at(-1)!;
    expect(retry.id).not.toBe(failed.id);
    // the retry records the failure it came from (its lineage is the only field naming that id)
    expect(JSON.stringify(await rig.call('tasks.get', { id: retry.id }))).toContain(failed.id);
    await rig.waitForTask(retry.id, ['saved']);
  });

  it('a failure retried says so with a link to its retry, and offers no second Fix & retry', async () => {
    const { page } = view;
    await openView(page, 'activity');
    const row = activityRow(page, failed.id);
    const retried = row.getByTestId('retried-as');
    await expect.poll(() => retried.textContent()).toMatch(/^Retried as “.+” \(saved\)$/);
    expect(await row.getByRole('button', { name: 'Fix & retry' }).count()).toBe(0);
    const retryId = await retried.getAttribute('data-retry-id');
    // the link opens the retry
    await retried.getByRole('button').click();
    await page.locator(`[data-testid="detail-panel"][data-task-id="${retryId}"]`).waitFor();
    // the failure's own detail says the same
    await openView(page, 'activity');
    await activityRow(page, failed.id).getByRole('button', { name: 'Open in Library' }).click();
    await expect
      .poll(() => page.getByTestId('lineage').getByTestId('retried-as').textContent())
      .toMatch(/^Retried as “.+” \(saved\)$/);
  });

  it('failures older than a day are offered, and "Fix & retry" marks the field a failure names', async () => {
    const { page } = view;
    await openView(page, 'activity');
    const older = page.getByTestId('older-failures');
    await older.filter({ hasText: 'Show 3 older failures' }).waitFor();
    expect(await page.getByText('Old failure 1', { exact: true }).count()).toBe(0);
    await older.click();
    await failedSection(page)
      .filter({ hasText: /^Failed 4$/ })
      .waitFor();
    await older.waitFor({ state: 'detached' });
    const old = (await rig.tasks()).find((t) => t.title === 'Old failure 2')!;
    const row = activityRow(page, old.id);
    expect(await row.getByTestId('activity-message').textContent()).toBe(
      'The service refused the task: input.duration must be between 1 and 240, got 500',
    );

    await row.getByRole('button', { name: 'Fix & retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compose', exact: true }).waitFor();
    expect(await page.getByLabel('Style prompt', { exact: true }).inputValue()).toBe('old failure 2, cello');
    // the failure names input.duration: its message shows beside the duration
    await page.getByTestId('field-error').filter({ hasText: 'must be between 1 and 240, got 500' }).waitFor();
    // fixing the form takes the failure's messages away
    await page.getByLabel('Duration in seconds').fill('8');
    await expect
      .poll(() => page.getByTestId('queue-reason').textContent())
      .not.toContain('The last try failed');
    await page.getByRole('button', { name: 'Clear' }).click();
  });

  it('"Dismiss" takes a failure off the list (Undo puts it back); it stays in the library and stays dismissed', async () => {
    const { page } = view;
    await openView(page, 'activity');
    const row = activityRow(page, failed.id);
    await row.getByRole('button', { name: `Dismiss ${failed.title}` }).click();
    await row.waitFor({ state: 'detached' });
    const toast = page
      .getByTestId('toast')
      .filter({ hasText: `Dismissed “${failed.title}”; it stays in the library` });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await row.waitFor();

    await row.getByRole('button', { name: `Dismiss ${failed.title}` }).click();
    await row.waitFor({ state: 'detached' });
    const old = (await rig.tasks()).find((t) => t.title === 'Old failure 3')!;
    await activityRow(page, old.id).getByRole('button', { name: 'Dismiss Old failure 3' }).click();
    await activityRow(page, old.id).waitFor({ state: 'detached' });

    await openView(page, 'library');
    await card(page, failed.id).and(page.locator('[data-state="failed"]')).waitFor();
    await card(page, old.id).waitFor();

    // the window loaded again (as after a restart) remembers both
    await page.reload();
    await waitForApp(page);
    await openView(view.page, 'activity');
    await view.page.getByTestId('older-failures').filter({ hasText: 'Show 2 older failures' }).waitFor();
    expect(await activityRow(view.page, failed.id).count()).toBe(0);
    await view.page.getByTestId('older-failures').click();
    await activityRow(view.page, (await rig.tasks()).find((t) => t.title === 'Old failure 1')!.id).waitFor();
    expect(await activityRow(view.page, old.id).count()).toBe(0);
    expect(await activityRow(view.page, failed.id).count()).toBe(0);
  });

  it('Activity with failures passes axe in both themes', async () => {
    const { page } = view;
    for (const theme of ['Light', 'Dark'] as const) {
      await openView(page, 'settings');
      await page.getByRole('radio', { name: theme, exact: true }).click();
      await page.locator(`html[data-theme="${theme.toLowerCase()}"]`).waitFor({ state: 'attached' });
      await openView(page, 'activity');
      await page.getByRole('button', { name: 'Fix & retry' }).first().waitFor();
      const serious = (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious, describeViolations(`Activity (${theme})`, serious)).toEqual([]);
    }
    expect(await queueButton(page).count()).toBe(0);
  });

  it('a batch offers "Retry the failed ones" once: each failure is queued again once, as a new batch', async () => {
    const { page } = view;
    await rig.setFaults({ taskFailureRate: 1, seed: 4 });
    const drafts = [1, 2].map((i) => ({
      model: 'ace-step',
      taskType: 'txt2audio',
      title: `Batch failure ${i}`,
      input: { style_prompt: `batch failure ${i}, harp`, duration: 4 + i },
    }));
    const batch = await rig.call('tasks.queueBatch', { drafts });
    for (const t of batch.tasks) await rig.waitForTask(t.id, ['failed']);
    await rig.setFaults({});
    await openView(page, 'activity');
    const group = page.locator(`[data-testid="batch-group"][data-batch-id="${batch.batchId}"]`);
    await group.getByRole('button', { name: 'Retry the 2 failed ones' }).click();
    await page
      .getByTestId('toast')
      .filter({ hasText: 'Queued the 2 failed tasks again, as a new batch.' })
      .waitFor();
    await group.getByRole('button', { name: /^Retry the/ }).waitFor({ state: 'detached' });
    const retries = await rig.call('tasks.retries', { ids: batch.tasks.map((t) => t.id) });
    expect(retries.map((t) => t.parentId)).toEqual(batch.tasks.map((t) => t.id));
    expect(new Set(retries.map((t) => t.batchId)).size).toBe(1);
    // a second time is refused: nothing more is queued (or billed)
    await expect(rig.call('tasks.retryFailed', { batchId: batch.batchId })).rejects.toThrow(
      /retried already/,
    );
    for (const t of retries) await rig.waitForTask(t.id, ['saved']);
    await group.getByRole('button', { name: /Show its 2 tasks/ }).click();
    for (const t of batch.tasks) {
      await expect
        .poll(() => activityRow(page, t.id).getByTestId('retried-as').textContent())
        .toMatch(/\(saved\)$/);
      expect(await activityRow(page, t.id).getByRole('button', { name: 'Fix & retry' }).count()).toBe(0);
    }
  });
});
