/** Cost text for the composer and budget entry in dollars. Money stays in integer micro-dollars. */
import { estimateCost, formatUsd, MICROS_PER_USD } from '../../../shared/index.ts';
import { costWords, type TaskCost } from '../../../shared/task/billed-cost.ts';
import {
  type BatchCost,
  batchCostWords,
  type CostFacts,
  costStanding,
} from '../../../shared/task/cost-standing.ts';

export interface CostLine {
  /** e.g. `$0.0150`, or null when the price is not published. */
  amount: string | null;
  /** e.g. `30 s x $0.0005/s`, or why there is no amount. */
  detail: string;
}

/** The live estimate shown beside the Queue button. */
export function costLine(model: string, taskType: string, input: Record<string, unknown>): CostLine {
  const estimate = estimateCost({ model, task_type: taskType, input });
  if (estimate.micros === null) return { amount: null, detail: estimate.explanation };
  return { amount: formatUsd(estimate.micros), detail: estimate.explanation };
}

/**
 * A task type without a published price in demo mode, where Queue never asks about a price (the
 * sandbox bills no one): the Queue bar's words and the entry pickers'.
 */
export const DEMO_NO_PRICE = 'no published price; demo tasks are not billed';

/** `$1.23` style text of an optional amount; `—` when unknown. */
export function usdOrDash(micros: number | null | undefined): string {
  return typeof micros === 'number' && Number.isFinite(micros) ? formatUsd(micros) : '—';
}

/**
 * A task's cost in a row: `Demo: not billed` in the demo library; `Not billed` for one that
 * ended without the service creating it or charging for it; what the service reported it
 * charged once it said (in money); the estimate before (a running task's `consume: 0` included).
 * One rule with the batch's total (costStanding).
 */
export function taskCostText(task: CostFacts, demo: boolean): string {
  if (demo) return 'Demo: not billed';
  const standing = costStanding(task);
  if (standing.standing === 'not-billed') return 'Not billed';
  if (standing.standing === 'charged' && standing.flagged && standing.micros !== null) {
    return `${formatUsd(standing.micros)} (check)`;
  }
  return usdOrDash(standing.micros);
}

/** A batch's total in its rows' figures (batchCostWords); `Demo: not billed` in the demo library. */
export function batchCostText(cost: BatchCost, demo: boolean): string {
  return demo ? 'Demo: not billed' : batchCostWords(cost);
}

/**
 * What the service reported a task used, in money when the unit is known (its `usage` points are
 * micro-dollars), else plainly as the service's own count; null when it reported nothing.
 */
export function usageText(
  usage: { type: string | null; frozen: number | null; consume: number | null } | null,
): string | null {
  if (!usage || (usage.consume === null && usage.frozen === null)) return null;
  // `quota` comes from the detailed answer form, whose unit no public record gives
  if (usage.type === 'quota') {
    const used =
      usage.consume !== null ? `${usage.consume.toLocaleString('en-US')} units of its quota used` : null;
    const reserved =
      usage.frozen !== null ? `${usage.frozen.toLocaleString('en-US')} units set aside while it ran` : null;
    return `The service counted ${[used, reserved].filter(Boolean).join(', ')}`;
  }
  // `llm` (songs) and an unnamed type count micro-dollars; other points have another value
  // (1e-7 USD in the docs' image, video and 3D examples), known only with the account's rate
  if (usage.consume !== null && usage.type !== null && usage.type !== 'llm') {
    return `${usage.consume.toLocaleString('en-US')} points used, as the service reported`;
  }
  if (usage.consume !== null) return `${formatUsd(usage.consume)} charged, as the service reported`;
  return `${formatUsd(usage.frozen ?? 0)} set aside by the service while it runs; the charge comes when it ends`;
}

export type BudgetParse = { ok: true; micros: number | null } | { ok: false; message: string };

/** Dollars as typed (`12`, `12.5`, `$0.75`, `1,000`) to micro-dollars; empty means no budget. */
export function parseBudgetDollars(text: string): BudgetParse {
  const clean = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (clean === '') return { ok: true, micros: null };
  if (!/^\d+(\.\d{0,6})?$/.test(clean)) {
    return { ok: false, message: 'Budget must be an amount in dollars, such as 25 or 12.50' };
  }
  const [whole = '0', fraction = ''] = clean.split('.');
  const micros = Number(whole) * MICROS_PER_USD + Number(fraction.padEnd(6, '0'));
  if (!Number.isSafeInteger(micros) || micros > 1e12) return { ok: false, message: 'Budget is too large' };
  return { ok: true, micros };
}

/** Micro-dollars as a dollar amount for an input field (`12.5`); '' for none. */
export function budgetInputText(micros: number | null): string {
  if (micros === null) return '';
  const whole = Math.floor(micros / MICROS_PER_USD);
  const fraction = String(micros % MICROS_PER_USD)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/**
 * The composer's live budget check: why queueing `micros` (the price of `tasks` tasks) would be
 * refused (the figures main's refusal gives: engine intake's checkBudget), or null when it fits,
 * there is no budget, the costs are not read yet, or the price is unknown (Queue asks about that).
 */
export function budgetProblem(
  micros: number | null,
  tasks: number,
  cost: { spentMicros: number; budgetMicros: number | null } | null,
): string | null {
  if (micros === null || cost === null || cost.budgetMicros === null) return null;
  const total = cost.spentMicros + micros;
  if (total <= cost.budgetMicros) return null;
  const what = tasks > 1 ? `this batch of ${tasks} tasks` : 'this task';
  // "Over your budget" first: a small window cuts the line short
  return `Over your budget: ${what} (${formatUsd(micros)}) would take the total to ${formatUsd(total)} of ${formatUsd(cost.budgetMicros)}; raise the budget in Settings to queue ${tasks > 1 ? 'them' : 'it'}`;
}

/** Share of the budget spent, 0..1 (capped), or null without a budget. */
export function budgetShare(spentMicros: number, budgetMicros: number | null): number | null {
  if (budgetMicros === null) return null;
  if (budgetMicros <= 0) return 1;
  return Math.min(1, Math.max(0, spentMicros / budgetMicros));
}

/**
 * The detail's line of what the service reported: the billed cost once the task ended
 * (billed-cost.ts: the point's value applied, flagged when it disagrees with the published
 * price), else the raw report; the demo library never says charged.
 */
export function reportedCostText(
  task: {
    usage: { type: string | null; frozen: number | null; consume: number | null } | null;
    cost?: TaskCost | null;
  },
  demo: boolean,
): string | null {
  if (demo) return task.cost || task.usage ? 'Demo: not billed' : null;
  if (task.cost) {
    if (task.cost.micros === 0) return 'Not billed, as the service reported';
    if (task.cost.flagged) return costWords(task.cost);
    return `${formatUsd(task.cost.micros)} charged, as the service reported`;
  }
  return usageText(task.usage);
}
