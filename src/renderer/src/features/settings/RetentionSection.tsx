/**
 * Settings › Retention (issue 22, item 4): rules that move old results to Recently deleted, off
 * until the user switches them on. While the rules are edited, their preview says what would go
 * now (how many tasks, by kind, and the disk space it frees once they leave Recently deleted);
 * switching on asks first with that preview, then runs them at once (and once a day after). A run
 * goes on in the background: its progress shows here (from the engine's status, so closing and
 * opening Settings again shows the same), and a toast says what it moved when it ends
 * (retention-run.ts). The engine does the work (retention.* calls), as `media-task retention` does.
 */
import { useEffect, useId, useState } from 'react';
import { MAKES_FILTER_KINDS, type MakesFilterKind, TRASH_DAYS } from '../../../../shared/index.ts';
import {
  KIND_PLURALS,
  RESTORED_RULE_TEXT,
  type RetentionOutcome,
  type RetentionRules,
  type RetentionView,
  retentionRulesText,
} from '../../../../shared/task/retention.ts';
import { invoke } from '../../bridge.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { formatDateTime } from '../../model/time-format.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { draftOf, draftRules, followKept, keptChanged, type RetentionDraft } from './retention-draft.ts';
import { RUN_PREVIEW_TEXT, retentionPreviewText, retentionRunText } from './retention-run.ts';

function daysProblem(text: string): string | null {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 1 || n > 3650)
    return 'Days must be a whole number from 1 to 3650';
  return null;
}

/**
 * The preview of `rules` (null while it is asked for), asked again a moment after each change;
 * not asked while a run moves tasks (what it has not reached yet is no answer), and asked anew
 * when it ends.
 */
function usePreview(rules: RetentionRules | null, running: boolean): RetentionOutcome | null {
  const [preview, setPreview] = useState<RetentionOutcome | null>(null);
  const rev = useTasks((s) => s.rev);
  const key = JSON.stringify(rules);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the rules; `rev` for the library's changes
  useEffect(() => {
    if (rules === null || running) return;
    let live = true;
    const timer = setTimeout(() => {
      invoke('retention.preview', rules).then(
        (p) => live && setPreview(p),
        (err: unknown) => live && toastError(err),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, rev, running]);
  // the preview from before a run is stale once it ends: "Looking…" until the next one
  useEffect(() => {
    if (running) setPreview(null);
  }, [running]);
  return running ? null : preview;
}

function KeepBoxes({ rules, onChange }: { rules: RetentionRules; onChange(r: RetentionRules): void }) {
  const kinds = (kind: MakesFilterKind, on: boolean) =>
    onChange({
      ...rules,
      keepKinds: MAKES_FILTER_KINDS.filter((k) => (k === kind ? on : rules.keepKinds.includes(k))),
    });
  const box = (label: string, checked: boolean, set: (on: boolean) => void) => (
    <label key={label} className="checkbox-line">
      <input type="checkbox" checked={checked} onChange={(e) => set(e.target.checked)} />
      {label}
    </label>
  );
  return (
    <fieldset className="retention-keep">
      <legend>Always keep</legend>
      {box('Favourites', rules.keepFavorites, (on) => onChange({ ...rules, keepFavorites: on }))}
      {box('Tasks on a board', rules.keepBoards, (on) => onChange({ ...rules, keepBoards: on }))}
      {box('Results another task was made from', rules.keepUsedAsInputs, (on) =>
        onChange({ ...rules, keepUsedAsInputs: on }),
      )}
      {MAKES_FILTER_KINDS.map((k) =>
        box(`Every ${KIND_PLURALS[k].replace(/s$/, '')}`, rules.keepKinds.includes(k), (on) => kinds(k, on)),
      )}
    </fieldset>
  );
}

export function RetentionSection() {
  const id = useId();
  const [view, setView] = useState<RetentionView | null>(null);
  const [draft, setDraft] = useState<RetentionDraft | null>(null);
  const [asking, setAsking] = useState(false);
  const run = useStudio((s) => s.status?.retentionRun ?? null);
  const runKey = run?.deletedAt ?? null;
  const library = useStudio((s) => s.settings?.libraryInUse ?? null);
  const [looks, setLooks] = useState(0);
  // the window coming back (the CLI or another window may have changed the rules meanwhile)
  useEffect(() => {
    const again = () => setLooks((n) => n + 1);
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, []);
  // the rules and last run as kept: at first, as a run starts and ends, in another library and
  // when the window comes back; the form shows them unless the user is editing it
  // biome-ignore lint/correctness/useExhaustiveDependencies: `runKey`, `library` and `looks` say when to read them again
  useEffect(() => {
    let live = true;
    invoke('retention.get', {}).then((v) => {
      if (!live) return;
      setView(v);
      setDraft((d) => followKept(d, v.rules));
    }, toastError);
    return () => {
      live = false;
    };
  }, [runKey, library, looks]);
  const daysText = draft?.daysText ?? '';
  const problem = daysProblem(daysText);
  const rules = draft && !problem ? draftRules(draft) : null;
  const changedElsewhere = draft !== null && view !== null && keptChanged(draft, view.rules);
  const preview = usePreview(rules, run !== null);
  const previewLine = run ? RUN_PREVIEW_TEXT : preview ? retentionPreviewText(preview) : 'Looking…';
  const on = view?.rules.enabled ?? false;
  const changed =
    rules !== null &&
    view !== null &&
    JSON.stringify({ ...rules, enabled: on }) !== JSON.stringify(view.rules);

  /** `edit`: the form's rules are saved (else only on or off, and an edit in the form stays). */
  const save = async (next: RetentionRules, done: string, edit: boolean) => {
    try {
      // answered as the run starts: it shows here as it goes, and a toast says what it moved
      const saved = await invoke('retention.set', next);
      setView(saved);
      setDraft((d) => (edit ? draftOf(saved.rules) : followKept(d, saved.rules)));
      useUi.getState().pushToast('success', done);
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <section
      className="settings-section retention-section"
      aria-labelledby={`${id}-h`}
      data-testid="retention"
    >
      <h2 id={`${id}-h`}>Retention</h2>
      <p className="field-hint">
        Moves old results to Recently deleted (kept there with their files for {TRASH_DAYS} days), keeping
        what you choose. Nothing moves until you switch it on; a task still running, in doubt or not saved yet
        is never moved. {RESTORED_RULE_TEXT}.
      </p>
      <p className="retention-state" data-testid="retention-state" aria-live="polite">
        {view === null
          ? 'Loading…'
          : on
            ? `On: ${retentionRulesText(view.rules)}, once a day.`
            : 'Off: nothing is moved.'}
        {view?.lastRun && !run ? (
          <span className="muted">
            {' '}
            Last run {formatDateTime(view.lastRun.at)}: moved {view.lastRun.tasks.toLocaleString('en-US')}.
          </span>
        ) : null}
      </p>
      {run ? (
        <p className="retention-run" data-testid="retention-run">
          {retentionRunText(run)}{' '}
          <span className="muted">
            You can go on using the app; switching retention off stops it, keeping what it moved.
          </span>
        </p>
      ) : null}
      {draft ? (
        <>
          <div className="field retention-days">
            <label htmlFor={`${id}-days`} className="field-label">
              Move tasks made more than
            </label>
            <span className="retention-days-row">
              <input
                id={`${id}-days`}
                type="text"
                inputMode="numeric"
                value={daysText}
                aria-invalid={problem ? true : undefined}
                aria-describedby={`${id}-days-msg`}
                onChange={(e) => {
                  const text = e.target.value;
                  setDraft((d) => d && { ...d, daysText: text });
                }}
              />
              <span>days ago</span>
            </span>
            <FieldMessage id={`${id}-days-msg`} error={problem} hint="By when the task was made." />
          </div>
          <KeepBoxes rules={draft.rules} onChange={(r) => setDraft((d) => d && { ...d, rules: r })} />
          {changedElsewhere && view ? (
            <p className="retention-changed" data-testid="retention-changed" role="status">
              The rules were changed elsewhere while you edited them. Now: {retentionRulesText(view.rules)}.
              Your changes here stay until you save them.{' '}
              <button
                type="button"
                className="button button-quiet"
                onClick={() => setDraft(draftOf(view.rules))}
              >
                Show the rules as they are now
              </button>
            </p>
          ) : null}
          <p className="retention-preview" data-testid="retention-preview" aria-live="polite">
            {rules === null ? 'Correct the days to see what would go.' : previewLine}
          </p>
          <div className="retention-actions">
            {on ? (
              <>
                <button
                  type="button"
                  className="button"
                  disabled={!changed}
                  onClick={() => rules && setAsking(true)}
                >
                  Save changes…
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    view && void save({ ...view.rules, enabled: false }, 'Retention is off.', false)
                  }
                >
                  Switch off
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button button-primary"
                disabled={rules === null}
                onClick={() => setAsking(true)}
              >
                Switch on…
              </button>
            )}
          </div>
        </>
      ) : null}
      {asking && rules ? (
        <ConfirmDialog
          title={on ? 'Save the retention rules?' : 'Switch retention on?'}
          message={
            <>
              <p>{retentionRulesText(rules)}.</p>
              <p>{previewLine}</p>
              <p>Then once a day, as tasks grow old. You can restore them from Recently deleted.</p>
              <p>{RESTORED_RULE_TEXT}.</p>
            </>
          }
          confirmLabel={on ? 'Save and run now' : 'Switch on and run now'}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void save({ ...rules, enabled: true }, 'Retention is on.', true);
          }}
        />
      ) : null}
    </section>
  );
}
