/**
 * Trying failed tasks again (issue 17, item 13). A retry is a re-run of a task that failed or
 * expired: a new task with the failure as its parent and no output of it (`parentOutput` null).
 * "Retry the failed ones" queues each failure of a batch once, as a new batch; a failure that
 * has a retry already is left out, checked again in the transaction that records the retries, so
 * two clicks (or two windows) never queue, and bill, the same failure twice.
 */
import { type BatchRetryView, RETRIABLE_STATES, type Task } from '../../../shared/index.ts';
import { assertOpen, type EngineContext } from '../engine-context.ts';
import { TaskActionError } from '../engine-errors.ts';
import { queueBatch } from '../intake/task-intake.ts';
import { draftOf } from './task-actions.ts';

/** Queues each failed (or expired) task of batch `batchId` that has no retry yet, as one new batch. */
export async function retryFailedOfBatch(ctx: EngineContext, batchId: string): Promise<BatchRetryView> {
  assertOpen(ctx);
  const { store } = ctx;
  const tasks = store.batchStates(batchId);
  if (tasks.length === 0) throw new TaskActionError(`no batch ${batchId} in the library`);
  const failures = tasks.filter((t) => RETRIABLE_STATES.includes(t.state));
  if (failures.length === 0) {
    throw new TaskActionError('no task of this batch failed, so there is nothing to retry');
  }
  const fresh = failures.filter((t) => t.retries === 0);
  if (fresh.length === 0) throw alreadyRetried(failures.length);
  const drafts = fresh.map((t) => {
    const task = store.getTask(t.id) as Task;
    // the failure was queued with the user's word on its price; its retry keeps it
    return {
      ...draftOf(ctx.libraryDir, task),
      parentId: task.id,
      parentOutput: null,
      acceptUnknownPrice: true,
    };
  });
  const queued = await queueBatch(ctx, drafts, {
    beforeInsert: () => {
      // another retry of one of them was recorded while these were checked
      const retried = fresh.filter((t) => store.retryIds(t.id).length > 0).length;
      if (retried > 0) throw alreadyRetried(retried);
    },
  });
  return {
    batchId,
    retryBatchId: queued.batchId,
    tasks: queued.tasks,
    alreadyRetried: failures.length - fresh.length,
  };
}

function alreadyRetried(count: number): TaskActionError {
  return new TaskActionError(
    count === 1
      ? 'this failed task was retried already; its retry is shown with it'
      : `these ${count} failed tasks were retried already; each retry is shown with its failure`,
  );
}

/** The retries (re-runs) of each of these tasks, oldest first; ids not in the library are left out. */
export function retriesOf(ctx: EngineContext, ids: readonly string[]): Task[] {
  const retries: Task[] = [];
  for (const id of new Set(ids)) {
    for (const retryId of ctx.store.retryIds(id)) {
      const task = ctx.store.getTask(retryId);
      if (task) retries.push(task);
    }
  }
  return retries;
}
