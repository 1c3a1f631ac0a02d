/**
 * Coalesces task changes: listeners hear at most one delivery per `intervalMs`, holding only the
 * latest change per task since the last one, so 1,000 active tasks cannot flood the UI. (A
 * "batch" in this app is tasks queued together; this is not one.)
 */
import { type EngineClock, SYSTEM_CLOCK } from './engine-clock.ts';

export interface PerTask {
  taskId: string;
}

export class ChangeCoalescer<E extends PerTask> {
  readonly #intervalMs: number;
  readonly #listeners = new Set<(changes: E[]) => void>();
  #pending = new Map<string, E>();
  readonly #clock: EngineClock;
  /** Cancels the pending flush; null when none is pending. */
  #cancelFlush: (() => void) | null = null;
  #lastFlush = 0;

  constructor(intervalMs = 50, clock: EngineClock = SYSTEM_CLOCK) {
    this.#intervalMs = intervalMs;
    this.#clock = clock;
  }

  subscribe(listener: (changes: E[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  push(event: E): void {
    // keep insertion order of first appearance, latest content
    this.#pending.delete(event.taskId);
    this.#pending.set(event.taskId, event);
    if (this.#cancelFlush) return;
    const wait = Math.max(0, this.#lastFlush + this.#intervalMs - this.#clock.now());
    // kept referenced: a waiting CLI or worker must not exit before the last changes are delivered
    this.#cancelFlush = this.#clock.schedule(wait, () => this.flush());
  }

  /** Delivers what is pending now (also used on close). */
  flush(): void {
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#pending.size === 0) return;
    const changes = [...this.#pending.values()];
    this.#pending = new Map();
    this.#lastFlush = this.#clock.now();
    for (const listener of this.#listeners) {
      try {
        listener(changes);
      } catch {
        // a failing subscriber must not stop the others or the engine
      }
    }
  }

  close(): void {
    this.flush();
    this.#listeners.clear();
  }
}
