/**
 * What the engine tells its listeners: task changes, coalesced (change-coalescer.ts),
 * and the engine's status (online, the service, what waits and why), sent when it changes and,
 * for the queue counts, at most once per delivery interval after task changes.
 */
import { type EngineStatus, REMOTE_ACTIVE_STATES, type Task, type TaskChange } from '../../shared/index.ts';
import type { RetentionRunProgress } from '../../shared/task/retention.ts';
import type { LibraryStore } from '../store/index.ts';
import { ChangeCoalescer } from './change-coalescer.ts';
import type { EngineClock } from './engine-clock.ts';
import { TaskActionError } from './engine-errors.ts';
import type { Reachability } from './reachability.ts';
import type { ConcurrencyLimit } from './sending/concurrency-limit.ts';
import type { ServiceLoad } from './sending/service-load.ts';
import type { ServiceConnection } from './service-connection.ts';
import type { StorageGuard } from './storage-guard.ts';

export interface EngineEventsOptions {
  clock: EngineClock;
  store: LibraryStore;
  /** Shortest time between two deliveries of task changes, and between the status updates they cause. */
  intervalMs: number;
  /** The status as it is now. */
  status: () => EngineStatus;
  /** True once the engine is closing: a status update still waiting is dropped. */
  isClosed: () => boolean;
}

export class EngineEvents {
  readonly #options: EngineEventsOptions;
  readonly #changes: ChangeCoalescer<TaskChange>;
  readonly #statusListeners = new Set<(status: EngineStatus) => void>();
  /** Cancels the status update waiting after task changes; null when none waits. */
  #cancelStatusSoon: (() => void) | null = null;

  constructor(options: EngineEventsOptions) {
    this.#options = options;
    this.#changes = new ChangeCoalescer<TaskChange>(options.intervalMs, options.clock);
  }

  onStatus(listener: (status: EngineStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  onTaskChanges(listener: (changes: TaskChange[]) => void): () => void {
    return this.#changes.subscribe(listener);
  }

  /** A task changed: its new state goes out in the next delivery. */
  changed(task: Task): void {
    this.#changes.push({ taskId: task.id, task });
    this.#emitStatusSoon();
  }

  /** Like `changed`, reading the task from the library; throws when there is no such task. */
  changedById(id: string): Task {
    const task = this.#options.store.getTask(id);
    if (!task) throw new TaskActionError(`no task ${id} in the library`);
    this.changed(task);
    return task;
  }

  /** A task was deleted. */
  removed(id: string): void {
    this.#changes.push({ taskId: id, task: null });
  }

  /** Sends the status to every listener now. */
  emitStatus(): void {
    if (this.#statusListeners.size === 0) return;
    const status = this.#options.status();
    for (const l of this.#statusListeners) {
      try {
        l(status);
      } catch {
        // a failing listener must not stop the engine
      }
    }
  }

  /** Drops the status update waiting after task changes (the engine is closing). */
  cancelPending(): void {
    this.#cancelStatusSoon?.();
    this.#cancelStatusSoon = null;
  }

  /** Delivers the last changes and lets go of every listener. */
  close(): void {
    this.cancelPending();
    this.#changes.close();
    this.#statusListeners.clear();
  }

  /** The queue counts in the status follow task changes, at most once per delivery interval. */
  #emitStatusSoon(): void {
    if (this.#cancelStatusSoon || this.#statusListeners.size === 0) return;
    this.#cancelStatusSoon = this.#options.clock.schedule(this.#options.intervalMs, () => {
      this.#cancelStatusSoon = null;
      if (!this.#options.isClosed()) this.emitStatus();
    });
  }
}

/** The parts the status is read from. */
export interface StatusSources {
  now: number;
  store: LibraryStore;
  connection: ServiceConnection;
  reachability: Reachability;
  limit: ConcurrencyLimit;
  load: ServiceLoad;
  storage: StorageGuard;
  /** Until when sending waits after the service asked to wait (epoch ms; 0 for none). */
  submitPausedUntil: number;
  retentionRun: RetentionRunProgress | null;
}

export function engineStatusOf(s: StatusSources): EngineStatus {
  const waits = [s.reachability.offlineUntil, s.submitPausedUntil].filter((t) => t > s.now);
  return {
    online: s.reachability.online,
    networkSignal: s.reachability.networkSignal,
    serviceConfigured: s.connection.settings !== null,
    authProblem: s.connection.authProblem,
    serviceLimit: s.limit.learned?.tasks ?? null,
    serviceLimitReason: s.limit.learned?.reason ?? null,
    nextAttemptAt: waits.length ? Math.min(...waits) : null,
    queued: s.store.countInStates(['queued']),
    activeRemote: s.store.countInStates(REMOTE_ACTIVE_STATES),
    storageProblem: s.storage.problem,
    atService: s.load.known,
    retentionRun: s.retentionRun,
  };
}
