/**
 * The price table of the spec (8) and cost estimates. Money is kept in integer micro-dollars
 * (1 USD = 1,000,000) so sums never drift.
 */
export const MICROS_PER_USD = 1_000_000;

export interface PriceRule {
  model: string;
  taskType: string;
  /** Micro-dollars per unit. */
  micros: number;
  unit: 'second' | 'image' | 'generation';
}

export const PRICE_TABLE: readonly PriceRule[] = [
  { model: 'service/ace-step', taskType: 'txt2audio', micros: 500, unit: 'second' },
  { model: 'service/image-edit', taskType: 'image-edit', micros: 25_000, unit: 'image' },
  { model: 'service/image-toolkit', taskType: 'face-swap', micros: 10_000, unit: 'generation' },
  // field notes: multi-face-swap costs 0.015
  { model: 'service/image-toolkit', taskType: 'multi-face-swap', micros: 15_000, unit: 'generation' },
];

export interface CostEstimate {
  /** null when the price of this model and task type is not published. */
  micros: number | null;
  explanation: string;
}

export function estimateCost(request: {
  model: string;
  task_type: string;
  input: Record<string, unknown>;
}): CostEstimate {
  const rule = PRICE_TABLE.find((r) => r.model === request.model && r.taskType === request.task_type);
  if (!rule)
    return { micros: null, explanation: `no published price for ${request.model} ${request.task_type}` };
  if (rule.unit === 'second') {
    const duration = request.input.duration;
    if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) {
      return { micros: null, explanation: 'duration is needed to price audio' };
    }
    const seconds = Math.ceil(duration);
    return { micros: seconds * rule.micros, explanation: `${seconds} s x ${formatUsd(rule.micros)}/s` };
  }
  return { micros: rule.micros, explanation: `${formatUsd(rule.micros)} per ${rule.unit}` };
}

/** `$0.0123`: at least two decimals, more only when needed (up to 4). */
export function formatUsd(micros: number): string {
  const usd = micros / MICROS_PER_USD;
  const text = usd.toFixed(4).replace(/0{1,2}$/, '');
  return `$${text}`;
}
