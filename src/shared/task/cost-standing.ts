/**
 * Where a task stands with money, one rule for every figure the window shows (a row, a batch's
 * total): `charged` once it ended and the service billed it (the billed cost, billed-cost.ts;
 * before that the reported figure or the estimate), `pending` while it has not ended (its
 * estimate: a running task's `consume: 0` is no charge yet), `not-billed` when it ended without
 * the service creating it or charging for it (a failure the service did not bill counts nothing).
 */
import { formatUsd } from '../catalog/price-rules.ts';
import type { TaskState } from './task-model.ts';

export type CostStanding =
  | { standing: 'charged'; micros: number | null; flagged: boolean }
  | { standing: 'pending'; micros: number | null }
  | { standing: 'not-billed' };

/** What the rule reads of a task (a Task has all of it). */
export interface CostFacts {
  state: TaskState | string;
  remoteId: string | null;
  estimateMicros: number | null;
  usage: { type: string | null; consume: number | null } | null;
  cost?: { micros: number; flagged: boolean } | null;
}

const ENDED: readonly string[] = ['saved', 'failed', 'cancelled', 'expired'];

export function costStanding(task: CostFacts): CostStanding {
  if (task.cost) {
    return task.cost.micros === 0
      ? { standing: 'not-billed' }
      : { standing: 'charged', micros: task.cost.micros, flagged: task.cost.flagged };
  }
  // `quota` (form C) is not money
  const consume = task.usage && task.usage.type !== 'quota' ? task.usage.consume : null;
  const stopped = task.state === 'failed' || task.state === 'cancelled';
  if (stopped && (task.remoteId === null || consume === 0)) return { standing: 'not-billed' };
  if (!ENDED.includes(task.state)) {
    // while a task runs the service reports `consume: 0`: the charge comes when it ends
    return { standing: 'pending', micros: (consume === 0 ? null : consume) ?? task.estimateMicros };
  }
  return { standing: 'charged', micros: consume ?? task.estimateMicros, flagged: false };
}

/** A sum of figures: how many tasks, and their micro-dollars (null when any one's is unknown). */
export interface CostSum {
  tasks: number;
  micros: number | null;
}

/** What a batch's tasks cost, in its rows' own figures (costStanding). */
export interface BatchCost {
  charged: CostSum;
  pending: CostSum;
  /** How many ended without being billed. */
  notBilled: number;
}

export function batchCostOf(tasks: Iterable<CostFacts>): BatchCost {
  const charged: CostSum = { tasks: 0, micros: 0 };
  const pending: CostSum = { tasks: 0, micros: 0 };
  let notBilled = 0;
  const add = (sum: CostSum, micros: number | null) => {
    sum.tasks += 1;
    sum.micros = sum.micros === null || micros === null ? null : sum.micros + micros;
  };
  for (const task of tasks) {
    const standing = costStanding(task);
    if (standing.standing === 'charged') add(charged, standing.micros);
    else if (standing.standing === 'pending') add(pending, standing.micros);
    else notBilled += 1;
  }
  return { charged, pending, notBilled };
}

/**
 * A batch's cost in its rows' words: `$0.05 charged · $0.10 pending · 2 not billed`, each part
 * only when some task is in it; `Not billed` when none was.
 */
export function batchCostWords(cost: BatchCost): string {
  const amount = (micros: number | null) => (micros === null ? 'price unknown' : formatUsd(micros));
  const parts = [
    cost.charged.tasks > 0 ? `${amount(cost.charged.micros)} charged` : null,
    cost.pending.tasks > 0 ? `${amount(cost.pending.micros)} pending` : null,
    cost.notBilled > 0 ? `${cost.notBilled} not billed` : null,
  ].filter((part) => part !== null);
  return parts.length === 1 && cost.notBilled > 0 ? 'Not billed' : parts.join(' · ');
}
