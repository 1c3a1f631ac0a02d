/**
 * Which task retried a failure (issue 17, item 13): a retry is a re-run of a task that failed or
 * expired (its `parentId` the failure, no output of it used). Derived from the tasks the window
 * knows (Activity loads the retries of the failures it shows). Pure.
 */
import { RETRIABLE_STATES, type TaskState } from '../../../shared/index.ts';
import type { LoadedTask } from './task-status.ts';

/** The retries of each task, oldest first, by the id of the task they re-ran. */
export function retriesByFailure(tasks: Iterable<LoadedTask>): Map<string, LoadedTask[]> {
  const map = new Map<string, LoadedTask[]>();
  for (const task of tasks) {
    if (task.parentId === null || task.parentOutput !== null) continue;
    const list = map.get(task.parentId);
    if (list) list.push(task);
    else map.set(task.parentId, [task]);
  }
  for (const list of map.values()) list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return map;
}

/** A retry that did not end without a result: while it exists, trying the failure again could bill twice. */
export function isLiveRetry(state: TaskState): boolean {
  return !RETRIABLE_STATES.includes(state) && state !== 'cancelled';
}

/** The retry a failure shows: the newest one (null when it has none, or it did not fail). */
export function retryOf(task: LoadedTask, retries: ReadonlyMap<string, LoadedTask[]>): LoadedTask | null {
  if (!RETRIABLE_STATES.includes(task.state)) return null;
  return retries.get(task.id)?.at(-1) ?? null;
}
