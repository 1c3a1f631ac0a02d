/**
 * Cost estimates from the catalog's published prices (spec 8, field notes). Money is kept in
 * integer micro-dollars (1 USD = 1,000,000) so sums never drift. A task type without a
 * published price has no estimate: it is never counted as $0.
 */
import { taskTypeEntry } from './task-types.ts';

export const MICROS_PER_USD = 1_000_000;

export interface CostEstimate {
  /** null when the price of this task type is not published (or the input lacks what it needs). */
  micros: number | null;
  explanation: string;
}

/** The estimate of a create request (its model id does not matter: the task type is priced). */
export function estimateCost(request: {
  model?: string;
  task_type: string;
  input: Record<string, unknown>;
}): CostEstimate {
  const price = taskTypeEntry(request.task_type)?.price;
  if (!price) return { micros: null, explanation: `no published price for ${request.task_type}` };
  if (price.unit === 'second') {
    const duration = request.input.duration;
    if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) {
      return { micros: null, explanation: 'duration is needed to price audio' };
    }
    const seconds = Math.ceil(duration);
    return { micros: seconds * price.micros, explanation: `${seconds} s x ${formatUsd(price.micros)}/s` };
  }
  return { micros: price.micros, explanation: `${formatUsd(price.micros)} per ${price.unit}` };
}

/** `$0.0123`: at least two decimals, more only when needed (up to 4). */
export function formatUsd(micros: number): string {
  const usd = micros / MICROS_PER_USD;
  const text = usd.toFixed(4).replace(/0{1,2}$/, '');
  return `$${text}`;
}
