/**
 * The bottom of the composer: live cost, the balance, Queue and Clear. Queue works offline
 * too; while the form has problems (or a queue call runs) it is marked unavailable with
 * aria-disabled, never `disabled`, so it keeps the focus and stays focusable; the first problem
 * is its reason, and pressing it shows every problem and focuses the first.
 */
import { useId } from 'react';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { costLine } from '../../model/money-text.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { useStudio } from '../../stores/studio-store.ts';
import { AccountBalance } from '../account/AccountBalance.tsx';
import { attemptQueue, queueCurrent } from './compose-actions.ts';
import type { ComposedInput } from './compose-model.ts';
import { queueSummary } from './compose-problems.ts';
import { useFormProblems } from './use-form-problems.ts';

/** The live cost of what the form would send; for a task type without a price, what Queue does. */
function costOf(composed: ComposedInput): { amount: string | null; detail: string } {
  if (!composed.readable) return { amount: null, detail: 'fix the input to see the cost' };
  const line = costLine(composed.model, composed.taskType, composed.input);
  if (line.amount === null && line.detail.startsWith('no published price')) {
    return { amount: null, detail: 'no published price; Queue asks first' };
  }
  return line;
}

export function QueueBar() {
  const id = useId();
  const tab = useCompose((s) => s.tab);
  const formError = useCompose((s) => s.formError);
  const queueing = useCompose((s) => s.queueing);
  const parent = useCompose((s) => s.parent[s.tab]);
  const clearTab = useCompose((s) => s.clearTab);
  const online = useStudio((s) => s.status?.online ?? true);
  const networkSignal = useStudio((s) => s.status?.networkSignal ?? true);
  const { problems, composed } = useFormProblems(tab);
  const cost = costOf(composed);
  const blocked = problems.length > 0;
  const onlyChecking = blocked && problems.every((p) => p.pending);
  const unknownPrice = useCompose((s) => s.unknownPrice);
  const setUnknownPrice = useCompose((s) => s.setUnknownPrice);

  return (
    <div className="queue-bar">
      {unknownPrice ? (
        <ConfirmDialog
          title="Queue without a known price?"
          message={<p>{unknownPrice}</p>}
          confirmLabel="Queue anyway"
          onCancel={() => setUnknownPrice(null)}
          onConfirm={() => {
            setUnknownPrice(null);
            void queueCurrent(true);
          }}
        />
      ) : null}
      <div className="queue-meta">
        <output className="cost" data-testid="cost-estimate" aria-live="polite">
          <span className="cost-label">Estimated cost</span>{' '}
          <strong className="cost-amount">{cost.amount ?? 'unknown'}</strong>{' '}
          <span className="cost-detail">({cost.detail})</span>
        </output>
        <AccountBalance compact />
      </div>
      <div className="queue-actions">
        {parent ? (
          <span className="rerun-note" data-testid="parent-note">
            {parent.output === null ? 'Re-run of an earlier task' : `Made from “${parent.title}”`}
          </span>
        ) : null}
        <button type="button" className="button button-quiet" onClick={() => clearTab(tab)}>
          Clear
        </button>
        <button
          type="button"
          className="button button-primary button-large"
          onClick={attemptQueue}
          aria-disabled={blocked || queueing ? true : undefined}
          aria-describedby={`${id}-why`}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          title="Ctrl+Enter (⌘Enter on a Mac)"
        >
          {queueing ? 'Queueing…' : 'Queue'}
        </button>
      </div>
      <p
        id={`${id}-why`}
        className={formError || (blocked && !onlyChecking) ? 'queue-why queue-why-bad' : 'queue-why'}
        data-testid="queue-reason"
      >
        {formError ??
          queueSummary(problems) ??
          (online
            ? 'Ready to queue (Ctrl+Enter).'
            : networkSignal
              ? 'The service cannot be reached: it will be queued here and sent when it answers.'
              : 'Offline: it will be queued here and sent when the network returns.')}
      </p>
    </div>
  );
}
