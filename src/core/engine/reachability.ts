/**
 * Whether the service can be reached: the operating system's online signal, and a backoff while
 * calls fail to reach it. The backoff doubles and caps like every other in the app (backoffStep
 * of the service's retry policy), each wait shortened by up to a fifth at random so that many
 * computers coming back online do not all call at once.
 */
import { backoffStep } from '../service/index.ts';
import type { EngineClock } from './engine-clock.ts';

/** The wait after the first call that could not reach the service, doubling up to `maxMs`. */
export interface OfflineBackoff {
  baseMs: number;
  maxMs: number;
}

export interface ReachabilityOptions {
  clock: EngineClock;
  random: () => number;
  backoff: OfflineBackoff;
  /** Runs the work loop at `at` (when the backoff ends). */
  wakeAt: (at: number) => void;
  /** Called when the service becomes reachable or unreachable. */
  onChange: () => void;
}

export class Reachability {
  readonly #options: ReachabilityOptions;
  #networkSignal = true;
  #online = true;
  #failures = 0;
  #offlineUntil = 0;

  constructor(options: ReachabilityOptions) {
    this.#options = options;
  }

  /** The operating system's online/offline signal. */
  get networkSignal(): boolean {
    return this.#networkSignal;
  }

  /** Online as far as the engine knows: the signal says so and the last call reached the service. */
  get online(): boolean {
    return this.#online && this.#networkSignal;
  }

  /** When calls may go out again after failing to reach the service (epoch ms; 0 when now). */
  get offlineUntil(): number {
    return this.#offlineUntil;
  }

  /** The shell's signal; when it says online, the backoff starts over. */
  setNetworkSignal(online: boolean): void {
    this.#networkSignal = online;
    if (online) {
      this.#failures = 0;
      this.#offlineUntil = 0;
    }
  }

  /** Forgets every failure (the service settings changed). */
  reset(): void {
    this.#failures = 0;
    this.#offlineUntil = 0;
    this.#online = true;
  }

  /** Whether calls may go out at `now`; while the backoff runs, the work loop wakes when it ends. */
  allows(now: number): boolean {
    if (!this.#networkSignal) return false;
    if (now < this.#offlineUntil) {
      this.#options.wakeAt(this.#offlineUntil);
      return false;
    }
    return true;
  }

  /** The wait before the next call, after the failures so far. */
  backoffMs(): number {
    const { baseMs, maxMs } = this.#options.backoff;
    const step = backoffStep(this.#failures + 1, { baseDelayMs: baseMs, maxDelayMs: maxMs });
    return step * (0.8 + 0.2 * this.#options.random());
  }

  /** A call could not reach the service: no call goes out until the backoff ends. */
  noteUnreachable(): void {
    this.#online = false;
    this.#offlineUntil = this.#options.clock.now() + this.backoffMs();
    this.#failures += 1;
    this.#options.wakeAt(this.#offlineUntil);
    this.#options.onChange();
  }

  /** A call reached the service. */
  noteReachable(): void {
    if (this.#online && this.#failures === 0) return;
    this.#online = true;
    this.#failures = 0;
    this.#offlineUntil = 0;
    this.#options.onChange();
  }
}
