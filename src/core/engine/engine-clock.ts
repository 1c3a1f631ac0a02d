/**
 * The engine's clock: the time it reads and the timers it sets. The default is the system's;
 * tests pass one they move by hand, so a check that nothing happens in the next hour takes no
 * hour and no guess of how long is long enough.
 */
export interface EngineClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Calls `callback` once, `ms` from now (at once for 0 or less); the function returned cancels
   * it. A timer keeps the process running until it fires or is cancelled.
   */
  schedule(ms: number, callback: () => void): () => void;
}

export const SYSTEM_CLOCK: EngineClock = {
  now: () => Date.now(),
  schedule(ms, callback) {
    const timer = setTimeout(callback, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

/** The clock's time as an ISO string, for the times the engine records. */
export function isoNow(clock: EngineClock): string {
  return new Date(clock.now()).toISOString();
}
