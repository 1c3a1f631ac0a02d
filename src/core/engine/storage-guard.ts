/**
 * Keeps the engine from acting while the library cannot record what it does (disk full, disk
 * errors, a read-only folder). A write that fails for such a reason blocks the engine: nothing
 * more is sent, fetched or downloaded, and `problem` says why in words. Writes the engine must
 * not lose (the service's answer to a create: what was created, and billed) are kept in memory
 * and committed again, first thing, once the library takes writes. A small write is tried every
 * `retryMs`; when it and every kept write go through, the engine resumes by itself.
 */
import { type EngineClock, SYSTEM_CLOCK } from './engine-clock.ts';

export interface StorageGuardOptions {
  /** A small write to the library; throws while the library cannot take writes. */
  probe: () => void;
  /** How often to try again while blocked, in ms. */
  retryMs: number;
  /** Called when a problem starts, changes or ends. */
  onChange: () => void;
  /** The clock the retries wait on. Default: the system's. */
  clock?: EngineClock;
}

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;

export const DISK_FULL_PROBLEM =
  "The library's disk is full: nothing more is sent until there is room. Free some space and the app goes on by itself.";

/** The sentence for a write the library's storage refused; null when `err` is something else (a bug, a rule). */
export function storageProblemOf(err: unknown): string | null {
  if (!err || typeof err !== 'object') return null;
  const { errcode, errstr, code } = err as { errcode?: unknown; errstr?: unknown; code?: unknown };
  const detail = typeof errstr === 'string' ? errstr : (err as Error).message;
  if (typeof errcode === 'number') return sqliteProblem(errcode & 0xff, detail);
  if (code === 'ENOSPC' || code === 'EDQUOT') return DISK_FULL_PROBLEM;
  if (code === 'EROFS') return readOnlyProblem();
  if (code === 'EIO') return ioProblem(detail);
  return null;
}

function sqliteProblem(primary: number, detail: string): string | null {
  if (primary === SQLITE_FULL) return DISK_FULL_PROBLEM;
  if (primary === SQLITE_IOERR || primary === SQLITE_CANTOPEN) return ioProblem(detail);
  if (primary === SQLITE_READONLY) return readOnlyProblem();
  if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) {
    return 'The library database is held by another program: nothing more is sent until the app can write to it again.';
  }
  return null;
}

function ioProblem(detail: string): string {
  return `The library's disk cannot be written (${detail}): nothing more is sent until it can.`;
}

function readOnlyProblem(): string {
  return "The library's folder cannot be written to (it is read-only): nothing more is sent until it can.";
}

export class StorageGuard {
  readonly #options: StorageGuardOptions;
  /** Writes waiting for the library to take writes again, by key, in the order they failed. */
  readonly #kept = new Map<string, () => void>();
  #problem: string | null = null;
  /** Cancels the scheduled retry; null when none is scheduled. */
  #cancelRetry: (() => void) | null = null;
  #closed = false;

  constructor(options: StorageGuardOptions) {
    this.#options = options;
  }

  /** Why the engine waits, in words; null while the library takes writes. */
  get problem(): string | null {
    return this.#problem;
  }

  get blocked(): boolean {
    return this.#problem !== null;
  }

  /**
   * Runs `write` now. When the library's storage refuses it, the write is kept (under `key`,
   * replacing an older one) and runs again before the engine resumes; returns false. Any other
   * error is thrown.
   */
  keep(key: string, write: () => void): boolean {
    try {
      write();
      return true;
    } catch (err) {
      if (!this.noteFailure(err)) throw err;
      this.#kept.set(key, write);
      return false;
    }
  }

  /** Notes a failed write or background step: true when the storage failed (the engine then waits). */
  noteFailure(err: unknown): boolean {
    const problem = storageProblemOf(err);
    if (problem === null || this.#closed) return problem !== null;
    const changed = problem !== this.#problem;
    this.#problem = problem;
    this.#scheduleRetry();
    if (changed) this.#notify();
    return true;
  }

  /** Tries the kept writes one last time (the engine is closing) and stops retrying. */
  close(): void {
    if (this.#closed) return;
    if (this.#kept.size > 0) this.#commitKept();
    this.#closed = true;
    this.#cancelRetry?.();
    this.#cancelRetry = null;
  }

  #scheduleRetry(): void {
    if (this.#cancelRetry || this.#closed) return;
    // kept referenced: a CLI waiting for its task must not exit while the engine waits for room
    this.#cancelRetry = (this.#options.clock ?? SYSTEM_CLOCK).schedule(this.#options.retryMs, () => {
      this.#cancelRetry = null;
      this.#retry();
    });
  }

  /** The probe, then every kept write; the engine resumes only when all of them went through. */
  #retry(): void {
    if (this.#closed || this.#problem === null) return;
    try {
      this.#options.probe();
    } catch (err) {
      this.#stillBlocked(err);
      return;
    }
    if (!this.#commitKept()) return;
    this.#problem = null;
    this.#notify();
  }

  /** Tells the engine; a write of its own that the storage refuses blocks again, never throws out of a timer. */
  #notify(): void {
    try {
      this.#options.onChange();
    } catch (err) {
      this.noteFailure(err);
    }
  }

  /** Commits the kept writes in order; false (and a retry scheduled) when the storage refused one. */
  #commitKept(): boolean {
    for (const [key, write] of this.#kept) {
      try {
        write();
      } catch (err) {
        if (storageProblemOf(err) !== null) {
          this.#stillBlocked(err);
          return false;
        }
        // not the storage: trying again will not help; the task is left as the library has it
      }
      this.#kept.delete(key);
    }
    return true;
  }

  #stillBlocked(err: unknown): void {
    if (!this.noteFailure(err)) {
      // the probe failed for another reason: keep waiting, with the reason already shown
      this.#scheduleRetry();
    }
  }
}
