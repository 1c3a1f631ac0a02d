/**
 * What a task cost as the service billed it, in micro-dollars (README "Decisions on the spec's
 * gaps", usage units). The service reports `usage.consume` in points whose value is not
 * published and is not the same for every family: its image, video and 3D examples fit 1 point =
 * 1e-7 USD (trellis 400,000 = $0.04), its ace-step example 1 unit = 1e-6 USD (5,000 for a 10 s
 * song at $0.0005/s), where the usage type is `llm`. A `point` (or any other type but `llm`) is
 * worth what the account says (`equivalent_in_usd / credits`) when the app has read it, else
 * 1e-7 USD. `quota` (form C's `quota_usage`) is not money and gives no cost.
 *
 * The figure is checked against the published price (the task's estimate): more than a factor
 * of two apart either way, both are kept, the cost is flagged, and the larger of the two is
 * counted, so a misread unit never lets spending pass the budget unseen.
 */
import { formatUsd } from '../catalog/price-rules.ts';

export interface TaskCost {
  /** What the budget and the spending summary count, in micro-dollars. */
  micros: number;
  /** The reported `usage.consume` in micro-dollars, at `microsPerPoint`. */
  reportedMicros: number;
  /** The published price (the task's estimate); null when none is published. */
  publishedMicros: number | null;
  /** Micro-dollars one reported point is worth, and where that value came from. */
  microsPerPoint: number;
  pointValueFrom: 'account' | 'usage type';
  /** True when reported and published are more than a factor of two apart. */
  flagged: boolean;
}

/** Micro-dollars one `point` is worth when the account's value is not known. */
export const DEFAULT_MICROS_PER_POINT = 0.1;
/** Micro-dollars one unit of usage type `llm` (ace-step) is worth. */
export const LLM_MICROS_PER_UNIT = 1;
/** How far apart reported and published may be before the cost is flagged. */
export const COST_DISAGREEMENT_FACTOR = 2;

/** Micro-dollars one credit is worth by the account's own figures; null when they do not say. */
export function accountMicrosPerPoint(account: {
  credits: number | null;
  balanceUsd: number | null;
}): number | null {
  const { credits, balanceUsd } = account;
  if (credits === null || balanceUsd === null || !(credits > 0) || !(balanceUsd > 0)) return null;
  const micros = (balanceUsd * 1_000_000) / credits;
  return Number.isFinite(micros) && micros > 0 ? micros : null;
}

/**
 * The cost of a task the service reported as ended with `usage`; null when the usage is not money
 * (`quota`) or says no charge (`consume` missing). `accountMicrosPerPoint` is the account's value
 * of a point when known.
 */
export function billedCostOf(
  usage: { type: string | null; consume: number | null } | null,
  publishedMicros: number | null,
  accountPerPoint: number | null,
): TaskCost | null {
  if (!usage || usage.consume === null || !Number.isFinite(usage.consume) || usage.consume < 0) return null;
  if (usage.type === 'quota') return null;
  const llm = usage.type === 'llm';
  const microsPerPoint = llm ? LLM_MICROS_PER_UNIT : (accountPerPoint ?? DEFAULT_MICROS_PER_POINT);
  const pointValueFrom = !llm && accountPerPoint !== null ? 'account' : 'usage type';
  const reportedMicros = Math.round(usage.consume * microsPerPoint * 1000) / 1000;
  const flagged =
    reportedMicros > 0 &&
    publishedMicros !== null &&
    publishedMicros > 0 &&
    (reportedMicros > publishedMicros * COST_DISAGREEMENT_FACTOR ||
      reportedMicros * COST_DISAGREEMENT_FACTOR < publishedMicros);
  const micros = flagged ? Math.max(reportedMicros, publishedMicros ?? 0) : reportedMicros;
  return { micros, reportedMicros, publishedMicros, microsPerPoint, pointValueFrom, flagged };
}

/** The words of a cost: "$0.04 billed", or for a flagged one both figures and what to do. */
export function costWords(cost: TaskCost): string {
  if (cost.micros === 0) return 'Not billed';
  if (!cost.flagged || cost.publishedMicros === null) return `${formatUsd(cost.micros)} billed`;
  return `reported ${formatUsd(cost.reportedMicros)}; published price ${formatUsd(cost.publishedMicros)} — check your account (${formatUsd(cost.micros)} counted)`;
}
