/**
 * A clock for engine tests (EngineOptions.clock). It stands still until the test moves it
 * (`advance`), or follows the system's time once told to `run`. `advance` fires each timer that
 * falls due on the way at its own time, in order, and lets the engine finish what the timer
 * started before the next one: after `advance(HOUR, engine)`, anything the engine would have
 * done in that hour is done, without waiting an hour or guessing how long is enough.
 */
import type { EngineClock } from '../../src/core/engine/index.ts';

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

interface Timer {
  at: number;
  seq: number;
  callback: () => void;
}

/** More timers than this in one `advance` means the engine is looping, not waiting. */
const MAX_TIMERS_PER_ADVANCE = 10_000;

export class TestClock implements EngineClock {
  /** The time while the clock stands still; null while it runs. */
  #stoppedAt: number | null;
  /** While it runs: its time less the system's. */
  #offset = 0;
  #seq = 0;
  readonly #timers = new Set<Timer>();
  /** The system timer for the earliest timer, while the clock runs. */
  #systemTimer: NodeJS.Timeout | null = null;

  /** A clock standing still at `startAt` (default: the system's time now). */
  constructor(startAt = Date.now()) {
    this.#stoppedAt = startAt;
  }

  now(): number {
    return this.#stoppedAt ?? Date.now() + this.#offset;
  }

  schedule(ms: number, callback: () => void): () => void {
    const timer: Timer = { at: this.now() + Math.max(0, ms), seq: this.#seq++, callback };
    this.#timers.add(timer);
    this.#arm();
    return () => {
      this.#timers.delete(timer);
      this.#arm();
    };
  }

  /** How many timers wait. */
  get pending(): number {
    return this.#timers.size;
  }

  /** From now on the clock follows the system's time; its timers fire by themselves. */
  run(): void {
    if (this.#stoppedAt === null) return;
    this.#offset = this.#stoppedAt - Date.now();
    this.#stoppedAt = null;
    this.#arm();
  }

  /** Stops the clock where it is. */
  stop(): void {
    if (this.#stoppedAt !== null) return;
    this.#stoppedAt = this.now();
    this.#arm();
  }

  /**
   * Moves the clock `ms` forward. Each timer due on the way fires at its own time, in order; with
   * an engine, the clock waits for it to be idle before the first timer and after each, so work a
   * timer starts ends, and sets its own timers, before the clock moves on.
   */
  async advance(ms: number, engine?: { idle(): Promise<void> }): Promise<void> {
    const settle = async () => engine?.idle();
    const target = this.now() + ms;
    await settle();
    for (let fired = 0; ; fired++) {
      if (fired > MAX_TIMERS_PER_ADVANCE) throw new Error(`more than ${fired} timers in ${ms} ms`);
      const next = this.#earliest();
      if (!next || next.at > target) break;
      this.#setNow(Math.max(this.now(), next.at));
      this.#timers.delete(next);
      next.callback();
      await settle();
    }
    this.#setNow(Math.max(this.now(), target));
    this.#arm();
  }

  #setNow(time: number): void {
    if (this.#stoppedAt !== null) this.#stoppedAt = time;
    else this.#offset = time - Date.now();
  }

  #earliest(): Timer | undefined {
    let first: Timer | undefined;
    for (const t of this.#timers) {
      if (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq)) first = t;
    }
    return first;
  }

  /** While the clock runs, a system timer waits for the earliest of its timers. */
  #arm(): void {
    if (this.#systemTimer) clearTimeout(this.#systemTimer);
    this.#systemTimer = null;
    if (this.#stoppedAt !== null) return;
    const next = this.#earliest();
    if (!next) return;
    this.#systemTimer = setTimeout(
      () => {
        this.#systemTimer = null;
        this.#fireDue();
      },
      Math.max(0, next.at - this.now()),
    );
  }

  #fireDue(): void {
    for (;;) {
      const next = this.#earliest();
      if (!next || next.at > this.now()) break;
      this.#timers.delete(next);
      next.callback();
    }
    this.#arm();
  }
}
