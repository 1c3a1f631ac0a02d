/**
 * What every part of the library store shares: the open database, its prepared statements, the
 * clock, transactions (with savepoints when nested), read snapshots and the idle WAL checkpoint.
 * The parts (task-records, output-records, task-lists, settings-records, maintenance) each take
 * one StoreCore; LibraryStore puts them behind its one public API.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Task, TaskState } from '../../shared/index.ts';
import { COUNT_CAP, isTaskState } from '../../shared/index.ts';
import { DEFAULT_BUSY_TIMEOUT_MS } from './database-connection.ts';
import { type FixedStatements, prepareFixedStatements } from './fixed-statements.ts';
import { mergeSearchStep, SEARCH_MERGE_PAGES } from './search-merge.ts';
import { StatementCache } from './statement-cache.ts';
import { CorruptTaskRowError, LibraryStoreError } from './store-errors.ts';
import type { StoreOptions } from './store-types.ts';
import { rowTaskId, type SqlRow, taskFromRows } from './task-row.ts';

export interface TransactionOptions {
  /**
   * Make the commit survive a power loss, not only an app crash: the outermost commit runs with
   * `synchronous=FULL` (one fsync of the WAL). Inside an outer transaction, the outer commit is
   * followed by a WAL checkpoint, which fsyncs the WAL as well.
   */
  durable?: boolean;
}

const DEFAULT_IDLE_CHECKPOINT_MS = 1000;
/** Steps of the search index's merging between two checkpoints when writes pause (~1,000 WAL pages). */
const MERGE_STEPS_PER_CHECKPOINT = 16;

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export function positiveLimit(limit: number, what: string): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new LibraryStoreError(`${what} must be a positive integer`);
  }
  return limit;
}

export function assertStates(states: readonly TaskState[]): void {
  for (const s of states) {
    if (!isTaskState(s)) throw new LibraryStoreError(`Unknown task state: ${String(s)}`);
  }
}

export class StoreCore {
  /** Absolute path of the database file. */
  readonly file: string;
  readonly db: DatabaseSync;
  readonly sql: FixedStatements;
  /** Prepared statements of the queries whose SQL depends on their arguments. */
  readonly cache: StatementCache;
  /** Told about each row skipped because it could not be read. */
  readonly onUnreadable: (error: CorruptTaskRowError) => void;
  /** Where a count read from the tasks themselves stops (StoreOptions.countCap). */
  readonly countCap: number;
  readonly #now: () => Date;
  readonly #readOnly: boolean;
  readonly #onBackgroundError: (error: Error) => void;
  readonly #idleCheckpointMs: number;
  readonly #busyTimeoutMs: number;
  #idleTimer: NodeJS.Timeout | null = null;
  /** The idle timer's delay: the pause after writes, or 0 between two steps of the idle work. */
  #idleTimerMs = 0;
  #mergeStepsSinceCheckpoint = 0;
  #depth = 0;
  #checkpointAfterCommit = false;
  #closed = false;

  constructor(db: DatabaseSync, file: string, options: StoreOptions) {
    this.db = db;
    this.file = file;
    this.#now = options.now ?? (() => new Date());
    this.#readOnly = options.readOnly === true;
    this.onUnreadable = options.onUnreadableTask ?? (() => {});
    this.#onBackgroundError = options.onBackgroundError ?? (() => {});
    this.#idleCheckpointMs = options.idleCheckpointMs ?? DEFAULT_IDLE_CHECKPOINT_MS;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.countCap = options.countCap ?? COUNT_CAP;
    this.sql = prepareFixedStatements(db);
    this.cache = new StatementCache(db);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    try {
      if (!this.#readOnly) this.db.exec('PRAGMA optimize');
    } finally {
      this.db.close();
    }
  }

  nowIso(): string {
    return this.#now().toISOString();
  }

  // ---- transactions -------------------------------------------------------------------------

  /** See LibraryStore.transaction. */
  transaction<T>(fn: () => T, options: TransactionOptions = {}): T {
    if (this.#depth > 0) return this.#nested(fn, options);
    const durable = options.durable === true;
    if (durable) this.db.exec('PRAGMA synchronous = FULL');
    try {
      return this.#outermost(fn);
    } finally {
      if (durable) this.db.exec('PRAGMA synchronous = NORMAL');
    }
  }

  #outermost<T>(fn: () => T): T {
    this.sql.begin.run();
    this.#depth = 1;
    this.#checkpointAfterCommit = false;
    let result: T;
    try {
      result = this.#call(fn);
      this.sql.commit.run();
    } catch (error) {
      this.#rollbackQuietly();
      throw error;
    } finally {
      this.#depth = 0;
    }
    if (this.#checkpointAfterCommit) this.checkpoint();
    else this.#armIdleCheckpoint();
    return result;
  }

  /** See LibraryStore.checkpoint. */
  checkpoint(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    this.#mergeStepsSinceCheckpoint = 0;
    if (!this.#closed) this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  }

  /** See LibraryStore.mergeSearchIndex. */
  mergeSearchStep(pages = SEARCH_MERGE_PAGES): boolean {
    if (this.#closed || this.#readOnly || this.#depth > 0) return false;
    return mergeSearchStep(this, pages, this.#busyTimeoutMs);
  }

  /**
   * Debounced: the checkpoint runs when no write came for idleCheckpointMs. Never keeps the
   * process alive, and never throws: a failure (disk full) goes to onBackgroundError.
   */
  #armIdleCheckpoint(): void {
    if (this.#idleCheckpointMs <= 0) return;
    this.#armIdleWork(this.#idleCheckpointMs);
  }

  #armIdleWork(ms: number): void {
    if (this.#idleTimer && this.#idleTimerMs === ms) {
      this.#idleTimer.refresh();
      return;
    }
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimerMs = ms;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      if (this.#depth === 0) this.#idleCheckpoint();
    }, ms);
    this.#idleTimer.unref();
  }

  /**
   * The work of a pause in writes, a step per turn of the event loop: the search index's merging
   * (a write that comes meanwhile puts the rest off to the next pause), then the checkpoint.
   */
  #idleCheckpoint(): void {
    try {
      if (this.mergeSearchStep()) {
        this.#mergeStepsSinceCheckpoint += 1;
        if (this.#mergeStepsSinceCheckpoint >= MERGE_STEPS_PER_CHECKPOINT) this.checkpoint();
        this.#armIdleWork(0);
        return;
      }
      this.checkpoint();
    } catch (error) {
      this.#onBackgroundError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #nested<T>(fn: () => T, options: TransactionOptions): T {
    const name = `nested_${this.#depth}`;
    this.db.exec(`SAVEPOINT ${name}`);
    this.#depth += 1;
    try {
      const result = this.#call(fn);
      this.db.exec(`RELEASE ${name}`);
      if (options.durable) this.#checkpointAfterCommit = true;
      return result;
    } catch (error) {
      this.#undoSavepoint(name);
      throw error;
    } finally {
      this.#depth -= 1;
    }
  }

  #undoSavepoint(name: string): void {
    try {
      this.db.exec(`ROLLBACK TO ${name}`);
      this.db.exec(`RELEASE ${name}`);
    } catch {
      // SQLite already rolled the whole transaction back (e.g. disk full); the outer call will see it.
    }
  }

  #call<T>(fn: () => T): T {
    const result = fn();
    if (isThenable(result)) {
      throw new LibraryStoreError('A store transaction must be synchronous; the callback returned a promise');
    }
    return result;
  }

  #rollbackQuietly(): void {
    try {
      this.sql.rollback.run();
    } catch {
      // No transaction left to roll back (SQLite already ended it).
    }
  }

  /** Several reads seen from one snapshot (joins a transaction already open). */
  snapshot<T>(fn: () => T): T {
    if (this.#depth > 0) return fn();
    this.sql.beginRead.run();
    this.#depth = 1;
    try {
      return fn();
    } finally {
      this.#depth = 0;
      this.#rollbackQuietly();
    }
  }

  // ---- reading rows -------------------------------------------------------------------------

  /** The task of a row, with its inputs and outputs; null for no row. Throws CorruptTaskRowError. */
  taskOf(row: SqlRow | undefined): Task | null {
    if (!row) return null;
    const id = rowTaskId(row);
    return taskFromRows(row, this.sql.inputsOf.all(id), this.sql.outputsOf.all(id));
  }

  /** Full tasks of rows, skipping (and reporting through onUnreadableTask) the unreadable ones. */
  tasksOf(rows: readonly SqlRow[]): Task[] {
    return this.readableRows(rows, (row) => this.taskOf(row) as Task);
  }

  /** Maps rows, reporting (not throwing) the ones that cannot be read. */
  readableRows<T>(rows: readonly SqlRow[], read: (row: SqlRow) => T): T[] {
    const out: T[] = [];
    for (const row of rows) {
      try {
        out.push(read(row));
      } catch (error) {
        if (!(error instanceof CorruptTaskRowError)) throw error;
        this.onUnreadable(error);
      }
    }
    return out;
  }
}
