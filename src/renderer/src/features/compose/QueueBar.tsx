/**
 * The bottom of the composer, two lines: the live cost (of the whole batch when Queue sends
 * several tasks; "Demo: not billed" beside it in demo mode), Clear, the number of variations and
 * Queue; under them the notes: Queue's reason, what the form is made from, the cost's
 * explanation and the balance (in a small window one line, each cut short with its whole text
 * in its title). Queue works offline
 * too; while the form has problems or would pass the budget (or a queue call runs) it is marked unavailable with
 * aria-disabled, never `disabled`, so it keeps the focus and stays focusable; the first problem
 * is its reason, and pressing it shows every problem and focuses the first.
 */
import { useId } from 'react';
import { catalogEntry } from '../../../../shared/index.ts';
import { MessageText } from '../../components/MessageText.tsx';
import { useCostView } from '../../hooks/useCostView.ts';
import { budgetProblem } from '../../model/money-text.ts';
import { useCompose } from '../../state/compose-state.ts';
import { useStudio } from '../../state/studio-state.ts';
import { AccountBalance } from '../account/AccountBalance.tsx';
import { PlayerFold } from '../player/index.ts';
import { attemptQueue, queueCurrent } from './compose-actions.ts';
import { type BatchPlan, MAX_VARIATIONS, planBatch, queueLabel } from './compose-batch.ts';
import type { ComposeTab } from './compose-model.ts';
import { queueSummary } from './compose-problems.ts';
import { clearWithUndo } from './form-undo.ts';
import { queueCost } from './queue-cost.ts';
import { UnknownPriceDialog } from './UnknownPriceDialog.tsx';
import { unknownPriceQuestion } from './unknown-price.ts';
import { useFormProblems } from './use-form-problems.ts';
import '../../styles/batches.css';

/** The task type Queue's price question is about (the first draft without a price), for "don't ask again". */
function unpricedEntry(plan: BatchPlan): { id: string; label: string } | null {
  const question = plan.ok ? unknownPriceQuestion(plan.drafts) : null;
  return question?.entryId ? { id: question.entryId, label: question.label } : null;
}

/** How many copies Queue sends; for an image edit, the seeds they take. */
function VariationsField({ tab, plan }: { tab: ComposeTab; plan: BatchPlan }) {
  const id = useId();
  const count = useCompose((s) => s.batch.variations[tab]);
  const setVariations = useCompose((s) => s.setVariations);
  const seeds = plan.ok ? plan.seeds : null;
  return (
    <div className="variations-field" data-testid="variations">
      <label htmlFor={id} className="variations-label">
        Variations
      </label>
      <input
        id={id}
        type="number"
        className="variations-input"
        min={1}
        max={MAX_VARIATIONS}
        step={1}
        value={count}
        aria-describedby={seeds ? `${id}-max ${id}-seeds` : `${id}-max`}
        onChange={(event) => setVariations(tab, event.target.valueAsNumber)}
      />
      <span id={`${id}-max`} className="variations-max muted" data-testid="variations-max">
        max {MAX_VARIATIONS}
      </span>
      {seeds ? (
        <span id={`${id}-seeds`} className="variations-seeds muted" data-testid="variation-seeds">
          Seeds {seeds.first} to {seeds.last}
          {seeds.random ? ' (random start)' : ''}
        </span>
      ) : null}
    </div>
  );
}

export function QueueBar() {
  const id = useId();
  const tab = useCompose((s) => s.tab);
  const formError = useCompose((s) => s.formError);
  const queueing = useCompose((s) => s.queueing);
  const parent = useCompose((s) => s.parent[s.tab]);
  const online = useStudio((s) => s.status?.online ?? true);
  const networkSignal = useStudio((s) => s.status?.networkSignal ?? true);
  const { problems, composed } = useFormProblems(tab);
  const forms = useCompose((s) => s);
  const plan = planBatch(tab, forms, forms.batch);
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const cost = queueCost(plan, composed, forms.batch.promptLines?.[tab] === true, demo);
  // a batch's own problem (a target still being checked or refused, over 100 tasks with the
  // variations) once the form's are fixed: said as the form's are, unless it only waits
  const batchProblem =
    problems.length === 0 && !plan.ok
      ? plan.pending
        ? plan.message
        : `Not ready: ${plan.message.charAt(0).toUpperCase()}${plan.message.slice(1)}`
      : null;
  const batchPending = !plan.ok && plan.pending === true;
  // the budget is part of the live check: what main would refuse, said before Queue
  const { cost: spending } = useCostView();
  const overBudget =
    problems.length === 0 && plan.ok ? budgetProblem(plan.micros, plan.drafts.length, spending) : null;
  const blocked = problems.length > 0 || batchProblem !== null || overBudget !== null;
  const onlyChecking =
    overBudget === null &&
    (batchProblem !== null ? batchPending : problems.length > 0 && problems.every((p) => p.pending));
  const unknownPrice = useCompose((s) => s.unknownPrice);
  const setUnknownPrice = useCompose((s) => s.setUnknownPrice);

  const reason =
    formError ??
    queueSummary(problems) ??
    batchProblem ??
    overBudget ??
    (online
      ? 'Ready to queue (Ctrl+Enter).'
      : networkSignal
        ? 'The service cannot be reached: it will be queued here and sent when it answers.'
        : 'Offline: it will be queued here and sent when the network returns.');
  const parentText = parent
    ? parent.output === null
      ? 'Re-run of an earlier task'
      : `Made from “${parent.title}”`
    : null;
  const detail = `(${cost.detail})`;

  return (
    <div className="queue-bar">
      {unknownPrice ? (
        <UnknownPriceDialog
          message={unknownPrice}
          entry={unpricedEntry(plan)}
          onCancel={() => setUnknownPrice(null)}
          onQueue={() => {
            setUnknownPrice(null);
            void queueCurrent(true);
          }}
        />
      ) : null}
      <div className="queue-line">
        <output
          className="cost"
          data-testid="cost-estimate"
          aria-live="polite"
          title={`Estimated cost ${cost.amount ?? 'unknown'} ${detail}`}
        >
          <span className="cost-label">Estimated cost</span>{' '}
          <strong className="cost-amount">{cost.amount ?? 'unknown'}</strong>
          {/* no price: why, on the line itself (in a small window its label is hidden) */}
          {cost.none ? (
            <>
              {' '}
              <span className="cost-none" data-testid="cost-none">
                {cost.detail}
              </span>
            </>
          ) : null}
          {demo ? (
            <>
              {' '}
              <span className="cost-demo" data-testid="cost-demo">
                Demo: not billed
              </span>
            </>
          ) : null}{' '}
          {/* read with the price; shown on the line below */}
          {cost.none ? null : <span className="visually-hidden">{detail}</span>}
        </output>
        <div className="queue-actions">
          <button type="button" className="button button-quiet" onClick={() => clearWithUndo(tab)}>
            Clear
          </button>
          {/* a deterministic tool (an upscale) gives the same picture each time: no variations */}
          {catalogEntry(composed.model, composed.taskType)?.deterministic ? null : (
            <VariationsField tab={tab} plan={plan} />
          )}
          <button
            type="button"
            className="button button-primary button-large"
            onClick={attemptQueue}
            aria-disabled={blocked || queueing ? true : undefined}
            aria-describedby={`${id}-why`}
            aria-keyshortcuts="Control+Enter Meta+Enter"
            title="Ctrl+Enter (⌘Enter on a Mac)"
          >
            {queueing ? 'Queueing…' : queueLabel(plan)}
          </button>
        </div>
      </div>
      <div className="queue-notes" data-testid="queue-notes">
        <PlayerFold />
        <p
          id={`${id}-why`}
          className={formError || (blocked && !onlyChecking) ? 'queue-why queue-why-bad' : 'queue-why'}
          data-testid="queue-reason"
          title={reason}
        >
          <MessageText text={reason} />
        </p>
        {parentText ? (
          <span className="rerun-note" data-testid="parent-note" title={parentText}>
            {parentText}
          </span>
        ) : null}
        {cost.none ? null : (
          <span className="cost-detail" aria-hidden="true" title={detail}>
            {detail}
          </span>
        )}
        <span className="queue-balance">
          <AccountBalance compact />
        </span>
      </div>
    </div>
  );
}
