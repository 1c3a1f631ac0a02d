/**
 * What a task was made from and what was made from it, and tasks queued together as a batch.
 *
 * Lineage is one concept: a task's `parentId` is the task it was made from; `parentOutput` is the
 * index of that task's output used as one of its inputs (an extend of a song, an upscale of a
 * picture), or null when the parent's inputs were reused (a re-run, a variation). A previous
 * result is named in a draft's media field as `{ "$output": { "taskId": "<id>", "index": 0 } }`,
 * the way a stored request names a library input file as `{ "$file": "inputs/…" }`; the engine
 * resolves it when the task is queued.
 */
import type { BatchCost } from './cost-standing.ts';
import type { Task, TaskState } from './task-model.ts';

/** A previous result used as an input: output `index` of task `taskId`. */
export interface OutputRef {
  taskId: string;
  index: number;
}

/** A draft's media field value that names a previous result. */
export interface OutputRefValue {
  $output: OutputRef;
}

/** Whether `value` has the `{ $output: … }` form at all (its parts may still be wrong). */
export function looksLikeOutputRef(value: unknown): value is { $output: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$output' in value;
}

/** The reference `value` holds, or null when it is not a well-formed `{ $output: { taskId, index } }`. */
export function outputRefOf(value: unknown): OutputRef | null {
  if (!looksLikeOutputRef(value) || Object.keys(value).length !== 1) return null;
  const ref = value.$output;
  if (typeof ref !== 'object' || ref === null) return null;
  const { taskId, index } = ref as Record<string, unknown>;
  if (typeof taskId !== 'string' || taskId.trim() === '' || taskId.length > 100) return null;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 100) return null;
  return { taskId, index };
}

export function outputRefValue(ref: OutputRef): OutputRefValue {
  return { $output: { taskId: ref.taskId, index: ref.index } };
}

/** One task in a lineage: small, for the detail panel's chain (never a whole task). */
export interface TaskLineageItem {
  id: string;
  title: string;
  taskType: string;
  state: TaskState;
  createdAt: string;
  /** This task's own link to its parent (see Task.parentOutput). */
  parentOutput: number | null;
  batchId: string | null;
  /** Library-relative path of its first output's thumbnail (or the saved image itself); null when none. */
  thumbPath: string | null;
  /** When it was deleted (it is in Recently deleted); null while it is in the library. */
  deletedAt: string | null;
}

/** The chain around a task. */
export interface TaskLineage {
  /** Its parent, the parent's parent, … nearest first, at most LINEAGE_DEPTH. */
  madeFrom: TaskLineageItem[];
  /** The tasks made from it, oldest first, at most LINEAGE_CHILDREN. */
  madeInto: TaskLineageItem[];
}

export const LINEAGE_DEPTH = 20;
export const LINEAGE_CHILDREN = 200;

/** The most drafts one batch takes. */
export const BATCH_MAX_DRAFTS = 100;

/**
 * A batch as Activity shows it: one group with its progress. The counts add up to `total`.
 */
export interface BatchSummary {
  batchId: string;
  /** The first task's title (the batch has no title of its own). */
  title: string;
  /** The first task's type. */
  taskType: string;
  /** When the batch was queued (its first task's createdAt). */
  createdAt: string;
  total: number;
  /** Saved. */
  done: number;
  /** Failed or expired. */
  failed: number;
  /** With the service or being downloaded: submitting, pending, staged, processing, completed, downloading. */
  active: number;
  /** Still only on this computer (the part cancelBatch can cancel). */
  queued: number;
  /** Waiting for the user's decision (the create may have reached the service). */
  uncertain: number;
  cancelled: number;
  /** Of the failed (or expired) ones, those already queued again (a re-run of each exists). */
  retried: number;
  /** The sum of the tasks' estimates in micro-dollars; null when any task's price is unknown. */
  estimateMicros: number | null;
  /** What its tasks cost in their rows' own figures: charged, pending, not billed (cost-standing.ts). */
  cost: BatchCost;
  /** Its tasks' ids in the order they were queued. */
  taskIds: string[];
}

/**
 * A retry is a re-run of a task that failed (or expired): a task with `parentId` the failure and
 * `parentOutput` null. "Retry the failed ones" queues each failure of a batch once, as a new batch.
 */
/** The ended states a task can be retried from. */
export const RETRIABLE_STATES: readonly TaskState[] = ['failed', 'expired'];

export interface BatchRetryView {
  /** The batch the failures were in. */
  batchId: string;
  /** The new batch of retries. */
  retryBatchId: string;
  /** The retries, in the order of the failures. */
  tasks: Task[];
  /** Failures left out because they had been retried before. */
  alreadyRetried: number;
}

/** What cancelling a batch did. */
export interface BatchCancelView {
  batchId: string;
  /** Tasks moved from queued to cancelled now. */
  cancelled: number;
  /**
   * Of those, the ones queued again after an uncertain create (on the user's word): that first
   * create may have reached the service and been billed.
   */
  cancelledAfterUncertain: number;
  /** Tasks the service already has (or had): they go on, and are billed. */
  alreadySent: number;
  /** Tasks that had ended before (saved, failed, cancelled, expired). */
  ended: number;
  /**
   * Tasks waiting for the user's decision (uncertain): their create may have reached the service
   * and been billed; they are neither cancelled nor ended.
   */
  uncertain: number;
}
