/**
 * Coalesces task events into batches: at most one batch per `intervalMs` per subscriber set,
 * and only the latest event per task inside a batch, so 1,000 active tasks cannot flood the UI.
 */
import { type EngineClock, SYSTEM_CLOCK } from './engine-clock.ts';

export interface Batchable {
  taskId: string;
}

export class EventBatcher<E extends Batchable> {
  readonly #intervalMs: number;
  readonly #listeners = new Set<(batch: E[]) => void>();
  #pending = new Map<string, E>();
  readonly #clock: EngineClock;
  /** Cancels the pending flush; null when none is pending. */
  #cancelFlush: (() => void) | null = null;
  #lastFlush = 0;

  constructor(intervalMs = 50, clock: EngineClock = SYSTEM_CLOCK) {
    this.#intervalMs = intervalMs;
    this.#clock = clock;
  }

  subscribe(listener: (batch: E[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  push(event: E): void {
    // keep insertion order of first appearance, latest content
    this.#pending.delete(event.taskId);
    this.#pending.set(event.taskId, event);
    if (this.#cancelFlush) return;
    const wait = Math.max(0, this.#lastFlush + this.#intervalMs - this.#clock.now());
    // kept referenced: a waiting CLI or worker must not exit before the last batch is delivered
    this.#cancelFlush = this.#clock.schedule(wait, () => this.flush());
  }

  /** Delivers what is pending now (also used on close). */
  flush(): void {
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    this.#lastFlush = this.#clock.now();
    for (const listener of this.#listeners) {
      try {
        listener(batch);
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
