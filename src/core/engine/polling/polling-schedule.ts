/**
 * When to fetch a running task next. Pure functions: the engine and the polling benchmark
 * (which runs them on a simulated clock) share them.
 *
 * The idea: the first fetch waits for the lower end of what similar tasks took before (learned
 * from the library), and later fetches are spaced by 5% of the time the task has already run
 * (at least 1 s, at most `maxIntervalMs`). Since a task that completes at time D was last
 * fetched before it at some t < D, the detection delay is at most max(1 s, 5% of D), and the
 * number of fetches grows with the logarithm of the overrun, not linearly like a fixed poller.
 */

export interface DurationSample {
  /** Service-side duration in ms (created → ended). */
  durationMs: number;
  /** The size parameter of that task (e.g. txt2audio `duration` in seconds), or null. */
  size: number | null;
}

export interface DurationEstimate {
  /** Expected duration in ms. */
  expectedMs: number;
  /** A low quantile (p2, less 10%) of the duration: when the first fetch is worth making. */
  earlyMs: number;
  /** How many samples the estimate rests on (0: catalog default). */
  samples: number;
}

export interface PollingTuning {
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Fraction of the elapsed time used as the spacing of later fetches. */
  elapsedFraction: number;
  /** First fetch when there is no history, in ms after submission. */
  firstFetchNoHistoryMs: number;
  /** Share of each delay that jitter may remove (only ever shortens, so the bounds hold). */
  jitter: number;
}

export const DEFAULT_POLLING: PollingTuning = {
  minIntervalMs: 1_000,
  maxIntervalMs: 60_000,
  elapsedFraction: 0.05,
  firstFetchNoHistoryMs: 1_000,
  jitter: 0.1,
};

/**
 * The first fetch goes out at this quantile of past durations, less a margin: a task that ends
 * before its first fetch is detected late, so this must be rare (well under 5% of tasks).
 */
const EARLY_QUANTILE = 0.02;
const EARLY_MARGIN = 0.9;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (b - a) * (pos - lo);
}

/**
 * Estimates a task's duration from the history of its model and task type. With a size
 * parameter and enough spread in it, fits duration = a + b * size by least squares and takes
 * quantiles of the ratio actual / fitted; otherwise uses quantiles of the durations.
 */
export function estimateDuration(
  history: readonly DurationSample[],
  size: number | null,
  defaultMs: number,
): DurationEstimate {
  const samples = history.filter((s) => Number.isFinite(s.durationMs) && s.durationMs > 0);
  if (samples.length < 3) return { expectedMs: defaultMs, earlyMs: 0, samples: 0 };

  const sized = size !== null ? samples.filter((s) => s.size !== null && s.size > 0) : [];
  if (size !== null && sized.length >= 5) {
    const n = sized.length;
    const mx = sized.reduce((t, s) => t + (s.size as number), 0) / n;
    const my = sized.reduce((t, s) => t + s.durationMs, 0) / n;
    let sxx = 0;
    let sxy = 0;
    for (const s of sized) {
      const dx = (s.size as number) - mx;
      sxx += dx * dx;
      sxy += dx * (s.durationMs - my);
    }
    if (sxx > 0) {
      const b = Math.max(0, sxy / sxx);
      const a = my - b * mx;
      const fitted = (x: number) => Math.max(1, a + b * x);
      const ratios = sized.map((s) => s.durationMs / fitted(s.size as number)).sort((p, q) => p - q);
      const predicted = fitted(size);
      return {
        expectedMs: predicted * quantile(ratios, 0.5),
        earlyMs: EARLY_MARGIN * predicted * quantile(ratios, EARLY_QUANTILE),
        samples: n,
      };
    }
  }
  const sorted = samples.map((s) => s.durationMs).sort((p, q) => p - q);
  return {
    expectedMs: quantile(sorted, 0.5),
    earlyMs: EARLY_MARGIN * quantile(sorted, EARLY_QUANTILE),
    samples: sorted.length,
  };
}

/**
 * Milliseconds from now until the next fetch of a task that has been running `elapsedMs` since
 * it was submitted and has been fetched `fetches` times. `random` returns [0, 1).
 */
export function nextPollDelay(
  state: { elapsedMs: number; fetches: number; estimate: DurationEstimate },
  random: () => number,
  tuning: PollingTuning = DEFAULT_POLLING,
): number {
  const { elapsedMs, fetches, estimate } = state;
  const shrink = 1 - tuning.jitter * random();
  if (fetches === 0) {
    const first = estimate.samples > 0 ? estimate.earlyMs : tuning.firstFetchNoHistoryMs;
    return Math.max(0, first - elapsedMs) * shrink;
  }
  return spacing(elapsedMs, tuning) * shrink;
}

function spacing(elapsedMs: number, tuning: PollingTuning): number {
  return Math.min(tuning.maxIntervalMs, Math.max(tuning.minIntervalMs, elapsedMs * tuning.elapsedFraction));
}
