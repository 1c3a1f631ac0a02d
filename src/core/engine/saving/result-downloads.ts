/**
 * Downloading completed tasks' results into the library, a few at a time, as soon as the
 * service has them: each task goes `completed` → `downloading` → `saved` (or `expired`,
 * `failed`), and back to `completed` to be tried again later when a try failed for a passing
 * reason (output-downloads.ts counts the tries; output-saving.ts saves the files).
 */
import type { Task } from '../../../shared/index.ts';
import { isoNow } from '../engine-clock.ts';
import type { EngineContext } from '../engine-context.ts';
import {
  DownloadAgents,
  type DownloadLimits,
  DownloadTries,
  downloadPolicyOf,
  failPendingOutputs,
} from './output-downloads.ts';
import { saveOutputs, settledState } from './output-saving.ts';

/** Tasks downloading at once. */
const DOWNLOAD_CONCURRENCY = 3;

export interface ResultDownloadsOptions {
  limits: DownloadLimits;
  /** Largest output file accepted, in bytes. */
  maxOutputBytes: number;
}

export class ResultDownloads {
  readonly #ctx: EngineContext;
  readonly #options: ResultDownloadsOptions;
  readonly #tries: DownloadTries;
  readonly #agents = new DownloadAgents();
  /** Aborted on close, so no download keeps the engine open. */
  readonly #stop = new AbortController();
  /** Ids of the tasks downloading now. */
  readonly #downloading = new Set<string>();

  constructor(ctx: EngineContext, options: ResultDownloadsOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#tries = new DownloadTries(options.limits);
  }

  /** Starts the downloads that may start at `now`, and sets the loop to wake for a later try. */
  start(now: number): void {
    const { loop, reachability, store } = this.#ctx;
    // with the network off every try would fail and use up the task's tries
    if (this.#downloading.size >= DOWNLOAD_CONCURRENCY || !reachability.networkSignal) return;
    const candidates = store.tasksInStates(['completed'], DOWNLOAD_CONCURRENCY * 4);
    for (const task of candidates) {
      if (this.#downloading.size >= DOWNLOAD_CONCURRENCY) break;
      if (this.#downloading.has(task.id)) continue;
      const notBefore = this.#tries.notBefore(task.id, now);
      if (notBefore !== null) {
        loop.wakeAt(notBefore);
        continue;
      }
      this.#downloading.add(task.id);
      loop.track(
        this.#download(task).finally(() => {
          this.#downloading.delete(task.id);
        }),
      );
    }
  }

  /** The user asked for another try: the task's earlier tries no longer count. */
  forgetTries(taskId: string): void {
    this.#tries.clear(taskId);
  }

  /** Tasks left `downloading` by a failed write (disk full) go back to `completed`, to be downloaded again. */
  resumeInterrupted(): void {
    const { store } = this.#ctx;
    for (const task of store.tasksInStates(['downloading'])) {
      if (this.#downloading.has(task.id)) continue;
      store.transition(task.id, 'completed', { from: ['downloading'], detail: 'download resumed' });
    }
  }

  /** Stops the downloads under way; their tasks are downloaded again after the next open. */
  abort(): void {
    this.#stop.abort();
  }

  async close(): Promise<void> {
    await this.#agents.close();
  }

  async #download(completed: Task): Promise<void> {
    const { clock, connection, events, libraryDir, loop, store } = this.#ctx;
    const task = store.transition(completed.id, 'downloading', { from: ['completed'] });
    if (!task) return;
    events.changed(task);
    const policy = downloadPolicyOf(connection.profile, connection.settings?.baseUrl ?? null);
    const retryable = await saveOutputs(
      {
        store,
        libraryDir,
        maxOutputBytes: this.#options.maxOutputBytes,
        maxTaskBytes: this.#options.limits.maxTaskBytes,
        dispatcher: this.#agents.agentFor(policy),
        times: this.#options.limits,
        signal: this.#stop.signal,
      },
      task,
    );
    // a try that failed for a passing reason is made again later, up to the limit of tries
    const nextTry = retryable && !loop.closed ? this.#tries.failed(task.id, clock.now()) : null;
    if (retryable && (nextTry !== null || loop.closed)) {
      const t = store.transition(task.id, 'completed', {
        from: ['downloading'],
        patch: { error: { kind: 'download', message: `${retryable} The app will try again.`, code: null } },
        detail: 'download interrupted',
      });
      if (t) events.changed(t);
      if (nextTry !== null) loop.wakeAt(nextTry);
      return;
    }
    if (retryable) failPendingOutputs(store, task, retryable);
    this.#tries.clear(task.id);
    const { state, error } = settledState(store.getTask(task.id)?.outputs ?? []);
    const t = store.transition(task.id, state, {
      from: ['downloading'],
      patch: { error, ...(state === 'saved' ? { savedAt: isoNow(clock) } : {}) },
    });
    if (t) events.changed(t);
  }
}
