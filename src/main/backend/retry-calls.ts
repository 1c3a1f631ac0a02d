/**
 * Trying failed tasks again (issue 17, item 13): the retries of failures the window shows, and
 * "Retry the failed ones" of a batch (failure-retries.ts: each failure once, as a new batch).
 */
import type { BatchRetryView, Task } from '../../shared/index.ts';
import type { CallContext } from './call-context.ts';

export function retryCalls(ctx: CallContext) {
  return {
    'tasks.retryFailed': async (args: { batchId: string }): Promise<BatchRetryView> =>
      ctx.engine().retryFailed(args.batchId),
    'tasks.retries': async (args: { ids: string[] }): Promise<Task[]> => ctx.engine().retriesOf(args.ids),
  };
}
