/**
 * Money spent so far against the budget: what the service reported each task cost, or the
 * estimate until it says (in demo mode what the tasks would have cost: nothing is billed). Both
 * are kept in the library in use (useCostView reads them again as they change).
 */
import { formatUsd } from '../../../../shared/index.ts';
import { useCostView } from '../../hooks/useCostView.ts';
import { budgetShare } from '../../model/money-text.ts';
import { useStudio } from '../../state/studio-state.ts';

export function CostSummary({ budgetMicros }: { budgetMicros: number | null }) {
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const { cost, error } = useCostView();
  if (error) return <p className="field-error">{error}</p>;
  if (!cost) return <p className="muted">Loading costs…</p>;
  const budget = budgetMicros ?? cost.budgetMicros;
  const share = budgetShare(cost.spentMicros, budget);
  const tasks = `${cost.tasks.toLocaleString('en-US')} task${cost.tasks === 1 ? '' : 's'}`;
  return (
    <div className="cost-summary" data-testid="cost-summary">
      {demo ? (
        // the demo library's tasks are never billed: what they would have cost, in the same figures
        <p>
          Demo mode: nothing is billed.{' '}
          {cost.tasks === 0 ? (
            'No demo tasks yet'
          ) : (
            <>
              Its {tasks} would have cost about <strong>{formatUsd(cost.spentMicros)}</strong>
            </>
          )}
          {budget !== null ? ` (the demo library's budget: ${formatUsd(budget)})` : ' (no budget set)'}.
        </p>
      ) : (
        <p>
          <strong>{formatUsd(cost.spentMicros)}</strong> spent across {cost.tasks.toLocaleString('en-US')}{' '}
          task
          {cost.tasks === 1 ? '' : 's'}
          {budget !== null ? ` of a ${formatUsd(budget)} budget` : ' (no budget set)'}.
          {cost.consume > 0
            ? ' Tasks the service has reported on count at what it charged; the rest at their estimate.'
            : ' Counted at the estimates until the service reports what each task cost.'}
        </p>
      )}
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
