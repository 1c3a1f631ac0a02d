/**
 * Money spent so far against the budget: what the service reported each task cost, or the
 * estimate until it says (in demo mode what the tasks would have cost: nothing is billed). Both are kept in the library in use, so the figure is read again when
 * that library changes (demo mode turned on or off, another folder), when the budget is saved,
 * and shortly after tasks change (a task saved or reported on changes the spending).
 */
import { useEffect, useRef, useState } from 'react';
import { type CostView, formatUsd } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { budgetShare } from '../../model/money-text.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';

/** How long task changes are gathered before the spending is read again. */
const TASK_CHANGE_READ_MS = 400;

/**
 * A count that goes up once per burst of task changes: the first change after a read starts a
 * wait of TASK_CHANGE_READ_MS, and the changes during it are read together.
 */
function useTaskChangeReads(): number {
  const rev = useTasks((s) => s.rev);
  const [reads, setReads] = useState(0);
  const seen = useRef(rev);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  useEffect(() => {
    if (rev === seen.current || timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setReads((n) => n + 1);
    }, TASK_CHANGE_READ_MS);
    seen.current = rev;
  }, [rev]);
  return reads;
}

export function CostSummary({ budgetMicros }: { budgetMicros: number | null }) {
  const libraryInUse = useStudio((s) => s.settings?.libraryInUse ?? null);
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  // the spending as read, with the library it was read from: another library's is never shown
  const [read, setRead] = useState<{ library: string | null; view: CostView } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const taskReads = useTaskChangeReads();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again with the library, the budget and task changes
  useEffect(() => {
    let live = true;
    invoke('cost.summary', {})
      .then((view) => {
        if (!live) return;
        setRead({ library: libraryInUse, view });
        setError(null);
      })
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [libraryInUse, budgetMicros, taskReads]);

  const cost = read && read.library === libraryInUse ? read.view : null;
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
          Demo mode: nothing is billed. Its {tasks} would have cost about{' '}
          <strong>{formatUsd(cost.spentMicros)}</strong>
          {budget !== null ? ` of the demo library's ${formatUsd(budget)} budget` : ' (no budget set)'}.
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
