/**
 * The Queue bar's live cost: of what the form would send, and of the whole batch when Queue sends
 * several tasks, or what is unknown about it. A prompt list that is not queued as written (it
 * cannot be read, or makes over 100) has no price, never one task's. Pure.
 */
import { formatUsd } from '../../../../shared/index.ts';
import { costLine, DEMO_NO_PRICE } from '../../model/money-text.ts';
import type { BatchPlan } from './compose-batch.ts';
import type { ComposedInput } from './compose-model.ts';
import { promptListProblem } from './prompt-list-plan.ts';

export interface QueueCost {
  /** The price in dollars, '—' for none; null when unknown. */
  amount: string | null;
  /** What the price is or why there is none, in words. */
  detail: string;
  /** No price at all (a list not queued as written): the line says why beside the '—'. */
  none?: true;
}

/**
 * The live cost of what the form would send; for a task type without a price, what Queue does
 * (in demo mode it asks nothing: the sandbox bills no one).
 */
function costOf(composed: ComposedInput, demo: boolean): QueueCost {
  if (!composed.readable) return { amount: null, detail: 'fix the input to see the cost' };
  const line = costLine(composed.model, composed.taskType, composed.input);
  if (line.amount === null && line.detail.startsWith('no published price')) {
    return { amount: null, detail: demo ? DEMO_NO_PRICE : 'no published price; Queue asks first' };
  }
  return line;
}

/** No price: what a list that is not queued as written costs is not known. */
export const NO_LIST_PRICE: Readonly<QueueCost> = Object.freeze({
  amount: '—',
  detail: 'no price until the list is fixed',
  none: true,
});

/**
 * The whole batch's cost: N x the price, or what is unknown about it. `lines`: "One task per
 * line" is on for the tab; `demo`: demo mode, where Queue never asks about a price.
 */
export function queueCost(plan: BatchPlan, composed: ComposedInput, lines: boolean, demo = false): QueueCost {
  // a list that is not queued as written has no price: never one task's (issue 22 review, item 8),
  // also while another field stops the draft before its list is read (a number it cannot read)
  if (!plan.ok && (plan.list || (composed.readable && promptListProblem(composed, lines) !== null)))
    return { ...NO_LIST_PRICE };
  const single = costOf(composed, demo);
  if (!plan.ok || plan.drafts.length <= 1) return single;
  const n = plan.drafts.length;
  if (plan.micros === null) {
    const words = demo ? '; demo tasks are not billed' : '; Queue asks first';
    return { amount: null, detail: `price unknown for ${n} tasks${words}` };
  }
  const each = plan.micros / n;
  const same = single.amount !== null && formatUsd(each) === single.amount;
  return { amount: formatUsd(plan.micros), detail: same ? `${n} x ${single.amount}` : `${n} tasks` };
}
