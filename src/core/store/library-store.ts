/**
 * The library database of one library folder: tasks, their inputs, outputs and event log, and
 * settings. Synchronous like node:sqlite; every change that belongs together is one transaction.
 * This class is the public API; the work is done by its parts, each over one StoreCore
 * (store-core.ts): task-records.ts, output-records.ts, task-lists.ts, settings-records.ts and
 * maintenance.ts.
 */
import type { z } from 'zod';
import type {
  BatchSummary,
  BoardChangeOutcome,
  BoardView,
  CostSummary,
  ListQuery,
  StateCounts,
  Task,
  TaskEvent,
  TaskFilter,
  TaskInput,
  TaskLineage,
  TaskOutput,
  TaskPage,
  TaskState,
} from '../../shared/index.ts';
import { BoardRecords } from './board-records.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './database-connection.ts';
import { InputRecords } from './input-records.ts';
import { TaskLineageRecords } from './lineage-records.ts';
import { integrityCheck, probeWrite } from './maintenance.ts';
import { assertSchemaCurrent, runMigrations } from './migration-runner.ts';
import { MIGRATIONS } from './migrations.ts';
import { OutputRecords } from './output-records.ts';
import { RetentionRecords } from './retention-records.ts';
import { SettingsRecords } from './settings-records.ts';
import { StoreCore, type TransactionOptions } from './store-core.ts';
import type {
  Base64InputPlace,
  DeletedTaskFiles,
  DurationRow,
  NewOutput,
  NewTask,
  OutputPatch,
  PollSchedule,
  StoredBase64Input,
  StoreOptions,
  TaskPatch,
  TransitionOptions,
  UnreadableAnswers,
} from './store-types.ts';
import { TaskLists } from './task-lists.ts';
import { TaskRecords } from './task-records.ts';
import { type SelectedTask, TrashRecords } from './trash-records.ts';

export class LibraryStore {
  /** Absolute path of the database file. */
  readonly file: string;
  readonly #core: StoreCore;
  readonly #tasks: TaskRecords;
  readonly #outputs: OutputRecords;
  readonly #inputs: InputRecords;
  readonly #lists: TaskLists;
  readonly #lineage: TaskLineageRecords;
  readonly #settings: SettingsRecords;
  readonly #trash: TrashRecords;
  readonly #boards: BoardRecords;
  readonly retention: RetentionRecords;

  private constructor(core: StoreCore) {
    this.#core = core;
    this.file = core.file;
    this.#tasks = new TaskRecords(core);
    this.#outputs = new OutputRecords(core);
    this.#inputs = new InputRecords(core);
    this.#lists = new TaskLists(core);
    this.#lineage = new TaskLineageRecords(core);
    this.#settings = new SettingsRecords(core);
    this.#trash = new TrashRecords(core);
    this.#boards = new BoardRecords(core);
    this.retention = new RetentionRecords(core);
  }

  /** Opens (creating when needed) `<libraryDir>/library.sqlite` and migrates it; see StoreOptions.readOnly. */
  static open(libraryDir: string, options: StoreOptions = {}): LibraryStore {
    const { db, file } = openDatabase(libraryDir, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, options);
    try {
      (options.readOnly ? assertSchemaCurrent : runMigrations)(db, MIGRATIONS, file);
      return new LibraryStore(new StoreCore(db, file, options));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    this.#core.close();
  }

  // ---- transactions and maintenance ---------------------------------------------------------

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on a throw). A call
   * inside another joins it as a savepoint: its own throw undoes only its part, and nothing is
   * committed before the outermost call returns. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T, options: TransactionOptions = {}): T {
    return this.#core.transaction(fn, options);
  }

  /** Copies the WAL into the database file now (PASSIVE: never waits); done by itself once writes pause. */
  checkpoint(): void {
    this.#core.checkpoint();
  }

  /** A step (~`pages` leaf pages, a few ms) of the search index's merging; false: none was due (or locked). */
  mergeSearchIndex(pages?: number): boolean {
    return this.#core.mergeSearchStep(pages);
  }

  /** A small write needing room (a settings row added and removed): throws while writes cannot go in (disk full). */
  probeWrite(): void {
    probeWrite(this.#core);
  }

  /** 'ok' when SQLite's integrity_check, foreign keys, full-text index and totals agree; else a line per problem. */
  integrityCheck(): string {
    return integrityCheck(this.#core);
  }

  // ---- tasks ----------------------------------------------------------------------------------

  /** Creates a task in state `queued` with its inputs and its first event, in one transaction. */
  insertTask(task: NewTask): Task {
    return this.#tasks.insert(task);
  }

  /** The task with its inputs and outputs; null when absent. Throws CorruptTaskRowError for an unreadable row. */
  getTask(id: string): Task | null {
    return this.#tasks.get(id);
  }

  getTaskByRemoteId(remoteId: string): Task | null {
    return this.#tasks.getByRemoteId(remoteId);
  }

  /**
   * The webhook secret a task was queued with ('' when none): a Task shows only whether one is
   * set (`secret_set`), so the engine reads it here to send the create, and nothing else does.
   */
  webhookSecretOf(id: string): string {
    return this.#tasks.webhookSecret(id);
  }

  /**
   * Moves a task to `to`, applying `patch` and appending the event, in one transaction. With
   * `from`, nothing changes and null is returned unless the current state is one of them. null
   * too when there is no such task.
   */
  transition(id: string, to: TaskState, options: TransitionOptions = {}): Task | null {
    return this.#tasks.transition(id, to, options);
  }

  /** Changes fields without a state change (no event). null when there is no such task. */
  patchTask(id: string, patch: TaskPatch): Task | null {
    return this.#tasks.patch(id, patch);
  }

  setFavorite(id: string, on: boolean): Task | null {
    return this.#tasks.setFavorite(id, on);
  }

  rename(id: string, title: string): Task | null {
    return this.#tasks.patch(id, { title });
  }

  /**
   * Deletes a task with its inputs and outputs (cascade) and returns them, so the caller can remove
   * their files. The event log keeps the task's events and gains a last one with detail `deleted`.
   */
  deleteTask(id: string): DeletedTaskFiles {
    return this.#tasks.delete(id);
  }

  /** deleteTask of each, in one transaction and one DELETE (see TaskRecords.deleteMany); in the order given. */
  deleteTasks(ids: readonly string[]): DeletedTaskFiles[] {
    return this.#tasks.deleteMany(ids);
  }

  events(taskId: string): TaskEvent[] {
    return this.#tasks.events(taskId);
  }

  // ---- Recently deleted -----------------------------------------------------------------------

  /**
   * Moves tasks to Recently deleted (`deletedAt` set to this time, ISO UTC), each with an event;
   * tasks already there are left as they are. Returns the ids moved. Nothing else changes: the
   * rows, inputs, outputs and files stay until deleteTask.
   */
  trashTasks(ids: readonly string[], deletedAt: string): string[] {
    return this.#trash.trash(ids, deletedAt);
  }

  /** Takes tasks out of Recently deleted, each with an event. Returns the ids restored. */
  restoreTasks(ids: readonly string[]): string[] {
    return this.#trash.restore(ids);
  }

  /**
   * Up to `limit` tasks a filter matches, but for `except`, newest first after the task with
   * seq `afterSeq` (null: from the newest): the pages a bulk action walks.
   */
  selectionPage(
    filter: TaskFilter,
    except: readonly string[],
    afterSeq: number | null,
    limit: number,
  ): SelectedTask[] {
    return this.#trash.selectionPage(filter, except, afterSeq, limit);
  }

  /** These ids' tasks with their state and deletedAt, in the order given; absent ids left out. */
  selectedTasks(ids: readonly string[]): SelectedTask[] {
    return this.#trash.selected(ids);
  }

  /** The ids of the tasks one delete moved to Recently deleted (all got exactly this deletedAt). */
  trashedAt(deletedAt: string): string[] {
    return this.#trash.trashedAt(deletedAt);
  }

  /** Up to `limit` ids of the tasks in Recently deleted since before `before` (ISO), oldest first. */
  trashedBefore(before: string, limit: number): string[] {
    return this.#trash.trashedBefore(before, limit);
  }

  // ---- boards (a task on any number; a board's tasks are the list's `board` filter) -------------

  /** Every board, A to Z, with how many tasks (not in Recently deleted) it holds. */
  boards(): BoardView[] {
    return this.#boards.list();
  }

  /** The board with this id, or with this name (any case); null when there is none. */
  board(idOrName: number | string): BoardView | null {
    return typeof idOrName === 'number' ? this.#boards.get(idOrName) : this.#boards.byName(idOrName);
  }

  /** Makes a board; refused (LibraryStoreError) for a bad name or one another board has. */
  createBoard(name: string): BoardView {
    return this.#boards.create(name);
  }

  /** The board of this name (any case), made when missing (adding by name); refused for a bad name. */
  boardNamedOrMade(name: string): BoardView {
    return this.#boards.namedOrMade(name);
  }

  /** Renames a board (same rules as createBoard); null when there is no such board. */
  renameBoard(id: number, name: string): BoardView | null {
    return this.#boards.rename(id, name);
  }

  /** Deletes a board, never its tasks; false when there is no such board. */
  deleteBoard(id: number): boolean {
    return this.#boards.delete(id);
  }

  /** Puts tasks on a board (not those in Recently deleted); null when there is no such board. */
  addToBoard(id: number, taskIds: readonly string[]): BoardChangeOutcome | null {
    return this.#boards.add(id, taskIds);
  }

  /** Takes tasks off a board; null when there is no such board. */
  removeFromBoard(id: number, taskIds: readonly string[]): BoardChangeOutcome | null {
    return this.#boards.remove(id, taskIds);
  }

  /** The saved outputs whose file has this SHA-256, newest task first (recall of a file by checksum). */
  outputsWithChecksum(sha256: string, limit = 10): { taskId: string; index: number }[] {
    return this.#outputs.withChecksum(sha256, limit);
  }

  /** The names of the boards a task is on, A to Z (kept in its export's task.json). */
  boardNamesOf(taskId: string): string[] {
    return this.#boards.namesOf(taskId);
  }

  // ---- the engine's poll bookkeeping (no part of a Task) ------------------------------------

  /** When the task's next status fetch is due and how many were made; null when there is no such task. */
  pollSchedule(id: string): PollSchedule | null {
    return this.#tasks.pollSchedule(id);
  }

  /** Sets these bookkeeping fields only (`updatedAt` stays: nothing the task shows changes); false: no such task. */
  setPollSchedule(id: string, schedule: Partial<PollSchedule>): boolean {
    return this.#tasks.setPollSchedule(id, schedule);
  }

  /** The task's status answers that could not be read, in a row; null when there is no such task. */
  unreadableAnswers(id: string): UnreadableAnswers | null {
    return this.#tasks.unreadableAnswers(id);
  }

  /** Sets that count (0 and null after a readable answer); `updatedAt` stays. False when there is no such task. */
  setUnreadableAnswers(id: string, answers: UnreadableAnswers): boolean {
    return this.#tasks.setUnreadableAnswers(id, answers);
  }

  /** The earliest next fetch of the tasks the service holds (epoch ms), or null when none is due. */
  nextPollDue(): number | null {
    return this.#lists.nextPollDue();
  }

  // ---- inputs across tasks --------------------------------------------------------------------

  /** How many inputs, of all tasks, are the library file at `value` (a library-relative path). */
  fileInputUses(value: string): number {
    return this.#inputs.fileUses(value);
  }

  /** One input that is the library file at `value`, with its type, size, hash and dimensions; null when none is. */
  fileInputRecord(value: string): TaskInput | null {
    return this.#inputs.fileRecord(value);
  }

  /**
   * Up to `limit` inputs still stored as Base64 text (libraries written before inputs became
   * files), after `after` (null: from the first) in (task id, position) order.
   */
  base64Inputs(after: Base64InputPlace | null, limit: number): StoredBase64Input[] {
    return this.#inputs.base64Inputs(after, limit);
  }

  /**
   * Makes a task's Base64 input the library file `input` describes (`source` 'file'), and its
   * request name that file, in one transaction. False when there is no such Base64 input.
   */
  moveInputToFile(taskId: string, input: TaskInput): boolean {
    return this.#inputs.moveToFile(taskId, input);
  }

  // ---- outputs --------------------------------------------------------------------------------

  /** Replaces the task's outputs with these, each `pending`. Returns them; null when there is no such task. */
  replaceOutputs(taskId: string, outputs: readonly NewOutput[]): TaskOutput[] | null {
    return this.#outputs.replace(taskId, outputs);
  }

  /** Applies a patch to one output; returns it, or null when there is no such output. */
  updateOutput(taskId: string, index: number, patch: OutputPatch): TaskOutput | null {
    return this.#outputs.update(taskId, index, patch);
  }

  // ---- lists ----------------------------------------------------------------------------------

  /** One page in the query's order (newest first by default). Items carry outputs but not inputs (TaskListItem). */
  listTasks(query: ListQuery = {}): TaskPage {
    return this.#lists.list(query);
  }

  /** Counts with the same filters as listTasks. */
  countTasks(filter: TaskFilter = {}): StateCounts {
    return this.#lists.count(filter);
  }

  /** Tasks in any of these states, oldest (first inserted) first. For recovery and the queue. */
  tasksInStates(states: readonly TaskState[], limit?: number): Task[] {
    return this.#lists.inStates(states, limit);
  }

  countInStates(states: readonly TaskState[]): number {
    return this.#lists.countInStates(states);
  }

  /** Queued tasks in the order they were queued. */
  nextQueued(limit: number): Task[] {
    return this.#lists.nextQueued(limit);
  }

  /** Tasks the service holds (pending, staged, processing) whose next poll is due, earliest first. */
  dueForPoll(nowMs: number, limit: number): Task[] {
    return this.#lists.dueForPoll(nowMs, limit);
  }

  // ---- lineage and batches ------------------------------------------------------------------

  /**
   * What task `id` was made from (parent, grandparent… nearest first, at most 20) and what was
   * made from it (oldest first); null when there is no such task.
   */
  lineage(id: string): TaskLineage | null {
    return this.#lineage.lineage(id);
  }

  /** The ids of every task made from task `id`. */
  childIds(id: string): string[] {
    return this.#lineage.childIds(id);
  }

  /** The id and state of each task of a batch, in the order they were queued (empty for none). */
  batchStates(batchId: string): { id: string; state: TaskState; retries: number }[] {
    return this.#lineage.batchStates(batchId);
  }

  /** The ids of the re-runs of task `id` (its retries, when it failed), oldest first. */
  retryIds(id: string): string[] {
    return this.#lineage.retryIds(id);
  }

  /** That batch's summary (ended or not), or without an id every batch with a task not ended, newest first. */
  batches(batchId?: string): BatchSummary[] {
    return this.#lineage.batches(batchId);
  }

  // ---- aggregates -----------------------------------------------------------------------------

  /** Estimates and reported usage over all tasks but cancelled ones (those in Recently deleted too). */
  costSummary(): CostSummary {
    return this.#lists.costSummary();
  }

  /**
   * Service-side durations (remoteCreatedAt, else submittedAt, to endedAt) of the most recent tasks
   * of this model and type that the service finished (completed, downloading, saved, expired),
   * newest first. Rows with unusable times or an unreadable request are skipped.
   */
  durationHistory(model: string, taskType: string, limit = 50): DurationRow[] {
    return this.#lists.durationHistory(model, taskType, limit);
  }

  // ---- settings -------------------------------------------------------------------------------

  /** The stored value, or null when unset. With a schema, a stored value that fails it throws. */
  getSetting<T>(key: string, schema?: z.ZodType<T>): T | null {
    return this.#settings.get(key, schema);
  }

  /** Stores any JSON value (undefined is refused; use deleteSetting). */
  setSetting(key: string, value: unknown): void {
    this.#settings.set(key, value);
  }

  deleteSetting(key: string): boolean {
    return this.#settings.delete(key);
  }
}
