/** Small statistics for the UI benchmarks: percentiles and a one-line summary. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export interface FrameSummary {
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Share of frames (0..1) shorter than the budget. */
  underBudget: number;
}

export function summariseFrames(frameMs: readonly number[], budgetMs: number): FrameSummary {
  return {
    frames: frameMs.length,
    p50: percentile(frameMs, 50),
    p95: percentile(frameMs, 95),
    p99: percentile(frameMs, 99),
    max: frameMs.length === 0 ? Number.NaN : Math.max(...frameMs),
    underBudget: frameMs.length === 0 ? 0 : frameMs.filter((ms) => ms < budgetMs).length / frameMs.length,
  };
}

export const ms = (value: number): string => `${value.toFixed(1)} ms`;
export const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
export const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');
