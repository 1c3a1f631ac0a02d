/**
 * Whether what the service said changes anything a task shows. Most fetches of a running task
 * bring nothing new (the same status, times and usage): the engine then records only when to
 * fetch next (its PollSchedule, no part of the Task) and tells the window nothing.
 */
import type { Task, TaskError } from '../../../shared/index.ts';
import type { TaskPatch } from '../../store/index.ts';

/** The shown fields an answer from the service may set. */
export type ShownPatch = Pick<
  TaskPatch,
  | 'remoteId'
  | 'remoteStatus'
  | 'usage'
  | 'error'
  | 'submittedAt'
  | 'remoteCreatedAt'
  | 'startedAt'
  | 'endedAt'
>;

const TIME_FIELDS = ['submittedAt', 'remoteCreatedAt', 'startedAt', 'endedAt'] as const;

/** The same instant, whatever offset or precision each was written with (the store keeps UTC, ms). */
function sameTime(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? a === b : x === y;
}

export function sameError(a: TaskError | null, b: TaskError | null): boolean {
  if (a === null || b === null) return a === b;
  return a.kind === b.kind && a.message === b.message && a.code === b.code;
}

function sameUsage(a: Task['usage'], b: Task['usage']): boolean {
  if (a === null || b === null) return a === b;
  return a.type === b.type && a.frozen === b.frozen && a.consume === b.consume;
}

/** True when setting `patch` on `task` would change a field the task shows. */
export function changesShown(task: Task, patch: ShownPatch): boolean {
  if (patch.remoteId !== undefined && patch.remoteId !== task.remoteId) return true;
  if (patch.remoteStatus !== undefined && patch.remoteStatus !== task.remoteStatus) return true;
  if (patch.usage !== undefined && !sameUsage(patch.usage, task.usage)) return true;
  if (patch.error !== undefined && !sameError(patch.error, task.error)) return true;
  return TIME_FIELDS.some((f) => patch[f] !== undefined && !sameTime(patch[f] ?? null, task[f]));
}
