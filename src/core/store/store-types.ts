/**
 * The shapes the library store takes and gives besides the shared Task model and the list,
 * count and cost shapes of src/shared/task/library-queries.ts.
 */
import type {
  BatchPlace,
  OutputKind,
  OutputState,
  Task,
  TaskError,
  TaskFamily,
  TaskInput,
  TaskOutput,
  TaskState,
} from '../../shared/index.ts';
import type { CorruptTaskRowError } from './store-errors.ts';

/** What is needed to create a task. The store sets state `queued`, family, favorite and the timestamps. */
export interface NewTask {
  /** Local id; a random UUID when absent. */
  id?: string;
  model: string;
  taskType: string;
  /**
   * The catalog entry (`<model name>/<task type>`); when absent, the entry of the model and task
   * type (without overrides: the engine passes the one it resolved), null when the catalog has none.
   */
  entryId?: string | null;
  /** Derived from the entry (familyOf); when given it must agree. */
  family?: TaskFamily;
  title: string;
  request: Task['request'];
  inputs?: readonly TaskInput[];
  estimateMicros?: number | null;
  expectedMs?: number | null;
  /** The task it was made from (it must be in the library) and the output of it used (null: none). */
  parentId?: string | null;
  parentOutput?: number | null;
  batchId?: string | null;
  /** Its place in its batch (1 to the batch's count), with `batchId`. */
  batchPlace?: BatchPlace;
  /** The detail of its first event (`queued`), e.g. how a previous result is sent. */
  queuedDetail?: string | null;
  /** ISO time; now when absent. Stored normalised to UTC (`…Z`) so it sorts as text. */
  createdAt?: string;
  favorite?: boolean;
}

/**
 * Fields that change without (or with) a state change. A field left `undefined` is kept;
 * `null` clears it. Timestamps are ISO text, stored normalised to UTC.
 */
export interface TaskPatch {
  remoteId?: string | null;
  remoteStatus?: string | null;
  usage?: Task['usage'];
  error?: TaskError | null;
  submittedAt?: string | null;
  remoteCreatedAt?: string | null;
  startedAt?: string | null;
  endedAt?: string | null;
  savedAt?: string | null;
  /** Engine bookkeeping (see PollSchedule), set with a state change; alone, use setPollSchedule. */
  nextPollAt?: number | null;
  pollCount?: number;
  title?: string;
  settlement?: Task['settlement'];
  cost?: Task['cost'];
}

/**
 * The engine's bookkeeping of a task the service holds: kept in the task's row but no part of
 * the shared Task (the window never shows it), read with pollSchedule and written with
 * setPollSchedule, which leaves `updatedAt` alone.
 */
export interface PollSchedule {
  /** When the next status fetch is due (milliseconds since the epoch); null when none is. */
  nextPollAt: number | null;
  /** How many status fetches were answered since the service took the task. */
  pollCount: number;
}

/**
 * The task's status answers that could not be read, in a row (engine bookkeeping like
 * PollSchedule, kept apart from it): how many, and when the first came (epoch ms; null when none).
 */
export interface UnreadableAnswers {
  count: number;
  since: number | null;
}

/** A task row as stored: the Task's fields and the engine's bookkeeping. */
export type StoredTask = Task & PollSchedule;

export interface TransitionOptions {
  /** The move only happens when the current state is one of these; otherwise nothing changes and null is returned. */
  from?: readonly TaskState[];
  patch?: TaskPatch;
  /** Free text kept with the event (e.g. why a task failed). */
  detail?: string;
  /**
   * Commit so that even a power loss cannot undo it (one fsync). Use it for the move to
   * `submitting` made just before a create is sent, so a paid request is never sent twice.
   */
  durable?: boolean;
}

/** A new output as the service reported it; stored with state `pending`. */
export interface NewOutput {
  kind: OutputKind;
  url: string;
  field: string;
}

/** What a download changes on an output. `undefined` keeps a field, `null` clears it. */
export interface OutputPatch {
  state?: OutputState;
  /** A `file` output's kind once its saved bytes show what it is (output-saving.ts). */
  kind?: OutputKind;
  /** The service's URL; a saved inline (`data:`) output's is replaced by SAVED_INLINE_OUTPUT_URL. */
  url?: string;
  path?: string | null;
  thumbPath?: string | null;
  mime?: string | null;
  size?: number | null;
  sha256?: string | null;
  width?: number | null;
  height?: number | null;
  durationSeconds?: number | null;
  error?: string | null;
}

/** A finished task's service-side duration, as durationHistory reads it from the library. */
export interface DurationRow {
  /** Service-side duration: remoteCreatedAt (or submittedAt) to endedAt. */
  durationMs: number;
  request: Task['request'];
  endedAt: string;
}

/** Where an input is among all tasks' inputs: its task, and its position there. */
export interface Base64InputPlace {
  taskId: string;
  idx: number;
}

/** An input still stored as Base64 text (a library written before inputs became files). */
export interface StoredBase64Input extends Base64InputPlace {
  input: TaskInput;
}

export interface DeletedTaskFiles {
  /** False when no task had this id (the arrays are then empty). */
  deleted: boolean;
  /** The task's inputs; `file` ones name files under the library folder the caller may remove. */
  inputs: TaskInput[];
  /** The task's outputs; `path`/`thumbPath` name files the caller may remove. */
  outputs: TaskOutput[];
}

export interface StoreOptions {
  /** Clock for updated_at and event times; tests pin it. */
  now?: () => Date;
  /**
   * Open an existing library only to read (beside the process that has it open): a read-only
   * connection, no migration (an older schema is refused: SchemaBehindError), nothing written at close.
   */
  readOnly?: boolean;
  /**
   * After writes, a WAL checkpoint runs once no write came for this long (ms, default 1000; 0 turns
   * it off and leaves checkpoints to SQLite's automatic one and to `checkpoint()`).
   */
  idleCheckpointMs?: number;
  /** Busy timeout in ms (default 5000). */
  busyTimeoutMs?: number;
  /**
   * Where a count the running totals cannot answer (a search, a board, a model) stops and says
   * `capped` (default COUNT_CAP, 1,000); tests lower it.
   */
  countCap?: number;
  /**
   * Told about each row skipped because it could not be read (in listTasks, tasksInStates,
   * nextQueued, dueForPoll, durationHistory, deleteTask), so one bad row never stops the engine.
   */
  onUnreadableTask?: (error: CorruptTaskRowError) => void;
  /**
   * Told about a failure of the store's own background work (the idle WAL checkpoint, e.g. on a
   * full disk), which never throws: nobody would catch it. Default: ignored (the checkpoint runs
   * again after the next write).
   */
  onBackgroundError?: (error: Error) => void;
}
