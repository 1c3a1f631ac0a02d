/**
 * The engine's rules for result downloads, beside result-downloads.ts: where they may connect (by the
 * profile the engine runs), how long one may take, how many times a task's downloads are tried
 * before its outputs end `failed`, how many outputs one task may have and how many bytes they may
 * take together, and putting failed outputs back to `pending` when the user asks for another try.
 */
import type { Dispatcher } from 'undici';
import type { ServiceProfile, Task, TaskError } from '../../../shared/index.ts';
import {
  createDownloadAgent,
  DEFAULT_DOWNLOAD_TIMES,
  type DownloadAddressPolicy,
  type DownloadTimes,
} from '../../downloads/index.ts';
import { backoffStep } from '../../service/index.ts';
import type { LibraryStore } from '../../store/index.ts';

export interface DownloadLimits extends DownloadTimes {
  /** Tries of a task's downloads (network trouble, 5xx) before its outputs end failed. */
  attempts: number;
  /** Wait before the second try, doubling for each next one. */
  backoffMs: number;
  /** Most outputs one task may have; a completed task with more fails and nothing is downloaded. */
  maxOutputsPerTask: number;
  /**
   * Most bytes all of one task's results may take together (each file is also capped on its
   * own: EngineOptions.maxOutputBytes); a result that would pass it fails, naming it.
   */
  maxTaskBytes: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = {
  ...DEFAULT_DOWNLOAD_TIMES,
  attempts: 5,
  backoffMs: 3_000,
  maxOutputsPerTask: 50,
  maxTaskBytes: 2_000_000_000,
};

const MAX_BACKOFF_MS = 60_000;

/**
 * Where downloads may connect under a profile: public addresses, loopback too for the built-in
 * sandbox, and the service's own origin wherever it is (the user chose that address; the API
 * calls go there already).
 */
export function downloadPolicyOf(
  profile: ServiceProfile,
  serviceBaseUrl: string | null,
): DownloadAddressPolicy {
  let trustedOrigin: string | null = null;
  try {
    trustedOrigin = serviceBaseUrl ? new URL(serviceBaseUrl).origin : null;
  } catch {
    trustedOrigin = null;
  }
  return { allowLoopback: profile.name === 'sandbox', trustedOrigin };
}

/** One download agent for the policy in force; a new one (the old closed) when it changes. */
export class DownloadAgents {
  #key = '';
  #agent: ReturnType<typeof createDownloadAgent> | null = null;

  agentFor(policy: DownloadAddressPolicy): Dispatcher {
    const key = `${policy.allowLoopback}|${policy.trustedOrigin ?? ''}`;
    if (!this.#agent || key !== this.#key) {
      // downloads still running on the old agent finish on it
      void this.#agent?.close().catch(() => undefined);
      this.#agent = createDownloadAgent(policy);
      this.#key = key;
    }
    return this.#agent;
  }

  async close(): Promise<void> {
    const agent = this.#agent;
    this.#agent = null;
    await agent?.destroy().catch(() => undefined);
  }
}

/** How many times each task's downloads were tried in this session, and when the next try may start. */
export class DownloadTries {
  readonly #tries = new Map<string, { attempts: number; notBefore: number }>();
  readonly #limits: DownloadLimits;

  constructor(limits: DownloadLimits) {
    this.#limits = limits;
  }

  /** When the task's next try may start (epoch ms), or null when it may start now. */
  notBefore(taskId: string, now: number): number | null {
    const t = this.#tries.get(taskId);
    return t && t.notBefore > now ? t.notBefore : null;
  }

  /** Notes a try that failed: the time of the next try, or null when the tries are used up. */
  failed(taskId: string, now: number): number | null {
    const attempts = (this.#tries.get(taskId)?.attempts ?? 0) + 1;
    if (attempts >= this.#limits.attempts) {
      this.#tries.delete(taskId);
      return null;
    }
    const wait = backoffStep(attempts, { baseDelayMs: this.#limits.backoffMs, maxDelayMs: MAX_BACKOFF_MS });
    this.#tries.set(taskId, { attempts, notBefore: now + wait });
    return now + wait;
  }

  clear(taskId: string): void {
    this.#tries.delete(taskId);
  }
}

/** The task error for a completed task with more outputs than allowed, or null. */
export function outputCountProblem(count: number, max: number): TaskError | null {
  if (count <= max) return null;
  return {
    kind: 'too-many-outputs',
    message: `The service returned ${count} results for this task; the app accepts at most ${max} from one task, so it downloaded none. The service's record of the task (and any cost it reports) stands.`,
    code: null,
  };
}

/** Marks every output still pending as failed, with the last try's message. */
export function failPendingOutputs(store: LibraryStore, task: Task, message: string): void {
  for (const output of store.getTask(task.id)?.outputs ?? []) {
    if (output.state === 'pending')
      store.updateOutput(task.id, output.index, { state: 'failed', error: message });
  }
}

/**
 * Puts a task's failed outputs back to `pending` and the task back to `completed`, so the
 * engine downloads them again. Returns the task, or a sentence saying why it cannot.
 */
export function reopenFailedDownloads(store: LibraryStore, id: string): Task | string {
  return store.transaction(() => {
    const task = store.getTask(id);
    if (!task) return `no task ${id} in the library`;
    const failed = task.outputs.filter((o) => o.state === 'failed');
    if ((task.state !== 'failed' && task.state !== 'saved') || failed.length === 0) {
      return `this task has no failed download to try again (it is ${task.state})`;
    }
    for (const output of failed) store.updateOutput(id, output.index, { state: 'pending', error: null });
    return (
      store.transition(id, 'completed', {
        from: ['failed', 'saved'],
        patch: { error: null },
        detail: 'download tried again by the user',
      }) ?? `no task ${id} in the library`
    );
  });
}
