/**
 * The app's own model of a task: what the library stores and the UI shows. A task is created
 * locally (queued) long before the service knows it; `remoteId` is set when the service
 * accepts it.
 */
import type { OutputKind, TaskFamily } from '../catalog/task-types.ts';
import type { TaskCost } from './billed-cost.ts';
import type { RetentionRunProgress } from './retention.ts';

/**
 * Local lifecycle:
 * queued → submitting → (pending | staged | processing)… → completed → downloading → saved
 * and the ends failed, uncertain (the create may have reached the service; never re-sent by
 * itself), cancelled (by the user while still queued, or by the service), expired (the service no longer had the
 * outputs when we fetched them; the record and URLs stay).
 */
export const TASK_STATES = [
  'queued',
  'submitting',
  'pending',
  'staged',
  'processing',
  'completed',
  'downloading',
  'saved',
  'failed',
  'uncertain',
  'cancelled',
  'expired',
] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** States in which the service holds the task and the engine polls it. */
export const REMOTE_ACTIVE_STATES: readonly TaskState[] = ['pending', 'staged', 'processing'];
/** States of a task sent (or being sent) whose result is not saved yet: the window's "running". */
export const RUNNING_STATES: readonly TaskState[] = [
  'submitting',
  ...REMOTE_ACTIVE_STATES,
  'completed',
  'downloading',
];
/**
 * States in which the engine still has work to do for a task (send, poll or download); the
 * window counts these as "active".
 */
export const ENGINE_WORK_STATES: readonly TaskState[] = ['queued', ...RUNNING_STATES];
/** States the engine will not move a task out of by itself. */
export const FINAL_STATES: readonly TaskState[] = ['saved', 'failed', 'cancelled', 'expired'];
/** Final states but failure: the window's "finished". */
export const FINISHED_STATES: readonly TaskState[] = FINAL_STATES.filter((s) => s !== 'failed');
/** States that need the user's decision. */
export const DECISION_STATES: readonly TaskState[] = ['uncertain'];

export function isTaskState(value: string): value is TaskState {
  return (TASK_STATES as readonly string[]).includes(value);
}

/**
 * Where an input's bytes come from. A `file` input is in the library: a local file copied, or
 * Base64 decoded, when the task was queued. `base64` is left only in libraries whose Base64 text
 * could not be moved into a file.
 */
export const INPUT_SOURCES = ['url', 'base64', 'file'] as const;
export type InputSource = (typeof INPUT_SOURCES)[number];

export interface TaskInput {
  field: string;
  source: InputSource;
  /**
   * URL, Base64 text, or a path relative to the library folder (for `file`): `inputs/<sha256>.<ext>`,
   * one file per content shared by every task that uses it (`inputs/<task id>/<field>.<ext>` in
   * older libraries).
   */
  value: string;
  mime: string | null;
  size: number | null;
  sha256: string | null;
  width: number | null;
  height: number | null;
  /**
   * The file's own name when the user gave a local file (`party.jpg`), kept so the window names
   * the input by it and never by the library copy's content hash; null (or absent, in records
   * made before library migration 15) for a URL, Base64 or a result.
   */
  name?: string | null;
}

/** A task's place in its batch: `index` from 1 to `count`. */
export interface BatchPlace {
  index: number;
  count: number;
}

export const OUTPUT_STATES = ['pending', 'saved', 'expired', 'failed'] as const;
export type OutputState = (typeof OUTPUT_STATES)[number];

/**
 * An output's `url` once the output the service sent inline (a `data:` URL) is saved: the bytes
 * are in its file, and the record no longer carries them. Library migration 4 writes this very
 * text, so it never changes.
 */
export const SAVED_INLINE_OUTPUT_URL = 'inline:saved';

export interface TaskOutput {
  index: number;
  kind: OutputKind;
  /**
   * The service's URL, kept even after it expires; SAVED_INLINE_OUTPUT_URL for an inline (`data:`)
   * output once saved.
   */
  url: string;
  field: string;
  state: OutputState;
  /** Relative to the library folder. */
  path: string | null;
  thumbPath: string | null;
  mime: string | null;
  size: number | null;
  sha256: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  error: string | null;
}

export interface TaskError {
  /** e.g. `bad-request`, `unauthorized`, `service-failed`, `network`, `protocol`, `output-expired`. */
  kind: string;
  message: string;
  code: number | null;
}

/**
 * What the service's task history showed about an uncertain create (engine/create-settlement.ts):
 * `looking` (no such task yet, the window not yet safely past), `not-created` (the whole window
 * read: the service never created it, nothing was billed), `choose` (several of its tasks could
 * be this one: the user picks), `unreachable` (no history: an older service, or no connection).
 */
export interface TaskSettlement {
  outcome: 'looking' | 'not-created' | 'choose' | 'unreachable';
  /** When the history was last read (ISO). */
  checkedAt: string;
  /** The service's tasks that could be this one (outcome `choose`), with when each was created. */
  candidates: { remoteId: string; createdAt: string | null }[];
  /** What was found, in words. */
  note: string;
}

export interface Task {
  id: string;
  remoteId: string | null;
  model: string;
  taskType: string;
  /**
   * The catalog entry it was made from (`<model name>/<task type>`, catalog/entry-lookup.ts),
   * decided when it was queued; null for a model and task type the catalog did not know.
   */
  entryId: string | null;
  family: TaskFamily;
  title: string;
  state: TaskState;
  /** Last status string the service reported, as it said it (lower-cased). */
  remoteStatus: string | null;
  /** The request as the user composed it; file inputs refer to `inputs`. */
  request: {
    model: string;
    task_type: string;
    input: Record<string, unknown>;
    config?: Record<string, unknown>;
  };
  inputs: TaskInput[];
  outputs: TaskOutput[];
  favorite: boolean;
  estimateMicros: number | null;
  /** Usage the service reported (units not published: kept as given). */
  usage: { type: string | null; frozen: number | null; consume: number | null } | null;
  error: TaskError | null;
  createdAt: string;
  updatedAt: string;
  submittedAt: string | null;
  remoteCreatedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  savedAt: string | null;
  /** Expected service-side duration in ms when it was queued (learned or default). */
  expectedMs: number | null;
  /**
   * Local id of the task this one was made from (task-lineage.ts); null when none, or once that
   * task is deleted.
   */
  parentId: string | null;
  /**
   * Index of the parent's output used as an input of this task; null when the parent's inputs
   * were reused (a re-run or a variation). Kept when the parent is deleted.
   */
  parentOutput: number | null;
  /**
   * The title of the task this one was made from, once that task is deleted (`parentId` is then
   * null); null while it is in the library or when there was none.
   */
  parentGone: string | null;
  /** The batch this task was queued in (tasks.queueBatch), if any. */
  batchId: string | null;
  /**
   * Its place in its batch, in the order queued (a variation's "2 of 4"), so cards of one batch
   * can be told apart; absent for a task queued alone and in records made before migration 16.
   */
  batchPlace?: BatchPlace;
  /**
   * When the user deleted it (ISO): it is in Recently deleted, with its files, until it is
   * restored (null again) or purged (TRASH_DAYS later, or deleted forever). null: in the library.
   */
  deletedAt: string | null;
  /** What the service's history showed while the task is uncertain; null before it was read. */
  settlement?: TaskSettlement | null;
  /**
   * What it cost as the service billed it once it ended (billed-cost.ts): the micro-dollars
   * counted, the reported figure, the published price and whether they disagree; null before.
   */
  cost?: TaskCost | null;
}

/** How long a deleted task stays in Recently deleted before it is purged with its files. */
export const TRASH_DAYS = 30;

export interface TaskEvent {
  taskId: string;
  at: string;
  from: TaskState | null;
  to: TaskState;
  detail: string | null;
}

/** What the engine reports about itself: reachability, the key, and its queue. */
export interface EngineStatus {
  online: boolean;
  /** What the operating system says (from the shell); the engine also learns from errors. */
  networkSignal: boolean;
  serviceConfigured: boolean;
  /** Set when the service refused the key; submissions wait until the settings change. */
  authProblem: string | null;
  /**
   * How many tasks the service showed it takes at once (it held or refused more), below the
   * setting; null while unknown. The engine sends no more than this, and says why.
   */
  serviceLimit: number | null;
  serviceLimitReason: string | null;
  /** Epoch ms of the next attempt while offline or rate limited. */
  nextAttemptAt: number | null;
  queued: number;
  activeRemote: number;
  /**
   * Set while the library cannot record changes (disk full, a disk error): nothing is sent,
   * fetched or downloaded until a write succeeds again, and this says why. null otherwise.
   */
  storageProblem: string | null;
  /**
   * What runs at the service under this key, read from its running-task counts now and then:
   * `running` (processing), `waiting` (pending or staged), and how many of them are not this
   * library's (`fromElsewhere`: they take slots of the plan too). null while unknown or when
   * the service does not tell.
   */
  atService: AtService | null;
  /** Retention's run while it goes on after the opening or a switch on (null: none under way). */
  retentionRun: RetentionRunProgress | null;
}

export interface AtService {
  running: number;
  waiting: number;
  fromElsewhere: number;
}
