/**
 * A global limit on fetches per second (token bucket), plus a pause that a 429's Retry-After
 * imposes on every fetch.
 */
export class FetchRateLimiter {
  readonly #ratePerSecond: number;
  readonly #burst: number;
  #tokens: number;
  #lastRefill: number;
  #pausedUntil = 0;

  /** `startedAt`: the time (epoch ms) the bucket is full at. */
  constructor(ratePerSecond: number, startedAt = Date.now(), burst = Math.max(1, Math.ceil(ratePerSecond))) {
    if (!(ratePerSecond > 0)) throw new Error('fetch rate must be positive');
    this.#ratePerSecond = ratePerSecond;
    this.#burst = burst;
    this.#tokens = burst;
    this.#lastRefill = startedAt;
  }

  /** Takes a token if one is free now; otherwise returns how many ms to wait before trying again. */
  tryTake(now = Date.now()): { ok: true } | { ok: false; waitMs: number } {
    if (now < this.#pausedUntil) return { ok: false, waitMs: this.#pausedUntil - now };
    this.#refill(now);
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return { ok: true };
    }
    return { ok: false, waitMs: Math.ceil(((1 - this.#tokens) / this.#ratePerSecond) * 1000) };
  }

  /** Every fetch waits at least until `untilMs` (epoch ms), e.g. after a 429 with Retry-After. */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#lastRefill) / 1000;
    this.#tokens = Math.min(this.#burst, this.#tokens + elapsed * this.#ratePerSecond);
    this.#lastRefill = now;
  }
}
