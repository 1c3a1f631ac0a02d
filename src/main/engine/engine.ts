/**
 * Long because it is the one coordinator of intake, user actions, import, recovery, submission,
 * polling, downloads, reachability, storage faults and budget; splitting it at those seams (the
 * engine class a small coordinator) is issue 10's first step.
 * The task engine: queues what the user composes (always locally, online or not), submits it
 * to the service without ever sending a create twice by accident, polls running tasks on an
 * adaptive schedule, downloads results into the library as soon as they exist, and resumes all
 * of this after a restart. Imports nothing from electron.
 *
 * Billing safety: a task is committed as `submitting` before its create is sent, and the
 * service's task id is committed in the same transaction that leaves `submitting`. A create
 * whose answer is lost (crash, reset after sending, 5xx, unreadable answer) leaves the task
 * `uncertain`; only the user can send it again. Creates go out one at a time, so a crash can
 * leave at most one task in doubt.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type AccountInfo,
  ENGINE_WORK_STATES,
  type EngineStatus,
  familyOf,
  hostedProfile,
  REMOTE_ACTIVE_STATES,
  type RemoteTask,
  type ServiceProfile,
  sizeParameterOf,
  type Task,
  type TaskError,
  type TaskInput,
  type TaskState,
  taskTypeEntry,
} from '../../shared/index.ts';
import {
  assertLocalPath,
  cleanPartialFolder,
  copyIntoLibrary,
  encodeCreateRequestBody,
  ensureFolderBelow,
  InputValidationError,
  PRIVATE_FOLDER_MODE,
  validateInput,
} from '../media/index.ts';
import { type RetryPolicy, ServiceClient } from '../service/index.ts';
import { LibraryStore } from '../store/index.ts';
import { EventBatcher } from './event-batcher.ts';
import { AUTH_PROBLEM, pollOutcome, submissionOutcome } from './failure-outcomes.ts';
import { FetchRateLimiter } from './fetch-rate-limiter.ts';
import { type UploadedInputs, uploadFileInputs } from './input-upload.ts';
import { acquireLibraryLock, type LibraryLock } from './library-lock.ts';
import { LibraryPathError, libraryFileOf, storedInputFiles } from './library-paths.ts';
import {
  DEFAULT_DOWNLOAD_LIMITS,
  DownloadAgents,
  type DownloadLimits,
  DownloadTries,
  downloadPolicyOf,
  failPendingOutputs,
  outputCountProblem,
  reopenFailedDownloads,
} from './output-downloads.ts';
import { saveOutputs, settledState } from './output-saving.ts';
import {
  DEFAULT_POLLING,
  type DurationEstimate,
  type DurationSample,
  estimateDuration,
  nextPollDelay,
  type PollingTuning,
} from './polling-schedule.ts';
import { requestForProfile } from './profile-request.ts';
import { remoteIdClashOf } from './remote-id-clash.ts';
import { CANCELLED_AT_SERVICE, localStateOf, remoteFailureOf, remotePatchOf } from './remote-state.ts';
import { StorageGuard } from './storage-guard.ts';
import {
  checkDraftFields,
  estimateDraftCost,
  mediaFieldsOf,
  type TaskDraft,
  titleOf,
} from './task-drafts.ts';
import { removeTaskFolders } from './task-folders.ts';

export interface ServiceSettings {
  baseUrl: string;
  apiKey: string;
  /** The service's file upload endpoint; local inputs go inline without one. */
  uploadUrl?: string;
}

export interface EngineOptions {
  libraryDir: string;
  service?: ServiceSettings | null;
  /**
   * How the service names things (vendor, model overrides, the negative prompt's field), applied
   * when a task is queued. Default: the hosted service.
   */
  profile?: ServiceProfile;
  /** Tasks allowed at the service at once (pending + staged + processing). Default 5. */
  maxActiveRemote?: number;
  /** Global limit on task fetches per second. Default 10. */
  fetchesPerSecond?: number;
  /** Largest output file accepted, in bytes. Default 1 GB. */
  maxOutputBytes?: number;
  /** Time limits, tries and the outputs-per-task cap of result downloads (output-downloads.ts). */
  downloads?: Partial<DownloadLimits>;
  polling?: PollingTuning;
  /** Backoff while the service cannot be reached. Default 1 s doubling to 30 s. */
  offlineBackoff?: { baseMs: number; maxMs: number };
  clientRetry?: Partial<RetryPolicy>;
  random?: () => number;
  batchIntervalMs?: number;
  /** While the library cannot take writes (disk full), how often a small write is tried. Default 1 s. */
  storageRetryMs?: number;
  /** Where the engine reports what it left alone in the library (never the key). Default stderr. */
  log?: (line: string) => void;
}

export interface TaskChange {
  taskId: string;
  /** The task as it is now; null when it was deleted. */
  task: Task | null;
}

export class BudgetExceededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}

/** A task whose price is not published, queued under a budget without the user's word. */
export class PriceUnknownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PriceUnknownError';
  }
}

export class TaskActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskActionError';
  }
}

const DOWNLOAD_CONCURRENCY = 3;
const POLL_CONCURRENCY = 8;

export class TaskEngine {
  readonly libraryDir: string;
  readonly store: LibraryStore;
  readonly #lock: LibraryLock;
  #client: ServiceClient | null = null;
  #service: ServiceSettings | null = null;
  #profile: ServiceProfile;
  readonly #options: Required<
    Pick<
      EngineOptions,
      'maxActiveRemote' | 'fetchesPerSecond' | 'maxOutputBytes' | 'polling' | 'offlineBackoff'
    >
  > &
    EngineOptions;
  readonly #random: () => number;
  readonly #log: (line: string) => void;
  readonly #limiter: FetchRateLimiter;
  readonly #changes: EventBatcher<TaskChange>;
  readonly #statusListeners = new Set<(status: EngineStatus) => void>();
  /** Stops the work while the library cannot record it (storage-guard.ts). */
  readonly #storage: StorageGuard;

  #closed = false;
  #statusTimer: NodeJS.Timeout | null = null;
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #pumpScheduled = false;

  #networkSignal = true;
  #online = true;
  #offlineFailures = 0;
  #offlineUntil = 0;
  #submitPausedUntil = 0;
  #authProblem: string | null = null;
  /** What the service showed it takes at once (it held or refused more), with the reason; null: unknown. */
  #serviceLimit: { tasks: number; reason: string } | null = null;

  #submitting: Promise<void> | null = null;
  readonly #polling = new Set<string>();
  readonly #downloading = new Set<string>();
  readonly #downloadLimits: DownloadLimits;
  readonly #downloadTries: DownloadTries;
  readonly #downloadAgents = new DownloadAgents();
  /** Aborted on close, so no download keeps the engine open. */
  readonly #stopDownloads = new AbortController();
  readonly #histories = new Map<string, DurationSample[]>();
  readonly #work = new Set<Promise<unknown>>();
  /** Clients whose service refused uploads for this plan: their files go inline. */
  readonly #uploadsRefused = new WeakSet<ServiceClient>();

  private constructor(options: EngineOptions, store: LibraryStore, lock: LibraryLock) {
    this.libraryDir = resolve(options.libraryDir);
    this.store = store;
    this.#lock = lock;
    this.#options = {
      maxActiveRemote: 5,
      fetchesPerSecond: 10,
      maxOutputBytes: 1_000_000_000,
      polling: DEFAULT_POLLING,
      offlineBackoff: { baseMs: 1_000, maxMs: 30_000 },
      ...options,
    };
    this.#profile = options.profile ?? hostedProfile();
    this.#downloadLimits = { ...DEFAULT_DOWNLOAD_LIMITS, ...options.downloads };
    this.#downloadTries = new DownloadTries(this.#downloadLimits);
    this.#random = options.random ?? Math.random;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#limiter = new FetchRateLimiter(this.#options.fetchesPerSecond);
    this.#changes = new EventBatcher<TaskChange>(options.batchIntervalMs ?? 50);
    this.#storage = new StorageGuard({
      probe: () => this.store.probeWrite(),
      retryMs: options.storageRetryMs ?? 1_000,
      onChange: () => this.#storageChanged(),
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
    let store: LibraryStore;
    let engine: TaskEngine | null = null;
    try {
      // a background checkpoint that fails (disk full) stops the work like a failed write
      store = LibraryStore.open(dir, {
        onBackgroundError: (err) => {
          if (engine) engine.#storage.noteFailure(err);
        },
      });
    } catch (err) {
      lock.release();
      throw err;
    }
    engine = new TaskEngine(options, store, lock);
    await engine.#recover();
    engine.setService(options.service ?? null);
    return engine;
  }

  // ---------- settings and signals ----------

  setService(service: ServiceSettings | null): void {
    const old = this.#client;
    this.#client = null;
    this.#service = service?.apiKey && service.baseUrl ? { ...service } : null;
    if (old) void old.close();
    if (this.#service) {
      this.#client = new ServiceClient({
        baseUrl: this.#service.baseUrl,
        apiKey: this.#service.apiKey,
        uploadUrl: this.#service.uploadUrl ?? '',
        retry: this.#options.clientRetry,
        random: this.#random,
      });
    }
    this.#authProblem = null;
    this.#serviceLimit = null;
    this.#offlineFailures = 0;
    this.#offlineUntil = 0;
    this.#online = true;
    this.#emitStatus();
    this.#kick();
  }

  /** The profile tasks queued from now on are sent with (tasks already queued keep theirs). */
  setProfile(profile: ServiceProfile): void {
    this.#profile = profile;
  }

  profile(): ServiceProfile {
    return this.#profile;
  }

  /** The operating system's online/offline signal, passed in by the shell. */
  setNetworkOnline(online: boolean): void {
    this.#networkSignal = online;
    if (online) {
      this.#offlineFailures = 0;
      this.#offlineUntil = 0;
    }
    this.#emitStatus();
    this.#kick();
  }

  status(): EngineStatus {
    const now = Date.now();
    const waits = [this.#offlineUntil, this.#submitPausedUntil].filter((t) => t > now);
    return {
      online: this.#online && this.#networkSignal,
      networkSignal: this.#networkSignal,
      serviceConfigured: this.#service !== null,
      authProblem: this.#authProblem,
      serviceLimit: this.#serviceLimit?.tasks ?? null,
      serviceLimitReason: this.#serviceLimit?.reason ?? null,
      nextAttemptAt: waits.length ? Math.min(...waits) : null,
      queued: this.store.countInStates(['queued']),
      activeRemote: this.store.countInStates(REMOTE_ACTIVE_STATES),
      storageProblem: this.#storage.problem,
    };
  }

  onStatus(listener: (status: EngineStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Task changes, coalesced: at most one batch per 50 ms, the latest state of each task. */
  onTaskChanges(listener: (batch: TaskChange[]) => void): () => void {
    return this.#changes.subscribe(listener);
  }

  // ---------- user actions ----------

  /**
   * Validates a draft and queues it locally. Always succeeds offline; local files are checked
   * (magic bytes, dimensions, size) and copied into the library so the queue survives the
   * original being moved.
   */
  async queueTask(draft: TaskDraft): Promise<Task> {
    this.#assertOpen();
    checkDraftFields(draft);
    const id = randomUUID();
    const sent = requestForProfile(draft, this.#profile);
    const input = sent.input;
    const inputs: TaskInput[] = [];
    const validated = [];
    for (const rule of mediaFieldsOf(draft.taskType)) {
      const value = input[rule.field];
      if (typeof value !== 'string' || value.trim() === '') {
        delete input[rule.field];
        continue;
      }
      validated.push(
        await validateInput(value.trim(), {
          field: rule.field,
          kind: rule.kind,
          faceSwap: rule.faceSwap ?? false,
        }),
      );
    }
    const estimateMicros = estimateDraftCost(draft);
    this.#checkBudget(estimateMicros, draft.acceptUnknownPrice === true, draft.taskType);
    const inputDir = join(this.libraryDir, 'inputs', id);
    try {
      for (const v of validated) {
        if (v.source === 'file') {
          await ensureFolderBelow(this.libraryDir, inputDir); // mode 0700, no planted link followed
          const copy = await copyIntoLibrary(v, inputDir);
          const relativePath = `inputs/${id}/${copy.path.split(/[\\/]/).pop()}`;
          input[v.field] = { $file: relativePath };
          inputs.push({
            field: v.field,
            source: 'file',
            value: relativePath,
            mime: v.mime,
            size: copy.size,
            sha256: copy.sha256,
            width: v.width ?? null,
            height: v.height ?? null,
          });
        } else if (v.source === 'base64') {
          inputs.push({
            field: v.field,
            source: 'base64',
            value: String(input[v.field]),
            mime: v.mime,
            size: v.bytes,
            sha256: null,
            width: v.width ?? null,
            height: v.height ?? null,
          });
        } else {
          inputs.push({
            field: v.field,
            source: 'url',
            value: v.url,
            mime: null,
            size: null,
            sha256: null,
            width: null,
            height: null,
          });
        }
      }
      const config = draft.webhook?.endpoint
        ? { webhook_config: { endpoint: draft.webhook.endpoint, secret: draft.webhook.secret ?? '' } }
        : undefined;
      const estimate = this.#estimateFor(sent.model, draft.taskType, input);
      const task = this.store.insertTask({
        id,
        model: sent.model,
        taskType: draft.taskType,
        family: familyOf(draft.taskType),
        title: titleOf(draft),
        request: { model: sent.model, task_type: draft.taskType, input, ...(config ? { config } : {}) },
        inputs,
        estimateMicros,
        expectedMs: Math.round(estimate.expectedMs),
        rerunOf: draft.rerunOf ?? null,
        createdAt: new Date().toISOString(),
      });
      this.#changed(task);
      this.#kick();
      return task;
    } catch (err) {
      await rm(inputDir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Cancels a task that is still only queued locally (the service never saw it). */
  cancel(id: string): Task {
    const task = this.store.transition(id, 'cancelled', {
      from: ['queued'],
      detail: 'cancelled by the user',
    });
    if (!task)
      throw new TaskActionError(this.#cannot(id, 'cancel', 'only tasks still queued on this computer'));
    this.#changed(task);
    return task;
  }

  /** Sends an uncertain task again, on the user's word (it may be billed twice). */
  resubmit(id: string): Task {
    const task = this.store.transition(id, 'queued', {
      from: ['uncertain'],
      patch: { error: null },
      detail: 'submitted again by the user',
    });
    if (!task) throw new TaskActionError(this.#cannot(id, 'submit again', 'only uncertain tasks'));
    this.#changed(task);
    this.#kick();
    return task;
  }

  /**
   * Downloads a task's failed outputs again (after their tries were used up, or a refusal
   * such as an address inside the user's network): the task goes back to `completed`.
   */
  retryDownloads(id: string): Task {
    this.#assertOpen();
    const reopened = reopenFailedDownloads(this.store, id);
    if (typeof reopened === 'string') throw new TaskActionError(reopened);
    this.#downloadTries.clear(id);
    this.#changed(reopened);
    this.#kick();
    return reopened;
  }

  /**
   * Asks the service about a task it holds now, instead of at the next scheduled fetch (the
   * user's answer to a slow retry after unreadable answers, or impatience).
   */
  checkNow(id: string): Task {
    this.#assertOpen();
    const task = this.store.getTask(id);
    if (!task || !REMOTE_ACTIVE_STATES.includes(task.state)) {
      throw new TaskActionError(this.#cannot(id, 'check now', 'tasks the service is working on'));
    }
    this.store.patchTask(id, { nextPollAt: Date.now() });
    this.#kick();
    return this.store.getTask(id) ?? task;
  }

  /** Gives up an uncertain task without sending it again. */
  discard(id: string): Task {
    const task = this.store.transition(id, 'cancelled', {
      from: ['uncertain'],
      detail: 'discarded by the user',
    });
    if (!task) throw new TaskActionError(this.#cannot(id, 'discard', 'only uncertain tasks'));
    this.#changed(task);
    return task;
  }

  /** A new queued task with the same model, type and inputs. */
  async rerun(id: string): Promise<Task> {
    const task = this.store.getTask(id);
    if (!task) throw new TaskActionError(`no task ${id} in the library`);
    return this.queueTask({ ...this.draftOf(task), rerunOf: task.id });
  }

  /** The draft that would recreate a task (file inputs point at the library's copies). */
  draftOf(task: Task): TaskDraft {
    const input: Record<string, unknown> = { ...task.request.input };
    for (const inp of task.inputs) {
      if (inp.source === 'file')
        input[inp.field] = libraryFileOf(this.libraryDir, inp.value, `input ${JSON.stringify(inp.field)}`);
    }
    const wh = (
      task.request.config as { webhook_config?: { endpoint?: string; secret?: string } } | undefined
    )?.webhook_config;
    return {
      model: task.model,
      taskType: task.taskType,
      input,
      webhook: wh?.endpoint ? { endpoint: wh.endpoint, secret: wh.secret ?? '' } : null,
      title: task.title,
    };
  }

  setFavorite(id: string, favorite: boolean): Task {
    this.store.setFavorite(id, favorite);
    return this.#changedById(id);
  }

  rename(id: string, title: string): Task {
    const clean = title.trim();
    if (clean === '') throw new InputValidationError('title', 'title: must not be empty');
    this.store.rename(id, clean.slice(0, 200));
    return this.#changedById(id);
  }

  /** Deletes the record and its files. Refused while the service is working on it. */
  async deleteTask(id: string): Promise<void> {
    const task = this.store.getTask(id);
    if (!task) throw new TaskActionError(`no task ${id} in the library`);
    if (task.state !== 'queued' && ENGINE_WORK_STATES.includes(task.state)) {
      // the service has it (and bills it): deleting now would lose a result already paid for
      throw new TaskActionError(
        `this task is ${task.state} at the service; it can be deleted once its result is saved (or cancel it while it is still queued)`,
      );
    }
    const removed = this.store.deleteTask(id);
    // only the task's own folders, named from its id: never a folder a stored path names
    const notes = await removeTaskFolders(this.libraryDir, { ...task, outputs: removed.outputs });
    for (const note of notes) this.#log(`deleting task ${id}: ${note}`);
    this.#changes.push({ taskId: id, task: null });
  }

  /** Budget in micro-dollars, or null for none. */
  setBudget(micros: number | null): void {
    if (micros !== null && (!Number.isFinite(micros) || micros < 0)) {
      throw new InputValidationError('budget', 'budget: must be a positive amount');
    }
    this.store.setSetting('budgetMicros', micros);
  }

  budget(): number | null {
    return this.store.getSetting<number>('budgetMicros');
  }

  /** The account's balance at the service (throws the service's typed errors). */
  account(): Promise<AccountInfo> {
    this.#assertOpen();
    return this.#requireClient().getAccount();
  }

  /**
   * Adds a task created elsewhere (by its service id) to the library, with its outputs.
   */
  async importRemote(remoteId: string): Promise<Task> {
    this.#assertOpen();
    const clean = remoteId.trim();
    if (!/^[A-Za-z0-9-]{1,64}$/.test(clean))
      throw new InputValidationError('task_id', 'task_id: not a task id');
    const existing = this.store.getTaskByRemoteId(clean);
    if (existing) return existing;
    const client = this.#requireClient();
    const remote = await client.getTask(clean);
    const model = remote.model ?? 'unknown';
    const taskType = remote.taskType ?? 'unknown';
    const input = remote.input && typeof remote.input === 'object' ? remote.input : {};
    const id = randomUUID();
    const now = new Date().toISOString();
    let task = this.store.insertTask({
      id,
      model,
      taskType,
      family: familyOf(taskType),
      title: titleOf({ model, taskType, input }),
      request: { model, task_type: taskType, input },
      inputs: [],
      estimateMicros: estimateDraftCost({ model, taskType, input }),
      expectedMs: null,
      rerunOf: null,
      createdAt: remote.createdAt ?? now,
    });
    task = this.store.transaction(() => {
      this.store.transition(id, 'submitting', { from: ['queued'], detail: 'imported by task id' });
      return this.#applyRemote(id, remote, ['submitting'], 'imported');
    }) as Task;
    this.#changed(task);
    this.#kick();
    return task;
  }

  // ---------- lifecycle ----------

  /** Stops all work, waits for what is under way, closes the library. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#statusTimer) clearTimeout(this.#statusTimer);
    this.#statusTimer = null;
    // downloads under way stop; their tasks are downloaded again after the next open
    this.#stopDownloads.abort();
    await Promise.allSettled([...this.#work]);
    // answers still kept for want of room get one last try; what fails is uncertain after the next open
    this.#storage.close();
    await this.#downloadAgents.close();
    this.#changes.close();
    this.#statusListeners.clear();
    await this.#client?.close();
    this.store.close();
    this.#lock.release();
  }

  /** Resolves when no work is under way and nothing is due (for tests and the CLI). */
  async idle(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  // ---------- recovery ----------

  async #recover(): Promise<void> {
    // only the app's own temporary files: anything else in .partial stays, and is reported
    const partial = await cleanPartialFolder(this.libraryDir);
    if (partial.kept.length > 0)
      this.#log(
        `library ${this.libraryDir}: left ${partial.kept.length} item(s) in .partial that the app did not make: ${partial.kept.slice(0, 10).join(', ')}`,
      );
    for (const task of this.store.tasksInStates(['submitting'])) {
      this.store.transition(task.id, 'uncertain', {
        from: ['submitting'],
        patch: {
          error: {
            kind: 'uncertain',
            message:
              'the app stopped while this task was being sent; the service may or may not have created (and billed) it. Submit it again, or discard it.',
            code: null,
          },
        },
        detail: 'recovered after a restart while submitting',
      });
    }
    for (const task of this.store.tasksInStates(['downloading'])) {
      this.store.transition(task.id, 'completed', {
        from: ['downloading'],
        detail: 'download resumed after restart',
      });
    }
    const now = Date.now();
    for (const task of this.store.tasksInStates(REMOTE_ACTIVE_STATES)) {
      this.store.patchTask(task.id, { nextPollAt: now });
    }
  }

  // ---------- the work loop ----------

  #kick(): void {
    if (this.#closed || this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #wakeAt(at: number): void {
    if (this.#closed || at >= this.#timerAt) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#pump();
      },
      Math.max(0, at - Date.now()),
    );
  }

  #track<T>(p: Promise<T>): void {
    const tracked = p.then(
      () => undefined,
      // a write the library could not take (disk full) stops the work until one succeeds
      (err: unknown) => void this.#storage.noteFailure(err),
    );
    this.#work.add(tracked);
    void tracked.finally(() => {
      this.#work.delete(tracked);
      this.#kick();
    });
  }

  #pump(): void {
    if (this.#closed || this.#storage.blocked) return;
    const now = Date.now();
    this.#startSubmission(now);
    this.#startPolls(now);
    this.#startDownloads(now);
  }

  #reachable(now: number): boolean {
    if (!this.#networkSignal) return false;
    if (now < this.#offlineUntil) {
      this.#wakeAt(this.#offlineUntil);
      return false;
    }
    return true;
  }

  // ---------- submission ----------

  #startSubmission(now: number): void {
    if (this.#submitting || !this.#client || this.#authProblem) return;
    if (!this.#reachable(now)) return;
    if (now < this.#submitPausedUntil) {
      this.#wakeAt(this.#submitPausedUntil);
      return;
    }
    const max = Math.min(
      this.#options.maxActiveRemote,
      this.#serviceLimit?.tasks ?? Number.POSITIVE_INFINITY,
    );
    if (this.store.countInStates(REMOTE_ACTIVE_STATES) >= max) return;
    const next = this.store.nextQueued(1)[0];
    if (!next) return;
    const client = this.#client;
    const p = this.#submit(client, next).finally(() => {
      this.#submitting = null;
    });
    this.#submitting = p;
    this.#track(p);
  }

  async #submit(client: ServiceClient, queued: Task): Promise<void> {
    // every stored input path must resolve inside the library before anything is read or sent
    const files = this.#inputFilesOrFail(queued);
    if (files === null) return;
    // uploads cost nothing and create nothing: they happen while the task is still queued
    const uploaded = await this.#uploadInputs(client, queued);
    // committed before the request is sent: a crash from here on leaves the task uncertain
    const task = this.store.transition(queued.id, 'submitting', {
      from: ['queued'],
      patch: { error: null },
      durable: true,
      ...(uploaded.notes.length ? { detail: uploaded.notes.join('; ') } : {}),
    });
    if (!task) return;
    this.#changed(task);
    const fileInputs: Record<string, string> = {};
    const input: Record<string, unknown> = { ...task.request.input };
    for (const inp of task.inputs) {
      const url = uploaded.urls[inp.field];
      if (url !== undefined) {
        input[inp.field] = url;
      } else if (inp.source === 'file') {
        fileInputs[inp.field] = files[inp.field] as string;
        input[inp.field] = '';
      }
    }
    const request = { ...task.request, input };
    let remote: RemoteTask;
    try {
      remote = await client.createTask(request, {
        body: Object.keys(fileInputs).length ? () => encodeCreateRequestBody(request, fileInputs) : undefined,
      });
    } catch (err) {
      this.#submissionFailed(task, err);
      return;
    }
    this.#noteReachable();
    this.#recordAnswer(task, remote, Date.now());
  }

  /**
   * Commits the service's answer to a create. While the library cannot take it (disk full) the
   * answer is kept and committed before anything more is sent; an id another task already has
   * makes this task uncertain, naming that task.
   */
  #recordAnswer(task: Task, remote: RemoteTask, submittedAt: number): void {
    const clash = remoteIdClashOf(this.store, task.id, remote.id);
    if (clash) {
      this.#submissionFailed(task, clash);
      return;
    }
    try {
      this.#storage.keep(`answer:${task.id}`, () => {
        const after = this.#applyRemote(
          task.id,
          remote,
          ['submitting'],
          'accepted by the service',
          submittedAt,
        );
        if (after) this.#changed(after);
        if (after?.state === 'staged') this.#lowerServiceLimit('held');
      });
    } catch (err) {
      // not the storage: the answer cannot be recorded, so the task is in doubt and says why
      this.#submissionFailed(task, err);
    }
  }

  /**
   * The service held a task (`staged`) or refused one while others ran: its plan takes no more
   * than are running now. Sends at most that many from now on (until the service settings
   * change), and says why.
   */
  #lowerServiceLimit(cause: 'held' | 'refused'): void {
    const running = this.store.countInStates(
      cause === 'held' ? ['pending', 'processing'] : REMOTE_ACTIVE_STATES,
    );
    // a refusal with nothing running is a rate limit, not a concurrency limit
    if (cause === 'refused' && running === 0) return;
    const tasks = Math.max(1, running);
    const current = Math.min(
      this.#options.maxActiveRemote,
      this.#serviceLimit?.tasks ?? Number.POSITIVE_INFINITY,
    );
    if (tasks >= current) return;
    const what = cause === 'held' ? 'held a task back' : 'refused a task';
    const others =
      running === 0
        ? 'although none of this app’s were running'
        : `while ${running} ${running === 1 ? 'was' : 'were'} running`;
    this.#serviceLimit = {
      tasks,
      reason: `The service ${what} ${others}, so your plan seems to allow ${tasks} at once: the app now sends at most ${tasks} at a time.`,
    };
    this.#emitStatus();
  }

  /**
   * The real paths of a queued task's local files, each inside the library; null when the database
   * records one elsewhere (a library written by someone else): the task then fails with that
   * message before anything is read or sent.
   */
  #inputFilesOrFail(task: Task): Record<string, string> | null {
    try {
      return storedInputFiles(this.libraryDir, task.inputs);
    } catch (err) {
      if (!(err instanceof LibraryPathError)) throw err;
      const t = this.store.transition(task.id, 'failed', {
        from: ['queued'],
        patch: { error: { kind: 'library-path', message: err.message, code: null } },
        detail: 'an input file is not in the library',
      });
      if (t) this.#changed(t);
      return null;
    }
  }

  /** Puts the task's local files on the service's upload endpoint, when it has one that takes them. */
  async #uploadInputs(client: ServiceClient, task: Task): Promise<Pick<UploadedInputs, 'urls' | 'notes'>> {
    const uploadOrigin = this.#service?.uploadUrl ? new URL(this.#service.uploadUrl).origin : null;
    if (!client.canUpload || !uploadOrigin || this.#uploadsRefused.has(client))
      return { urls: {}, notes: [] };
    if (!task.inputs.some((inp) => inp.source === 'file')) return { urls: {}, notes: [] };
    try {
      const result = await uploadFileInputs({
        client,
        uploadOrigin,
        inputs: task.inputs,
        libraryDir: this.libraryDir,
        store: this.store,
      });
      if (result.refused) this.#uploadsRefused.add(client);
      return result;
    } catch (err) {
      // a file that cannot be read here fails the create below with its own message
      return { urls: {}, notes: [`files sent inline: ${(err as Error).message}`] };
    }
  }

  #submissionFailed(task: Task, err: unknown): void {
    const outcome = submissionOutcome(err);
    let to: TaskState = 'uncertain';
    if (outcome.action === 'requeue') {
      to = 'queued';
      if (outcome.cause === 'unreachable') this.#noteUnreachable();
      if (outcome.cause === 'rate-limited') {
        this.#submitPausedUntil = Date.now() + (outcome.retryAfterMs ?? 5_000);
        this.#lowerServiceLimit('refused');
      }
      if (outcome.cause === 'unauthorized') this.#authProblem = AUTH_PROBLEM;
      this.#emitStatus();
    } else if (outcome.action === 'fail') {
      to = 'failed';
    }
    // kept while the library cannot take it: committed before anything more is sent
    this.#storage.keep(`answer:${task.id}`, () => {
      const t = this.store.transition(task.id, to, {
        from: ['submitting'],
        patch: { error: outcome.error },
        detail: outcome.detail,
      });
      if (t) this.#changed(t);
    });
  }

  /**
   * The library stopped or started taking writes again. Once it takes them, tasks whose
   * download was cut off by the failure go back to `completed`, to be downloaded again.
   */
  #storageChanged(): void {
    if (!this.#storage.blocked) {
      for (const task of this.store.tasksInStates(['downloading'])) {
        if (this.#downloading.has(task.id)) continue;
        this.store.transition(task.id, 'completed', { from: ['downloading'], detail: 'download resumed' });
      }
    }
    this.#emitStatus();
    this.#kick();
  }

  /**
   * Records what the service said about a task, in one transaction: state, remote id, times,
   * usage, outputs and the next fetch.
   */
  #applyRemote(
    id: string,
    remote: RemoteTask,
    from: readonly TaskState[],
    detail: string,
    submittedAt?: number,
  ): Task | null {
    const now = Date.now();
    const reported = localStateOf(remote);
    // a completed task with more outputs than allowed fails, and none of them is kept
    const tooMany =
      reported === 'completed'
        ? outputCountProblem(remote.outputs.length, this.#downloadLimits.maxOutputsPerTask)
        : null;
    const to: TaskState = tooMany ? 'failed' : reported;
    return this.store.transaction(() => {
      const current = this.store.getTask(id);
      if (!current || !from.includes(current.state)) return null;
      const pollCount = submittedAt !== undefined ? 0 : current.pollCount + 1;
      const patch = {
        ...remotePatchOf(remote),
        remoteId: current.remoteId ?? remote.id,
        ...(submittedAt !== undefined ? { submittedAt: new Date(submittedAt).toISOString() } : {}),
        pollCount,
        nextPollAt: null as number | null,
        error: null as TaskError | null,
      };
      if (to === 'failed') patch.error = tooMany ?? remoteFailureOf(remote);
      if (to === 'cancelled') patch.error = CANCELLED_AT_SERVICE;
      if (REMOTE_ACTIVE_STATES.includes(to)) {
        const since = Date.parse(patch.submittedAt ?? current.submittedAt ?? new Date(now).toISOString());
        const estimate = this.#estimateFor(current.model, current.taskType, current.request.input);
        patch.nextPollAt = Math.round(
          now +
            nextPollDelay(
              { elapsedMs: now - since, fetches: pollCount, estimate },
              this.#random,
              this.#options.polling,
            ),
        );
      }
      if (to === 'completed') {
        this.store.replaceOutputs(id, remote.outputs);
        this.#histories.delete(`${current.model}\u0000${current.taskType}`);
      }
      const changedState = to !== current.state;
      if (!changedState) {
        this.store.patchTask(id, patch);
        return this.store.getTask(id);
      }
      return this.store.transition(id, to, { from, patch, detail });
    });
  }

  /**
   * Expected duration of a task from the recent history of its model and type. The history is
   * read from the library once and cached until a task of that kind completes, so scheduling a
   * fetch never queries the database.
   */
  #estimateFor(model: string, taskType: string, input: Record<string, unknown>): DurationEstimate {
    const key = `${model}\u0000${taskType}`;
    let history = this.#histories.get(key);
    if (!history) {
      history = this.store
        .durationHistory(model, taskType, 50)
        .map((h) => ({ durationMs: h.durationMs, size: sizeParameterOf(taskType, h.request.input) }));
      this.#histories.set(key, history);
    }
    const defaultMs = (taskTypeEntry(taskType)?.expectedSeconds ?? 60) * 1000;
    return estimateDuration(history, sizeParameterOf(taskType, input), defaultMs);
  }

  // ---------- polling ----------

  #startPolls(now: number): void {
    if (!this.#client || this.#authProblem) return;
    if (!this.#reachable(now)) return;
    const room = POLL_CONCURRENCY - this.#polling.size;
    if (room <= 0) return;
    const due = this.store.dueForPoll(now, room + this.#polling.size).filter((t) => !this.#polling.has(t.id));
    for (const task of due.slice(0, room)) {
      const token = this.#limiter.tryTake(now);
      if (!token.ok) {
        this.#wakeAt(now + token.waitMs);
        break;
      }
      this.#polling.add(task.id);
      const client = this.#client;
      this.#track(
        this.#poll(client, task).finally(() => {
          this.#polling.delete(task.id);
        }),
      );
    }
    const next = this.store.dueForPoll(Number.MAX_SAFE_INTEGER, 1)[0];
    if (next?.nextPollAt != null && next.nextPollAt > now) this.#wakeAt(next.nextPollAt);
  }

  async #poll(client: ServiceClient, task: Task): Promise<void> {
    if (!task.remoteId) return;
    let remote: RemoteTask;
    try {
      remote = await client.getTask(task.remoteId);
    } catch (err) {
      this.#pollFailed(task, err);
      return;
    }
    this.#noteReachable();
    const after = this.#applyRemote(task.id, remote, REMOTE_ACTIVE_STATES, `service: ${remote.status}`);
    if (after?.state === 'staged' && task.state !== 'staged') this.#lowerServiceLimit('held');
    if (after) this.#changed(after);
  }

  #pollFailed(task: Task, err: unknown): void {
    const now = Date.now();
    const outcome = pollOutcome(err, task.pollCount);
    if (outcome.action === 'fail') {
      const t = this.store.transition(task.id, 'failed', {
        from: REMOTE_ACTIVE_STATES,
        patch: { nextPollAt: null, error: outcome.error },
        detail: 'unknown to the service',
      });
      if (t) this.#changed(t);
      return;
    }
    if (outcome.cause === 'unreachable') this.#noteUnreachable();
    if (outcome.cause === 'unauthorized' && !this.#authProblem) {
      this.#authProblem = AUTH_PROBLEM;
      this.#emitStatus();
    }
    const retryIn = outcome.retryInMs === 'offline-backoff' ? this.#offlineBackoffMs() : outcome.retryInMs;
    if (outcome.cause === 'rate-limited') this.#limiter.pauseUntil(now + retryIn);
    this.store.patchTask(task.id, {
      nextPollAt: Math.round(now + retryIn),
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    if (outcome.error) this.#changedById(task.id);
  }

  // ---------- downloads ----------

  #startDownloads(now: number): void {
    // with the network off every try would fail and use up the task's tries
    if (this.#downloading.size >= DOWNLOAD_CONCURRENCY || !this.#networkSignal) return;
    const candidates = this.store.tasksInStates(['completed'], DOWNLOAD_CONCURRENCY * 4);
    for (const task of candidates) {
      if (this.#downloading.size >= DOWNLOAD_CONCURRENCY) break;
      if (this.#downloading.has(task.id)) continue;
      const notBefore = this.#downloadTries.notBefore(task.id, now);
      if (notBefore !== null) {
        this.#wakeAt(notBefore);
        continue;
      }
      this.#downloading.add(task.id);
      this.#track(
        this.#download(task).finally(() => {
          this.#downloading.delete(task.id);
        }),
      );
    }
  }

  async #download(completed: Task): Promise<void> {
    const task = this.store.transition(completed.id, 'downloading', { from: ['completed'] });
    if (!task) return;
    this.#changed(task);
    const policy = downloadPolicyOf(this.#profile, this.#service?.baseUrl ?? null);
    const retryable = await saveOutputs(
      {
        store: this.store,
        libraryDir: this.libraryDir,
        maxOutputBytes: this.#options.maxOutputBytes,
        dispatcher: this.#downloadAgents.agentFor(policy),
        times: this.#downloadLimits,
        signal: this.#stopDownloads.signal,
      },
      task,
    );
    // a try that failed for a passing reason is made again later, up to the limit of tries
    const nextTry = retryable && !this.#closed ? this.#downloadTries.failed(task.id, Date.now()) : null;
    if (retryable && (nextTry !== null || this.#closed)) {
      const t = this.store.transition(task.id, 'completed', {
        from: ['downloading'],
        patch: { error: { kind: 'download', message: `${retryable} The app will try again.`, code: null } },
        detail: 'download interrupted',
      });
      if (t) this.#changed(t);
      if (nextTry !== null) this.#wakeAt(nextTry);
      return;
    }
    if (retryable) failPendingOutputs(this.store, task, retryable);
    this.#downloadTries.clear(task.id);
    const { state, error } = settledState(this.store.getTask(task.id)?.outputs ?? []);
    const t = this.store.transition(task.id, state, {
      from: ['downloading'],
      patch: { error, ...(state === 'saved' ? { savedAt: new Date().toISOString() } : {}) },
    });
    if (t) this.#changed(t);
  }

  // ---------- reachability ----------

  #offlineBackoffMs(): number {
    const { baseMs, maxMs } = this.#options.offlineBackoff;
    const raw = Math.min(maxMs, baseMs * 2 ** Math.min(10, this.#offlineFailures));
    return raw * (0.8 + 0.2 * this.#random());
  }

  #noteUnreachable(): void {
    this.#online = false;
    this.#offlineUntil = Date.now() + this.#offlineBackoffMs();
    this.#offlineFailures += 1;
    this.#wakeAt(this.#offlineUntil);
    this.#emitStatus();
  }

  #noteReachable(): void {
    if (this.#online && this.#offlineFailures === 0) return;
    this.#online = true;
    this.#offlineFailures = 0;
    this.#offlineUntil = 0;
    this.#emitStatus();
  }

  // ---------- helpers ----------

  #checkBudget(estimate: number | null, acceptUnknownPrice: boolean, taskType: string): void {
    const budget = this.budget();
    if (budget === null) return;
    if (estimate === null && !acceptUnknownPrice) {
      // an unknown price never counts as $0 against a budget: the user decides
      throw new PriceUnknownError(
        `the service publishes no price for ${taskType}, so the app cannot tell whether it fits your budget; confirm to queue it anyway`,
      );
    }
    const spent = this.store.costSummary().spentMicros;
    const next = estimate ?? 0;
    if (spent + next > budget) {
      const usd = (m: number) => `$${(m / 1_000_000).toFixed(4).replace(/0{1,2}$/, '')}`;
      throw new BudgetExceededError(
        `this task (${usd(next)}) would take the total to ${usd(spent + next)}, over your budget of ${usd(budget)}; raise the budget in Settings to queue it`,
      );
    }
  }

  #requireClient(): ServiceClient {
    if (!this.#client) throw new TaskActionError('no service is set up: add an API key or use the sandbox');
    return this.#client;
  }

  #cannot(id: string, action: string, allowed: string): string {
    const t = this.store.getTask(id);
    if (!t) return `no task ${id} in the library`;
    return `cannot ${action} a task that is ${t.state}: ${allowed} can be`;
  }

  #assertOpen(): void {
    if (this.#closed) throw new TaskActionError('the engine is closed');
  }

  #changed(task: Task): void {
    this.#changes.push({ taskId: task.id, task });
    this.#emitStatusSoon();
  }

  /** The queue counts in the status follow task changes, at most once per batch interval. */
  #emitStatusSoon(): void {
    if (this.#statusTimer || this.#statusListeners.size === 0) return;
    this.#statusTimer = setTimeout(() => {
      this.#statusTimer = null;
      if (!this.#closed) this.#emitStatus();
    }, this.#options.batchIntervalMs ?? 50);
  }

  #changedById(id: string): Task {
    const task = this.store.getTask(id);
    if (!task) throw new TaskActionError(`no task ${id} in the library`);
    this.#changed(task);
    return task;
  }

  #emitStatus(): void {
    if (this.#statusListeners.size === 0) return;
    const status = this.status();
    for (const l of this.#statusListeners) {
      try {
        l(status);
      } catch {
        // a failing listener must not stop the engine
      }
    }
  }
}
