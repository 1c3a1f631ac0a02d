/**
 * The task engine: queues what the user composes, always locally, online or not
 * (intake/task-intake.ts); sends it to the service without ever sending a create twice by
 * accident (sending/task-submission.ts, where the billing rules are); fetches running tasks on
 * an adaptive schedule (polling/task-polling.ts); downloads results into the library as soon as
 * they exist (saving/result-downloads.ts); and resumes all of this after a restart
 * (task-recovery.ts). Imports nothing from electron.
 *
 * This class is the engine's one public face and its coordinator: it opens the library (and
 * its lock), makes the parts, hands them what they share (engine-context.ts), runs them from the
 * work loop (work-loop.ts), and closes them in order.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type AccountHistoryPage,
  type AccountHistoryQuery,
  type AccountInfo,
  type BatchCancelView,
  type BatchRetryView,
  type BatchSummary,
  type DraftView,
  type EngineStatus,
  type RemoteImportOutcome,
  resolveModelId,
  type ServiceProfile,
  type Task,
  type TaskChange,
  type TaskDraft,
  type TaskFileChoices,
  type TaskLineage,
  type TaskSelection,
  type TaskTypeEntry,
  type TrashActionOutcome,
  type TrashOutcome,
} from '../../shared/index.ts';
import { assertLocalPath, InputValidationError } from '../inputs/index.ts';
import { acquireLibraryLock, type LibraryLock, PRIVATE_FOLDER_MODE } from '../library/index.ts';
import { LibraryStore } from '../store/index.ts';
import * as retries from './actions/failure-retries.ts';
import { LibraryRetention } from './actions/retention-actions.ts';
import * as actions from './actions/task-actions.ts';
import * as trash from './actions/trash-actions.ts';
import { startTrashPurge } from './actions/trash-purge.ts';
import { type EngineClock, SYSTEM_CLOCK } from './engine-clock.ts';
import { assertOpen, type EngineContext } from './engine-context.ts';
import type { EngineOptions } from './engine-options.ts';
import { makeEngineContext } from './engine-parts.ts';
import { engineStatusOf } from './engine-status.ts';
import * as accountHistory from './intake/account-history.ts';
import * as remoteImport from './intake/remote-import.ts';
import { moveBase64Inputs } from './intake/stored-base64-inputs.ts';
import { entryOfDraft } from './intake/task-drafts.ts';
import { queueTaskFile, readTaskFile, type TaskFileReading } from './intake/task-file-import.ts';
import * as intake from './intake/task-intake.ts';
import { TaskPolling } from './polling/task-polling.ts';
import { DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from './saving/output-downloads.ts';
import { ResultDownloads } from './saving/result-downloads.ts';
import { CreateSettlement } from './sending/create-settlement.ts';
import { TaskSubmission } from './sending/task-submission.ts';
import type { ServiceSettings } from './service-connection.ts';
import { recoverTasks } from './task-recovery.ts';

export class TaskEngine {
  readonly libraryDir: string;
  readonly store: LibraryStore;
  /** Retention: the rules that move old results to Recently deleted, their preview and runs. */
  readonly retention: LibraryRetention;
  readonly #lock: LibraryLock;
  readonly #ctx: EngineContext;
  readonly #submission: TaskSubmission;
  readonly #settlement: CreateSettlement;
  readonly #polling: TaskPolling;
  readonly #downloads: ResultDownloads;

  private constructor(options: EngineOptions, store: LibraryStore, lock: LibraryLock, clock: EngineClock) {
    this.libraryDir = resolve(options.libraryDir);
    this.store = store;
    this.#lock = lock;
    const downloadLimits: DownloadLimits = { ...DEFAULT_DOWNLOAD_LIMITS, ...options.downloads };
    // the parts call each other only once the engine runs: by then #ctx is set
    this.#ctx = makeEngineContext(options, {
      libraryDir: this.libraryDir,
      store,
      clock,
      downloadLimits,
      pump: (now) => this.#pump(now),
      onStorageFailure: (err) => void this.#ctx.storage.noteFailure(err),
      onStorageChange: () => this.#storageChanged(),
      status: () => this.status(),
    });
    this.retention = new LibraryRetention(this.#ctx, options.retention);
    this.#settlement = new CreateSettlement(
      this.#ctx,
      options.settlement ?? {},
      () => this.#submission.sending,
    );
    this.#submission = new TaskSubmission(
      this.#ctx,
      () => this.#settlement.busy || this.#ctx.load.holdsSending,
    );
    this.#polling = new TaskPolling(this.#ctx, options.fetchesPerSecond ?? 10);
    this.#downloads = new ResultDownloads(this.#ctx, {
      limits: downloadLimits,
      maxOutputBytes: options.maxOutputBytes ?? 1_000_000_000,
    });
  }

  /**
   * Opens the library (refusing one another process has open), recovers every task to where
   * it was, and starts working.
   */
  static async open(options: EngineOptions): Promise<TaskEngine> {
    assertLocalPath(options.libraryDir, 'libraryDir'); // no network or device path, before any file call
    const dir = resolve(options.libraryDir);
    await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const lock = acquireLibraryLock(dir);
    const clock = options.clock ?? SYSTEM_CLOCK;
    let store: LibraryStore;
    let engine: TaskEngine | null = null;
    try {
      store = LibraryStore.open(dir, {
        now: () => new Date(clock.now()),
        // a background checkpoint that fails (disk full) stops the work like a failed write
        onBackgroundError: (err) => {
          if (engine) engine.#ctx.storage.noteFailure(err);
        },
      });
    } catch (err) {
      lock.release();
      throw err;
    }
    engine = new TaskEngine(options, store, lock, clock);
    await moveBase64Inputs(engine.#ctx);
    await recoverTasks(engine.#ctx);
    startTrashPurge(engine.#ctx, options.trashPurge); // goes on after the opening
    engine.retention.start(); // when on and a day has passed since its last run
    engine.setService(options.service ?? null);
    return engine;
  }

  // ---------- settings and signals ----------

  setService(service: ServiceSettings | null): void {
    const { answers, connection, events, limit, load, loop, reachability } = this.#ctx;
    connection.set(service);
    limit.forget();
    load.forget();
    answers.pointValue.forget(); // another address or key: another account
    reachability.reset();
    events.emitStatus();
    loop.kick();
  }

  /** The profile tasks queued from now on are sent with (tasks already queued keep theirs). */
  setProfile(profile: ServiceProfile): void {
    this.#ctx.connection.profile = profile;
  }

  profile(): ServiceProfile {
    return this.#ctx.connection.profile;
  }

  /**
   * How long the service is expected to take for a task of this kind and size (created to
   * ended), learned from the library's recent tasks of its model and type, else the catalog's
   * default; `samples` says how many tasks the estimate rests on (0: the default).
   */
  expectedTime(draft: { model: string; taskType: string; input: Record<string, unknown> }): {
    expectedMs: number;
    samples: number;
  } {
    const { profile } = this.#ctx.connection;
    const model = resolveModelId(draft.model, draft.taskType, profile);
    const entry = entryOfDraft(draft, profile);
    const estimate = this.#ctx.estimates.estimateFor(model, draft.taskType, draft.input, entry);
    return { expectedMs: Math.round(estimate.expectedMs), samples: estimate.samples };
  }

  /**
   * The catalog entry a draft's model and task type name under the service in use (its
   * per-entry model-id overrides map an overridden id back to its entry); undefined for a pair
   * the catalog does not know.
   */
  entryOf(draft: { model: string; taskType: string }): TaskTypeEntry | undefined {
    return entryOfDraft(draft, this.#ctx.connection.profile);
  }

  /** The operating system's online/offline signal, passed in by the shell. */
  setNetworkOnline(online: boolean): void {
    this.#ctx.reachability.setNetworkSignal(online);
    this.#ctx.events.emitStatus();
    this.#ctx.loop.kick();
  }

  /**
   * Tasks allowed at the service at once (pending + staged + processing), from the next time the
   * engine sends one. Fewer than are there now sends nothing until enough of them end; none is
   * stopped. A lower limit the service showed still applies.
   */
  setMaxActiveRemote(tasks: number): void {
    if (!Number.isInteger(tasks) || tasks < 1) {
      throw new InputValidationError(
        'maxActiveRemote',
        'maxActiveRemote: must be a whole number, at least 1',
      );
    }
    this.#ctx.limit.setConfigured(tasks);
    this.#ctx.loop.kick();
  }

  status(): EngineStatus {
    const { clock, connection, limit, load, reachability, storage, store } = this.#ctx;
    return engineStatusOf({
      now: clock.now(),
      store,
      connection,
      reachability,
      limit,
      load,
      storage,
      submitPausedUntil: this.#submission.pausedUntil,
      retentionRun: this.retention.progress(),
    });
  }

  onStatus(listener: (status: EngineStatus) => void): () => void {
    return this.#ctx.events.onStatus(listener);
  }

  /** Task changes, coalesced: at most one delivery per 50 ms, the latest state of each task. */
  onTaskChanges(listener: (changes: TaskChange[]) => void): () => void {
    return this.#ctx.events.onTaskChanges(listener);
  }

  // ---------- user actions (task-intake.ts, task-actions.ts, remote-import.ts) ----------

  /**
   * Validates a draft and queues it locally. Always succeeds offline; local files and Base64 are
   * checked (magic bytes, dimensions, size) and kept as library files, one per content, so the
   * queue survives the original being moved and no task carries a whole picture.
   */
  queueTask(draft: TaskDraft): Promise<Task> {
    return intake.queueTask(this.#ctx, draft);
  }

  /**
   * Queues every draft as one batch, or none: each draft checked first (a refusal names it,
   * `draft 3 of 12: …`), the total price against the budget, then all recorded at once.
   */
  queueBatch(
    drafts: readonly TaskDraft[],
    options: { acceptUnknownPrice?: boolean } = {},
  ): Promise<{ batchId: string; tasks: Task[] }> {
    return intake.queueBatch(this.#ctx, drafts, options);
  }

  /** Queues each failed task of a batch that has no retry yet once more, as a new batch. */
  retryFailed(batchId: string): Promise<BatchRetryView> {
    return retries.retryFailedOfBatch(this.#ctx, batchId);
  }

  /** The retries (re-runs) of these tasks, oldest first. */
  retriesOf(ids: readonly string[]): Task[] {
    return retries.retriesOf(this.#ctx, ids);
  }

  /** Cancels the tasks of a batch still only queued locally; the others go on. */
  cancelBatch(batchId: string): BatchCancelView {
    return actions.cancelBatch(this.#ctx, batchId);
  }

  /** That batch's summary, or every batch with a task not ended yet (newest first). */
  batches(batchId?: string): BatchSummary[] {
    return this.store.batches(batchId);
  }

  /** What a task was made from and what was made from it; null when there is no such task. */
  lineage(id: string): TaskLineage | null {
    return this.store.lineage(id);
  }

  /** Reads and describes the task an exported `task.json` names; queues nothing (task-file-import.ts). */
  readTaskFile(file: string): Promise<TaskFileReading> {
    assertOpen(this.#ctx);
    return readTaskFile(this.#ctx, file);
  }

  /** Queues a task.json's reading on the user's word, with the files they picked. */
  queueTaskFile(reading: TaskFileReading, choices: TaskFileChoices): Promise<Task> {
    assertOpen(this.#ctx);
    return queueTaskFile(this.#ctx, reading, choices);
  }

  /** Cancels a task that is still only queued locally (the service never saw it). */
  cancel(id: string): Task {
    return actions.cancelTask(this.#ctx, id);
  }

  /** Sends an uncertain task again, on the user's word (it may be billed twice). */
  resubmit(id: string): Task {
    return actions.resubmitTask(this.#ctx, id);
  }

  /** Takes the service's task `remoteId` as the create of uncertain task `id` (the user's choice among candidates). */
  settle(id: string, remoteId: string): Promise<Task> {
    return this.#settlement.choose(id, remoteId);
  }

  /** Downloads a task's failed outputs again: the task goes back to `completed`. */
  retryDownloads(id: string): Task {
    return actions.retryDownloads(this.#ctx, this.#downloads, id);
  }

  /** Asks the service about a task it holds now, instead of at the next scheduled fetch. */
  checkNow(id: string): Task {
    return actions.checkNow(this.#ctx, id);
  }

  /** Gives up an uncertain task without sending it again. */
  discard(id: string): Task {
    return actions.discardTask(this.#ctx, id);
  }

  /** A new queued task with the same model, type and inputs. */
  rerun(id: string): Promise<Task> {
    return actions.rerunTask(this.#ctx, id);
  }

  /** The draft that would recreate a task (file inputs point at the library's copies, named by the files given). */
  draftOf(task: Task): DraftView {
    return actions.draftViewOf(this.libraryDir, task);
  }

  setFavorite(id: string, favorite: boolean): Task {
    return actions.setFavorite(this.#ctx, id, favorite);
  }

  rename(id: string, title: string): Task {
    return actions.renameTask(this.#ctx, id, title);
  }

  /** Deletes the record and its files (input files other tasks use stay). Refused while the service is working on it. */
  deleteTask(id: string): Promise<void> {
    return actions.deleteTask(this.#ctx, id);
  }

  /** Moves a selection to Recently deleted (queued tasks cancelled first; running ones left). */
  trash(selection: TaskSelection): TrashOutcome {
    return trash.trashTasks(this.#ctx, selection);
  }

  /** Takes a selection, or the tasks of one delete (its deletedAt), out of Recently deleted. */
  restore(what: TaskSelection | { deletedAt: string }): TrashActionOutcome {
    if ('deletedAt' in what) return trash.restoreDeletedAt(this.#ctx, what.deletedAt);
    return trash.restoreTasks(this.#ctx, what);
  }
  /** restore({ deletedAt }) a page at a time, the event loop turning between (the window's Undo). */
  restoreDeleted(deletedAt: string): Promise<TrashActionOutcome> {
    return trash.restoreDeletedAtInPages(this.#ctx, deletedAt);
  }

  /** Deletes the selected tasks in Recently deleted for good, with their files. */
  deleteForever(selection: TaskSelection): Promise<TrashActionOutcome> {
    return trash.deleteForever(this.#ctx, selection);
  }

  /** Deletes every task in Recently deleted for good, with their files. */
  emptyTrash(): Promise<TrashActionOutcome> {
    return trash.emptyTrash(this.#ctx);
  }

  /** Budget in micro-dollars, or null for none. */
  setBudget(micros: number | null): void {
    intake.writeBudget(this.store, micros);
  }

  budget(): number | null {
    return intake.readBudget(this.store);
  }

  /** The account's balance at the service (throws the service's typed errors). */
  account(): Promise<AccountInfo> {
    assertOpen(this.#ctx);
    return this.#ctx.connection.requireClient().getAccount();
  }

  /** Adds a task created elsewhere (by its service id) to the library, with its outputs. */
  importRemote(remoteId: string): Promise<Task> {
    return remoteImport.importRemote(this.#ctx, remoteId);
  }

  /** A page of the account's task history, each row marked with the library task that holds it. */
  history(query: AccountHistoryQuery): Promise<AccountHistoryPage> {
    return accountHistory.historyPage(this.#ctx, query);
  }

  /** Brings in tasks made elsewhere by their service ids, each said (queued, skipped, failed). */
  importRemoteTasks(ids: readonly string[]): Promise<RemoteImportOutcome[]> {
    return accountHistory.importRemoteTasks(this.#ctx, ids);
  }

  // ---------- lifecycle ----------

  /** Stops all work, waits for what is under way, closes the library. */
  async close(): Promise<void> {
    const { connection, events, loop, storage } = this.#ctx;
    if (loop.closed) return;
    loop.stop();
    this.retention.close();
    events.cancelPending();
    // downloads under way stop; their tasks are downloaded again after the next open
    this.#downloads.abort();
    await loop.settled();
    // answers still kept for want of room get one last try; what fails is uncertain after the next open
    storage.close();
    await this.#downloads.close();
    events.close();
    await connection.close();
    this.store.close();
    this.#lock.release();
  }

  /** Resolves when no work is under way and nothing is due (tests, the CLI); see WorkLoop.idle's background. */
  idle(options?: { background?: boolean }): Promise<void> {
    return this.#ctx.loop.idle(options);
  }

  // ---------- the work loop ----------

  #pump(now: number): void {
    if (this.#ctx.storage.blocked) return;
    this.#settlement.start(now);
    this.#ctx.load.start(now);
    this.#submission.start(now);
    this.#polling.start(now);
    this.#downloads.start(now);
  }

  /**
   * The library stopped or started taking writes again. Once it takes them, tasks whose
   * download was cut off by the failure go back to `completed`, to be downloaded again.
   */
  #storageChanged(): void {
    if (!this.#ctx.storage.blocked) this.#downloads.resumeInterrupted();
    this.#ctx.events.emitStatus();
    this.#ctx.loop.kick();
  }
}
