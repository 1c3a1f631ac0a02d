/**
 * Where each task goes when the library is opened again after the app stopped (or crashed):
 * a create that may have been sent is in doubt, a cut-off download starts over, and every task
 * the service holds is fetched at once.
 */
import { REMOTE_ACTIVE_STATES } from '../../shared/index.ts';
import { cleanPartialFolder } from '../library/index.ts';
import type { EngineContext } from './engine-context.ts';

export async function recoverTasks(
  ctx: Pick<EngineContext, 'clock' | 'libraryDir' | 'log' | 'store'>,
): Promise<void> {
  const { clock, libraryDir, log, store } = ctx;
  // only the app's own temporary files: anything else in .partial stays, and is reported
  const partial = await cleanPartialFolder(libraryDir);
  if (partial.kept.length > 0)
    log(
      `library ${libraryDir}: left ${partial.kept.length} item(s) in .partial that the app did not make: ${partial.kept.slice(0, 10).join(', ')}`,
    );
  for (const task of store.tasksInStates(['submitting'])) {
    store.transition(task.id, 'uncertain', {
      from: ['submitting'],
      patch: {
        error: {
          kind: 'uncertain',
          message:
            'the app stopped while this task was being sent; the service may or may not have created (and billed) it. Submit it again, or discard it.',
          code: null,
        },
      },
      detail: 'recovered after a restart while submitting',
    });
  }
  for (const task of store.tasksInStates(['downloading'])) {
    store.transition(task.id, 'completed', {
      from: ['downloading'],
      detail: 'download resumed after restart',
    });
  }
  const now = clock.now();
  for (const task of store.tasksInStates(REMOTE_ACTIVE_STATES)) {
    store.setPollSchedule(task.id, { nextPollAt: now });
  }
}
