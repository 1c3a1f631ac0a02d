/**
 * The library database of one library folder: tasks, their inputs, outputs and event log, and
 * settings. Synchronous like node:sqlite; every change that belongs together is one transaction.
 * Long because every query of the library lives here behind one class; one column table driving
 * the statements (so this shrinks) is planned with the code-structure issue (issue 10).
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { z } from 'zod';
import {
  isTaskState,
  TASK_STATES,
  type Task,
  type TaskEvent,
  type TaskOutput,
  type TaskState,
} from '../../shared/index.ts';
import type { SetClause } from './column-table.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './database-connection.ts';
import { CONSISTENCY_SQL, type FixedStatements, prepareFixedStatements } from './fixed-statements.ts';
import { OUTPUT_TABLE } from './input-output-columns.ts';
import {
  buildCountQuery,
  buildListQuery,
  buildOldestInStatesQuery,
  buildTotalsCountQuery,
  countableFromTotals,
  decodeCursor,
  encodeCursor,
  filterStates,
  type PagePosition,
  pageSize,
} from './list-query.ts';
import { runMigrations } from './migration-runner.ts';
import { MIGRATIONS } from './migrations.ts';
import { newOutputRows, newTaskRows } from './new-task-row.ts';
import { nextSeq } from './sort-key.ts';
import { StatementCache } from './statement-cache.ts';
import { CorruptTaskRowError, LibraryStoreError } from './store-errors.ts';
import type {
  CostSummary,
  DeletedTaskFiles,
  DurationSample,
  ListQuery,
  NewOutput,
  NewTask,
  OutputPatch,
  StoreOptions,
  TaskCounts,
  TaskFilter,
  TaskPage,
  TaskPatch,
  TaskSummary,
  TransitionOptions,
  UnreadableTask,
} from './store-types.ts';
import { parseRequestJson, TASK_TABLE } from './task-columns.ts';
import {
  inputFromRow,
  outputFromRow,
  rowTaskId,
  type SqlRow,
  summaryFromRow,
  taskFromRows,
} from './task-row.ts';

export interface TransactionOptions {
  /**
   * Make the commit survive a power loss, not only an app crash: the outermost commit runs with
   * `synchronous=FULL` (one fsync of the WAL). Inside an outer transaction, the outer commit is
   * followed by a WAL checkpoint, which fsyncs the WAL as well.
   */
  durable?: boolean;
}

const DEFAULT_IDLE_CHECKPOINT_MS = 1000;
/** The settings key probeWrite adds and removes; never left in the table. */
const WRITE_PROBE_KEY = 'store.writeProbe';
const NO_CLAUSE: SetClause = { assignments: [], params: {} };
const CONSUME_DECIMALS = 1e9;

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function positiveLimit(limit: number, what: string): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new LibraryStoreError(`${what} must be a positive integer`);
  }
  return limit;
}

function assertStates(states: readonly TaskState[]): void {
  for (const s of states) {
    if (!isTaskState(s)) throw new LibraryStoreError(`Unknown task state: ${String(s)}`);
  }
}

export class LibraryStore {
  /** Absolute path of the database file. */
  readonly file: string;
  readonly #db: DatabaseSync;
  readonly #sql: FixedStatements;
  readonly #cache: StatementCache;
  readonly #now: () => Date;
  readonly #onUnreadable: (error: CorruptTaskRowError) => void;
  readonly #onBackgroundError: (error: Error) => void;
  readonly #idleCheckpointMs: number;
  #idleTimer: NodeJS.Timeout | null = null;
  #depth = 0;
  #checkpointAfterCommit = false;
  #closed = false;

  private constructor(db: DatabaseSync, file: string, options: StoreOptions) {
    this.#db = db;
    this.file = file;
    this.#now = options.now ?? (() => new Date());
    this.#onUnreadable = options.onUnreadableTask ?? (() => {});
    this.#onBackgroundError = options.onBackgroundError ?? (() => {});
    this.#idleCheckpointMs = options.idleCheckpointMs ?? DEFAULT_IDLE_CHECKPOINT_MS;
    this.#sql = prepareFixedStatements(db);
    this.#cache = new StatementCache(db);
  }

  /** Opens (creating the folder and file when needed) `<libraryDir>/library.sqlite` and migrates it. */
  static open(libraryDir: string, options: StoreOptions = {}): LibraryStore {
    const { db, file } = openDatabase(libraryDir, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    try {
      runMigrations(db, MIGRATIONS, file);
      return new LibraryStore(db, file, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    try {
      this.#db.exec('PRAGMA optimize');
    } finally {
      this.#db.close();
    }
  }

  // ---- transactions -------------------------------------------------------------------------

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on a throw). A call
   * inside another joins it as a savepoint: its own throw undoes only its part, and nothing is
   * committed before the outermost call returns. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T, options: TransactionOptions = {}): T {
    if (this.#depth > 0) return this.#nested(fn, options);
    const durable = options.durable === true;
    if (durable) this.#db.exec('PRAGMA synchronous = FULL');
    try {
      return this.#outermost(fn);
    } finally {
      if (durable) this.#db.exec('PRAGMA synchronous = NORMAL');
    }
  }

  #outermost<T>(fn: () => T): T {
    this.#sql.begin.run();
    this.#depth = 1;
    this.#checkpointAfterCommit = false;
    let result: T;
    try {
      result = this.#call(fn);
      this.#sql.commit.run();
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

  /**
   * Copies the WAL into the database file now (PASSIVE: never waits for readers or writers of
   * other connections). The store does this by itself once writes pause; call it to choose the moment.
   */
  checkpoint(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    if (!this.#closed) this.#db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  }

  /**
   * A small write that needs room in the database (a settings row added and removed in one
   * transaction): throws, like any write, while the library cannot take writes (disk full).
   */
  probeWrite(): void {
    this.transaction(() => {
      this.#sql.setSetting.run({ key: WRITE_PROBE_KEY, value: JSON.stringify(this.#nowIso()) });
      this.#sql.deleteSetting.run(WRITE_PROBE_KEY);
    });
  }

  /**
   * Debounced: the checkpoint runs when no write came for idleCheckpointMs. Never keeps the
   * process alive, and never throws: a failure (disk full) goes to onBackgroundError.
   */
  #armIdleCheckpoint(): void {
    if (this.#idleCheckpointMs <= 0) return;
    if (this.#idleTimer) {
      this.#idleTimer.refresh();
      return;
    }
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      if (this.#depth === 0) this.#idleCheckpoint();
    }, this.#idleCheckpointMs);
    this.#idleTimer.unref();
  }

  #idleCheckpoint(): void {
    try {
      this.checkpoint();
    } catch (error) {
      this.#onBackgroundError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #nested<T>(fn: () => T, options: TransactionOptions): T {
    const name = `nested_${this.#depth}`;
    this.#db.exec(`SAVEPOINT ${name}`);
    this.#depth += 1;
    try {
      const result = this.#call(fn);
      this.#db.exec(`RELEASE ${name}`);
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
      this.#db.exec(`ROLLBACK TO ${name}`);
      this.#db.exec(`RELEASE ${name}`);
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
      this.#sql.rollback.run();
    } catch {
      // No transaction left to roll back (SQLite already ended it).
    }
  }

  /** Several reads seen from one snapshot (joins a transaction already open). */
  #snapshot<T>(fn: () => T): T {
    if (this.#depth > 0) return fn();
    this.#sql.beginRead.run();
    this.#depth = 1;
    try {
      return fn();
    } finally {
      this.#depth = 0;
      this.#rollbackQuietly();
    }
  }

  #nowIso(): string {
    return this.#now().toISOString();
  }

  // ---- tasks ----------------------------------------------------------------------------------

  /** Creates a task in state `queued` with its inputs and its first event, in one transaction. */
  insertTask(task: NewTask): Task {
    const now = this.#nowIso();
    const rows = newTaskRows(task, now);
    return this.transaction(() => {
      if (this.#sql.taskExists.get(rows.id))
        throw new LibraryStoreError(`A task with id ${rows.id} already exists`);
      if (rows.rerunOf !== null && !this.#sql.taskExists.get(rows.rerunOf)) {
        throw new LibraryStoreError(`rerunOf ${rows.rerunOf} is not a task of this library`);
      }
      const seq = nextSeq(String(rows.task.created_at), (lo, hi) => {
        const found = this.#sql.highestSeqIn.get(lo, hi)?.seq;
        return typeof found === 'number' ? found : null;
      });
      this.#sql.insertTask.run({ ...rows.task, seq });
      for (const input of rows.inputs) this.#sql.insertInput.run(input);
      this.#appendEvent(rows.id, now, null, 'queued', null);
      return this.#mustGet(rows.id);
    });
  }

  /** The task with its inputs and outputs; null when absent. Throws CorruptTaskRowError for an unreadable row. */
  getTask(id: string): Task | null {
    return this.#snapshot(() => this.#readTask(this.#sql.taskById.get(id)));
  }

  getTaskByRemoteId(remoteId: string): Task | null {
    return this.#snapshot(() => this.#readTask(this.#sql.taskByRemoteId.get(remoteId)));
  }

  #readTask(row: SqlRow | undefined): Task | null {
    if (!row) return null;
    const id = rowTaskId(row);
    return taskFromRows(row, this.#sql.inputsOf.all(id), this.#sql.outputsOf.all(id));
  }

  #mustGet(id: string): Task {
    const task = this.#readTask(this.#sql.taskById.get(id));
    if (!task) throw new LibraryStoreError(`Task ${id} vanished inside its own transaction`);
    return task;
  }

  /**
   * Moves a task to `to`, applying `patch` and appending the event, in one transaction. With
   * `from`, nothing changes and null is returned unless the current state is one of them. null
   * too when there is no such task.
   */
  transition(id: string, to: TaskState, options: TransitionOptions = {}): Task | null {
    assertStates([to]);
    if (options.from) assertStates(options.from);
    const clause = options.patch ? TASK_TABLE.patchClause(options.patch, 'task patch') : NO_CLAUSE;
    const now = this.#nowIso();
    const move = () => {
      const current = this.#sql.stateById.get(id);
      if (!current) return null;
      const from = String(current.state);
      if (options.from && !(options.from as readonly string[]).includes(from)) return null;
      this.#update(id, now, clause, to);
      this.#appendEvent(id, now, from, to, options.detail ?? null);
      return this.#mustGet(id);
    };
    return this.transaction(move, { durable: options.durable === true });
  }

  /** Changes fields without a state change (no event). null when there is no such task. */
  patchTask(id: string, patch: TaskPatch): Task | null {
    const clause = TASK_TABLE.patchClause(patch, 'task patch');
    const now = this.#nowIso();
    return this.transaction(() => {
      if (!this.#sql.taskExists.get(id)) return null;
      if (clause.assignments.length > 0) this.#update(id, now, clause, null);
      return this.#mustGet(id);
    });
  }

  #update(id: string, now: string, clause: SetClause, state: TaskState | null): void {
    const sets = [...clause.assignments, 'updated_at = $updated_at'];
    const params: Record<string, SQLInputValue> = { ...clause.params, updated_at: now, id };
    if (state !== null) {
      sets.unshift('state = $state');
      params.state = state;
    }
    this.#cache.get(`UPDATE tasks SET ${sets.join(', ')} WHERE id = $id`).run(params);
  }

  #appendEvent(taskId: string, at: string, from: string | null, to: string, detail: string | null): void {
    this.#sql.insertEvent.run({ task_id: taskId, at, from_state: from, to_state: to, detail });
  }

  setFavorite(id: string, on: boolean): Task | null {
    const now = this.#nowIso();
    return this.transaction(() => {
      const changed = this.#sql.setFavorite.run({ id, favorite: on ? 1 : 0, updated_at: now });
      return Number(changed.changes) === 0 ? null : this.#mustGet(id);
    });
  }

  rename(id: string, title: string): Task | null {
    return this.patchTask(id, { title });
  }

  /**
   * Deletes a task with its inputs and outputs (cascade) and returns them, so the caller can remove
   * their files. The event log keeps the task's events and gains a last one with detail `deleted`.
   */
  deleteTask(id: string): DeletedTaskFiles {
    const now = this.#nowIso();
    return this.transaction(() => {
      const current = this.#sql.stateById.get(id);
      if (!current) return { deleted: false, inputs: [], outputs: [] };
      const inputs = this.#readableRows(this.#sql.inputsOf.all(id), (r) => inputFromRow(r, id));
      const outputs = this.#readableRows(this.#sql.outputsOf.all(id), (r) => outputFromRow(r, id));
      const state = String(current.state);
      this.#appendEvent(id, now, state, state, 'deleted');
      this.#sql.deleteTask.run(id);
      return { deleted: true, inputs, outputs };
    });
  }

  /** Maps rows, reporting (not throwing) the ones that cannot be read. */
  #readableRows<T>(rows: readonly SqlRow[], read: (row: SqlRow) => T): T[] {
    const out: T[] = [];
    for (const row of rows) {
      try {
        out.push(read(row));
      } catch (error) {
        if (!(error instanceof CorruptTaskRowError)) throw error;
        this.#onUnreadable(error);
      }
    }
    return out;
  }

  // ---- outputs --------------------------------------------------------------------------------

  /** Replaces the task's outputs with these, each `pending`. Returns them; null when there is no such task. */
  replaceOutputs(taskId: string, outputs: readonly NewOutput[]): TaskOutput[] | null {
    const rows = newOutputRows(taskId, outputs);
    return this.transaction(() => {
      if (!this.#sql.taskExists.get(taskId)) return null;
      this.#sql.deleteOutputs.run(taskId);
      for (const row of rows) this.#sql.insertOutput.run(row);
      return this.#sql.outputsOf.all(taskId).map((r) => outputFromRow(r, taskId));
    });
  }

  /** Applies a patch to one output; returns it, or null when there is no such output. */
  updateOutput(taskId: string, index: number, patch: OutputPatch): TaskOutput | null {
    const clause = OUTPUT_TABLE.patchClause(patch, 'output patch');
    return this.transaction(() => {
      if (clause.assignments.length > 0) {
        const sql = `UPDATE task_outputs SET ${clause.assignments.join(', ')} WHERE task_id = $task_id AND idx = $idx`;
        this.#cache.get(sql).run({ ...clause.params, task_id: taskId, idx: index });
      }
      const row = this.#sql.outputOf.get(taskId, index);
      return row ? outputFromRow(row, taskId) : null;
    });
  }

  // ---- lists ----------------------------------------------------------------------------------

  /** One page, newest first (or favorites first). Items carry outputs but not inputs (TaskSummary). */
  listTasks(query: ListQuery = {}): TaskPage {
    const order = query.order ?? 'newest';
    const size = pageSize(query.limit);
    const at = query.cursor ? decodeCursor(query.cursor, order) : null;
    const built = buildListQuery(query, at, size);
    if (built === null) return { items: [], nextCursor: null, unreadable: [] };
    return this.#snapshot(() => {
      const rows = this.#cache.get(built.sql).all(built.params);
      const page = rows.slice(0, size);
      const last = page[page.length - 1];
      const nextCursor = rows.length > size && last ? encodeCursor(order, positionOf(last)) : null;
      return { ...this.#summaries(page), nextCursor };
    });
  }

  #summaries(rows: readonly SqlRow[]): { items: TaskSummary[]; unreadable: UnreadableTask[] } {
    const items: TaskSummary[] = [];
    const unreadable: UnreadableTask[] = [];
    for (const row of rows) {
      const id = rowTaskId(row);
      try {
        items.push(
          summaryFromRow(
            row,
            this.#sql.outputsOf.all(id).map((o) => outputFromRow(o, id)),
          ),
        );
      } catch (error) {
        if (!(error instanceof CorruptTaskRowError)) throw error;
        unreadable.push({ id, message: error.message });
        this.#onUnreadable(error);
      }
    }
    return { items, unreadable };
  }

  /** Full tasks of rows, skipping (and reporting through onUnreadableTask) the unreadable ones. */
  #tasks(rows: readonly SqlRow[]): Task[] {
    return this.#readableRows(rows, (row) => {
      const id = rowTaskId(row);
      return taskFromRows(row, this.#sql.inputsOf.all(id), this.#sql.outputsOf.all(id));
    });
  }

  /** Counts with the same filters as listTasks. */
  countTasks(filter: TaskFilter = {}): TaskCounts {
    const states = filterStates(filter);
    const built = countableFromTotals(filter) ? buildTotalsCountQuery(filter) : buildCountQuery(filter);
    const byState: Record<string, number> = {};
    for (const s of states ?? TASK_STATES) byState[s] = 0;
    if (built === null) return { total: 0, byState };
    const wanted = states === null ? null : new Set<string>(states);
    let total = 0;
    for (const row of this.#cache.get(built.sql).all(built.params)) {
      const state = String(row.state);
      if (wanted !== null && !wanted.has(state)) continue;
      const n = Number(row.n);
      byState[state] = (byState[state] ?? 0) + n;
      total += n;
    }
    return { total, byState };
  }

  /** Tasks in any of these states, oldest (first inserted) first. For recovery and the queue. */
  tasksInStates(states: readonly TaskState[], limit?: number): Task[] {
    assertStates(states);
    const max = limit === undefined ? -1 : positiveLimit(limit, 'limit');
    const built = buildOldestInStatesQuery(states, max);
    if (built === null) return [];
    return this.#snapshot(() => this.#tasks(this.#cache.get(built.sql).all(built.params)));
  }

  countInStates(states: readonly TaskState[]): number {
    assertStates(states);
    return Number(this.#sql.countInStates.get({ states: JSON.stringify(states) })?.n ?? 0);
  }

  /** Queued tasks in the order they were queued. */
  nextQueued(limit: number): Task[] {
    const max = positiveLimit(limit, 'limit');
    return this.#snapshot(() => this.#tasks(this.#sql.nextQueued.all({ limit: max })));
  }

  /** Tasks the service holds (pending, staged, processing) whose next poll is due, earliest first. */
  dueForPoll(nowMs: number, limit: number): Task[] {
    const max = positiveLimit(limit, 'limit');
    return this.#snapshot(() =>
      this.#tasks(this.#sql.dueForPoll.all({ now: Math.floor(nowMs), limit: max })),
    );
  }

  events(taskId: string): TaskEvent[] {
    return this.#sql.eventsOf.all(taskId).map((row) => ({
      taskId: String(row.task_id),
      at: String(row.at),
      from: row.from_state === null ? null : (String(row.from_state) as TaskState),
      to: String(row.to_state) as TaskState,
      detail: row.detail === null ? null : String(row.detail),
    }));
  }

  // ---- aggregates -----------------------------------------------------------------------------

  /** Estimates and reported usage over all tasks but cancelled ones. */
  costSummary(): CostSummary {
    const row = this.#sql.costSummary.get();
    return {
      estimateMicros: Number(row?.estimate_micros ?? 0),
      // The running sum adds and subtracts floats; round away the last-bit noise.
      consume: Math.round(Number(row?.consume ?? 0) * CONSUME_DECIMALS) / CONSUME_DECIMALS,
      spentMicros: Math.round(Number(row?.spent_micros ?? 0)),
      tasks: Number(row?.tasks ?? 0),
    };
  }

  /**
   * Service-side durations (remoteCreatedAt, else submittedAt, to endedAt) of the most recent tasks
   * of this model and type that the service finished (completed, downloading, saved, expired),
   * newest first. Rows with unusable times or an unreadable request are skipped.
   */
  durationHistory(model: string, taskType: string, limit = 50): DurationSample[] {
    const max = positiveLimit(limit, 'limit');
    const rows = this.#sql.durationHistory.all({ model, task_type: taskType, limit: max });
    const samples: DurationSample[] = [];
    for (const row of rows) {
      const sample = this.#durationSample(row);
      if (sample) samples.push(sample);
    }
    return samples;
  }

  #durationSample(row: SqlRow): DurationSample | null {
    const endedAt = String(row.ended_at);
    const durationMs = Date.parse(endedAt) - Date.parse(String(row.began_at));
    if (!Number.isFinite(durationMs) || durationMs < 0) return null;
    try {
      return { durationMs, endedAt, request: parseRequestJson(String(row.request_json), rowTaskId(row)) };
    } catch (error) {
      if (!(error instanceof CorruptTaskRowError)) throw error;
      this.#onUnreadable(error);
      return null;
    }
  }

  // ---- settings -------------------------------------------------------------------------------

  /** The stored value, or null when unset. With a schema, a stored value that fails it throws. */
  getSetting<T>(key: string, schema?: z.ZodType<T>): T | null {
    const row = this.#sql.getSetting.get(key);
    if (!row) return null;
    const value: unknown = JSON.parse(String(row.value));
    if (!schema) return value as T;
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new LibraryStoreError(`Setting ${key} has an unexpected value: ${parsed.error.message}`);
    return parsed.data;
  }

  /** Stores any JSON value (undefined is refused; use deleteSetting). */
  setSetting(key: string, value: unknown): void {
    const json = JSON.stringify(value);
    if (json === undefined) throw new LibraryStoreError(`Setting ${key}: value cannot be stored as JSON`);
    this.transaction(() => this.#sql.setSetting.run({ key, value: json }));
  }

  deleteSetting(key: string): boolean {
    return this.transaction(() => Number(this.#sql.deleteSetting.run(key).changes) > 0);
  }

  // ---- health ---------------------------------------------------------------------------------

  /**
   * 'ok' when SQLite's integrity_check, the foreign keys, the full-text index (against its content
   * table) and the running totals all agree; otherwise one line per problem.
   */
  integrityCheck(): string {
    const problems = this.#db
      .prepare('PRAGMA integrity_check')
      .all()
      .map((r) => String(r.integrity_check))
      .filter((line) => line !== 'ok');
    const orphans = this.#db.prepare(CONSISTENCY_SQL.foreignKeys).all();
    if (orphans.length > 0) problems.push(`foreign keys: ${orphans.length} row(s) point at missing tasks`);
    try {
      this.#db.exec(CONSISTENCY_SQL.fts);
    } catch (error) {
      problems.push(`full-text index: ${(error as Error).message}`);
    }
    const drift = this.#db.prepare(CONSISTENCY_SQL.totals).all();
    if (drift.length > 0) problems.push(`task totals: ${drift.length} group(s) differ from the tasks`);
    return problems.length === 0 ? 'ok' : problems.join('\n');
  }
}

function positionOf(row: SqlRow): PagePosition {
  return {
    favorite: Number(row.favorite) === 1 ? 1 : 0,
    seq: Number(row.seq),
  };
}
