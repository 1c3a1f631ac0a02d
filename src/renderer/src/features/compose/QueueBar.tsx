/** The bottom of the composer: live cost, optional title, Queue (always usable offline) and Clear. */
import { useId } from 'react';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { costLine } from '../../model/money-text.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { useStudio } from '../../stores/studio-store.ts';
import { AccountBalance } from '../account/AccountBalance.tsx';
import { queueCurrent } from './compose-actions.ts';
import { buildDraft, queueBlocker } from './compose-model.ts';

/** The live cost, and what is wrong with the form when it cannot be built yet. */
function useCost(): { amount: string | null; detail: string; problem: string | null } {
  const state = useCompose();
  const built = buildDraft(state.tab, state);
  if (!built.ok) return { amount: null, detail: 'fix the input to see the cost', problem: built.message };
  return { ...costLine(built.draft.model, built.draft.taskType, built.draft.input), problem: null };
}

export function QueueBar() {
  const id = useId();
  const tab = useCompose((s) => s.tab);
  const slots = useCompose((s) => s.slots);
  const title = useCompose((s) => s.common[s.tab].title);
  const titleError = useCompose((s) => s.errors[s.tab].title);
  const formError = useCompose((s) => s.formError);
  const queueing = useCompose((s) => s.queueing);
  const rerunOf = useCompose((s) => s.rerunOf[s.tab]);
  const setCommon = useCompose((s) => s.setCommon);
  const clearTab = useCompose((s) => s.clearTab);
  const online = useStudio((s) => s.status?.online ?? true);
  const networkSignal = useStudio((s) => s.status?.networkSignal ?? true);
  const cost = useCost();
  const blocker = queueBlocker(tab, slots);
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
        <div className="field field-inline">
          <label htmlFor={`${id}-title`} className="field-label">
            Title <span className="optional">(optional)</span>
          </label>
          <input
            id={`${id}-title`}
            type="text"
            value={title}
            maxLength={200}
            placeholder="Named from the prompt when empty"
            aria-invalid={titleError ? true : undefined}
            onChange={(event) => setCommon({ title: event.target.value })}
          />
        </div>
        <output className="cost" data-testid="cost-estimate" aria-live="polite">
          <span className="cost-label">Estimated cost</span>{' '}
          <strong className="cost-amount">{cost.amount ?? 'unknown'}</strong>{' '}
          <span className="cost-detail">({cost.detail})</span>
        </output>
        <AccountBalance compact />
      </div>
      <div className="queue-actions">
        {rerunOf ? <span className="rerun-note">Re-run of an earlier task</span> : null}
        <button type="button" className="button button-quiet" onClick={() => clearTab(tab)}>
          Clear
        </button>
        <button
          type="button"
          className="button button-primary button-large"
          onClick={() => void queueCurrent()}
          disabled={blocker !== null || queueing}
          aria-describedby={`${id}-why`}
        >
          {queueing ? 'Queueing…' : 'Queue'}
        </button>
      </div>
      <p
        id={`${id}-why`}
        className={blocker || formError || cost.problem ? 'queue-why queue-why-bad' : 'queue-why'}
        data-testid="queue-reason"
      >
        {formError ??
          blocker ??
          (cost.problem ? `To fix before queueing: ${cost.problem}` : null) ??
          (online
            ? 'Ready to queue.'
            : networkSignal
              ? 'The service cannot be reached: it will be queued here and sent when it answers.'
              : 'Offline: it will be queued here and sent when the network returns.')}
      </p>
    </div>
  );
}
