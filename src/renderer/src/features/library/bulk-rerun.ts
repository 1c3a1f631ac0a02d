/**
 * Re-running several library tasks at once: the draft of each (`tasks.draftOf`, the same draft a
 * single re-run opens in the composer) priced the way the composer prices a draft, shown for
 * confirmation, then queued with its lineage (`parentId`, no `parentOutput`).
 */
import { type DraftView, estimateCost, formatUsd } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';

export interface RerunItem {
  id: string;
  draft: DraftView;
  /** The estimate in micro-dollars, or null when the price is not published. */
  micros: number | null;
}

export interface RerunPlan {
  items: RerunItem[];
  /** The sum of the known estimates. */
  totalMicros: number;
  /** Titles of the tasks whose price is not published. */
  unpriced: string[];
}

/** Reads the drafts of `ids` and prices them; null (after a toast) when one cannot be read. */
export async function planRerun(ids: readonly string[]): Promise<RerunPlan | null> {
  const items: RerunItem[] = [];
  try {
    for (const id of ids) {
      const draft = await invoke('tasks.draftOf', { id });
      const estimate = estimateCost({ model: draft.model, task_type: draft.taskType, input: draft.input });
      items.push({ id, draft, micros: estimate.micros });
    }
  } catch (err) {
    toastError(err);
    return null;
  }
  return {
    items,
    totalMicros: items.reduce((sum, item) => sum + (item.micros ?? 0), 0),
    unpriced: items.filter((item) => item.micros === null).map((item) => item.draft.title),
  };
}

/** The confirmation's sentence about the price of a plan. */
export function planPriceText(plan: RerunPlan): string {
  const count = plan.items.length;
  const known = `Estimated total: ${formatUsd(plan.totalMicros)}`;
  if (plan.unpriced.length === 0) return `${known}.`;
  if (plan.unpriced.length === count) return 'No published price for these tasks: the cost is unknown.';
  return `${known}, plus ${plan.unpriced.length} task${plan.unpriced.length === 1 ? '' : 's'} with no published price.`;
}

function goToActivity(): void {
  useUi.getState().navigate('activity');
}

/**
 * Queues every draft of a confirmed plan. The user saw the price, so a task with no published
 * price is queued with `acceptUnknownPrice`. Stops at the first refusal (the budget, say).
 */
export async function runRerun(plan: RerunPlan): Promise<void> {
  let queued = 0;
  try {
    for (const item of plan.items) {
      const { draft } = item;
      const task = await invoke('tasks.queue', {
        model: draft.model,
        taskType: draft.taskType,
        input: draft.input,
        webhook: draft.webhook,
        title: draft.title,
        parentId: item.id,
        parentOutput: null,
        ...(item.micros === null ? { acceptUnknownPrice: true } : {}),
      });
      useTasks.getState().upsert([task]);
      queued++;
    }
    useUi.getState().pushToast('success', `Queued ${queued} re-run${queued === 1 ? '' : 's'}`, {
      label: 'View in Activity',
      run: goToActivity,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    toastError(
      queued > 0
        ? `Queued ${queued} of ${plan.items.length} re-runs, then: ${message}`
        : `Could not queue the re-runs: ${message}`,
    );
  }
}
