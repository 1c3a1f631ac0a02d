/**
 * Money spent so far against the budget: what the service reported each task cost, or the
 * estimate until it says.
 */
import { useEffect, useState } from 'react';
import { type CostView, formatUsd } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { budgetShare } from '../../model/money-text.ts';
import { useTasks } from '../../state/tasks-state.ts';

export function CostSummary({ budgetMicros }: { budgetMicros: number | null }) {
  const [cost, setCost] = useState<CostView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rev = useTasks((s) => s.rev);
  const bucket = Math.floor(rev / 20);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshed as tasks change (every 20 changes) and with the budget
  useEffect(() => {
    let live = true;
    invoke('cost.summary', {})
      .then((view) => live && setCost(view))
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [bucket, budgetMicros]);

  if (error) return <p className="field-error">{error}</p>;
  if (!cost) return <p className="muted">Loading costs…</p>;
  const budget = budgetMicros ?? cost.budgetMicros;
  const share = budgetShare(cost.spentMicros, budget);
  return (
    <div className="cost-summary" data-testid="cost-summary">
      <p>
        <strong>{formatUsd(cost.spentMicros)}</strong> spent across {cost.tasks.toLocaleString('en-US')} task
        {cost.tasks === 1 ? '' : 's'}
        {budget !== null ? ` of a ${formatUsd(budget)} budget` : ' (no budget set)'}.
        {cost.consume > 0
          ? ' Tasks the service has reported on count at what it charged; the rest at their estimate.'
          : ' Counted at the estimates until the service reports what each task cost.'}
      </p>
      {share !== null ? (
        <meter
          className="budget-meter"
          min={0}
          max={1}
          low={0.7}
          high={0.9}
          optimum={0}
          value={share}
          aria-label="Budget used"
          aria-valuetext={`${Math.round(share * 100)}% of the budget used`}
        />
      ) : null}
    </div>
  );
}
