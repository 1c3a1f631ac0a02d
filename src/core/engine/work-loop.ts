/**
 * The engine's work loop: a pump that starts whatever is due (sends, fetches, downloads), run
 * soon after anything changes (`kick`) and at the earliest time something falls due (`wakeAt`),
 * and the work under way, which `idle` and closing wait for.
 */
import type { EngineClock } from './engine-clock.ts';

/** A turn of the event loop: what waits (a page read, a state change, the opening) goes first. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface WorkLoopOptions {
  clock: EngineClock;
  /** Starts whatever is due at `now`. */
  pump: (now: number) => void;
  /** A piece of work failed with an error its own steps did not handle. */
  onFailure: (err: unknown) => void;
}

export class WorkLoop {
  readonly #options: WorkLoopOptions;
  readonly #work = new Set<Promise<unknown>>();
  /** The part of #work that is the library's upkeep (Recently deleted's purge, retention's run). */
  readonly #background = new Set<Promise<unknown>>();
  #closed = false;
  #pumpScheduled = false;
  /** Cancels the timer of the next wake; null when none is set. */
  #cancelWake: (() => void) | null = null;
  #wakeAt = Number.POSITIVE_INFINITY;

  constructor(options: WorkLoopOptions) {
    this.#options = options;
  }

  /** True once the engine started closing: nothing new starts. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs the pump soon (once, however many times this is called before it runs). */
  kick(): void {
    if (this.#closed || this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  /** Runs the pump at `at` (epoch ms on the engine's clock), unless a wake is set earlier. */
  wakeAt(at: number): void {
    if (this.#closed || at >= this.#wakeAt) return;
    this.#cancelWake?.();
    this.#wakeAt = at;
    const { clock } = this.#options;
    this.#cancelWake = clock.schedule(Math.max(0, at - clock.now()), () => {
      this.#cancelWake = null;
      this.#wakeAt = Number.POSITIVE_INFINITY;
      this.#pump();
    });
  }

  /**
   * Keeps `p` as work under way; when it ends, the pump runs again. `background`: the library's
   * upkeep, not a task's work (idle can leave it out; closing waits for it all the same).
   */
  track<T>(p: Promise<T>, { background = false }: { background?: boolean } = {}): void {
    const tracked = p.then(
      () => undefined,
      (err: unknown) => this.#options.onFailure(err),
    );
    this.#work.add(tracked);
    if (background) this.#background.add(tracked);
    void tracked.finally(() => {
      this.#work.delete(tracked);
      this.#background.delete(tracked);
      this.kick();
    });
  }

  /**
   * Resolves when no work is under way and no pump is about to run; with `background: false`,
   * the background work (a purge of a big Recently deleted takes minutes) may go on.
   */
  async idle({ background = true }: { background?: boolean } = {}): Promise<void> {
    for (;;) {
      const waited = [...this.#work].filter((p) => background || !this.#background.has(p));
      if (waited.length > 0) await Promise.allSettled(waited);
      else if (this.#pumpScheduled) await new Promise((resolve) => setImmediate(resolve));
      else return;
    }
  }

  /** Starts nothing more and cancels the wake; what is under way goes on (see `settled`). */
  stop(): void {
    this.#closed = true;
    this.#cancelWake?.();
    this.#cancelWake = null;
  }

  /** Waits for the work under way now. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#work]);
  }

  #pump(): void {
    if (this.#closed) return;
    this.#options.pump(this.#options.clock.now());
  }
}
