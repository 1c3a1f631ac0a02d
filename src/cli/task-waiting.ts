/**
 * Waiting for tasks to reach given states while the engine works on them, and reporting where
 * they ended: the lines or JSON printed and the exit code.
 */
import type { EngineStatus, TaskEngine } from '../core/engine/index.ts';
import type { Task, TaskState } from '../shared/index.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson, taskLine } from './task-printing.ts';
import { printErr, printOut } from './terminal-output.ts';

/**
 * Waits until every task is in one of `states`, or the service refuses the key. With
 * `giveUpOffline`, also stops waiting once the engine has found the service unreachable.
 */
export function waitForStates(
  engine: TaskEngine,
  ids: readonly string[],
  states: readonly TaskState[],
  giveUpOffline: boolean,
): Promise<Task[]> {
  return new Promise((resolvePromise) => {
    const read = () => ids.map((id) => engine.store.getTask(id)).filter((t): t is Task => t !== null);
    let finished = false;
    let warnedOffline = false;
    let warnedStorage = false;
    const check = () => {
      if (finished) return;
      const tasks = read();
      const status: EngineStatus = engine.status();
      const done = tasks.every((t) => states.includes(t.state));
      if (done || status.authProblem || (giveUpOffline && !status.online) || !status.serviceConfigured) {
        finish();
      } else if (status.storageProblem && !warnedStorage) {
        // the engine waits for room and goes on by itself; so does this command
        warnedStorage = true;
        printErr(`media-task: ${status.storageProblem} Still waiting (Ctrl-C stops waiting).\n`);
      } else if (!status.online && !warnedOffline) {
        warnedOffline = true;
        printErr(
          'media-task: the service cannot be reached; still waiting (Ctrl-C stops waiting; the task stays queued and is sent later)\n',
        );
      }
    };
    // Ctrl-C stops waiting; the caller then closes the engine properly, so a create being sent
    // settles first instead of being cut off (which would leave the task uncertain)
    const finish = () => {
      if (finished) return;
      finished = true;
      offChanges();
      offStatus();
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      // the engine reports a refused key or an unreachable service just before it moves the
      // task back to queued: read the tasks again once that synchronous step is done
      setImmediate(() => resolvePromise(read()));
    };
    const offChanges = engine.onTaskChanges(check);
    const offStatus = engine.onStatus(check);
    process.on('SIGINT', finish);
    process.on('SIGTERM', finish);
    check();
  });
}

/** The engine's wording points at the app's Settings; on the command line the key is an environment variable. */
export const CLI_AUTH_PROBLEM = 'the service refused the API key; check MEDIA_TASK_API_KEY';

export function outcomeCode(tasks: readonly Task[], status: EngineStatus): number {
  if (status.authProblem) return EXIT.auth;
  if (tasks.some((t) => t.state === 'failed' && t.error?.kind === 'plan-refused')) return EXIT.planRefused;
  if (tasks.some((t) => ['failed', 'uncertain', 'expired'].includes(t.state))) return EXIT.serviceFailure;
  return EXIT.ok;
}

/** Prints where the tasks ended (with the batch they were queued in, when they were). */
export function report(
  g: GlobalOptions,
  tasks: readonly Task[],
  status: EngineStatus,
  note?: string,
  batchId: string | null = null,
): void {
  if (g.json) {
    printJson(batchId === null ? { tasks, status } : { batchId, tasks, status });
    return;
  }
  for (const t of tasks) printOut(`${taskLine(t)}\n`);
  if (batchId !== null) printOut(`batch ${batchId}: ${tasks.length} tasks\n`);
  if (status.authProblem) printErr(`media-task: ${CLI_AUTH_PROBLEM}\n`);
  if (note) printErr(`${note}\n`);
}
