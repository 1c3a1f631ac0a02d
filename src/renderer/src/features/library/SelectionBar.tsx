/**
 * The library's selection toolbar: "Select all", the count, and what can be done to every
 * selected task at once (favourite, re-run after a priced confirmation, export, delete with undo),
 * and "Queue again from an export…" (a task.json chosen in main's file dialog, then what it would
 * queue shown in TaskFileDialog, queued only on the user's word).
 */
import { useState } from 'react';
import type { TaskFilePreview } from '../../../../shared/index.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { planPriceText, planRerun, type RerunPlan, runRerun } from './bulk-rerun.ts';
import { shownIds, useGalleryUi } from './gallery-state.ts';
import { deleteWithUndo, exportTasks, readExport, setFavoriteMany } from './library-actions.ts';
import { TaskFileDialog } from './TaskFileDialog.tsx';

/** Selects every card the gallery has loaded (hidden ones aside). */
export function selectAllShown(): void {
  const ids = shownIds(useTasks.getState().gallery.ids, useGalleryUi.getState().hidden);
  useUi.getState().setSelection(ids, null);
}

export function SelectionBar() {
  const selection = useUi((s) => s.selection);
  const setSelection = useUi((s) => s.setSelection);
  const loadedOnce = useTasks((s) => s.gallery.loadedOnce);
  const ids = useTasks((s) => s.gallery.ids);
  const hidden = useGalleryUi((s) => s.hidden);
  const byId = useTasks((s) => s.byId);
  useTasks((s) => s.rev);
  const [plan, setPlan] = useState<RerunPlan | null>(null);
  const [planning, setPlanning] = useState(false);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<TaskFilePreview | null>(null);
  const runImport = async () => {
    setImporting(true);
    setImported(await readExport());
    setImporting(false);
  };
  const shown = shownIds(ids, hidden);
  const count = selection.size;
  const picked = [...selection];
  const allFavourite = count > 0 && picked.every((id) => byId.get(id)?.favorite === true);
  const allSelected = shown.length > 0 && shown.every((id) => selection.has(id));

  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      {count > 0 ? (
        <span data-testid="selection-count" className="selection-count">
          {count} selected
        </span>
      ) : loadedOnce ? (
        <span className="muted selection-hint">Tick cards to select; shift-click selects a range.</span>
      ) : null}
      <button
        type="button"
        className="button button-small"
        disabled={allSelected}
        onClick={selectAllShown}
        aria-keyshortcuts="Control+A Meta+A"
      >
        Select all
      </button>
      {count > 0 ? (
        <>
          <button type="button" className="button button-small" onClick={() => setSelection([], null)}>
            Clear selection
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => void setFavoriteMany(picked, !allFavourite)}
          >
            <span aria-hidden="true">{allFavourite ? '☆ ' : '★ '}</span>
            {allFavourite ? 'Unfavourite selected' : 'Favourite selected'}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={planning}
            onClick={async () => {
              setPlanning(true);
              const next = await planRerun(picked);
              setPlanning(false);
              if (next) setPlan(next);
            }}
          >
            Re-run selected…
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => deleteWithUndo(picked)}
          >
            Delete selected
          </button>
        </>
      ) : null}
      <button
        type="button"
        className="button button-small"
        disabled={importing}
        onClick={() => void runImport()}
      >
        Queue again from an export…
      </button>
      <button
        type="button"
        className="button button-small button-primary"
        disabled={count === 0}
        onClick={() => void exportTasks(picked)}
      >
        Export selected
      </button>
      {imported ? <TaskFileDialog preview={imported} onClose={() => setImported(null)} /> : null}
      {plan ? (
        <ConfirmDialog
          title={`Re-run ${plan.items.length} task${plan.items.length === 1 ? '' : 's'}?`}
          message={
            <>
              <p>
                This queues {plan.items.length} new task{plan.items.length === 1 ? '' : 's'} with the same
                inputs, each billed by the service.
              </p>
              <p data-testid="rerun-total">
                <strong>{planPriceText(plan)}</strong>
              </p>
            </>
          }
          confirmLabel={`Queue ${plan.items.length} re-run${plan.items.length === 1 ? '' : 's'}`}
          onCancel={() => setPlan(null)}
          onConfirm={() => {
            const confirmed = plan;
            setPlan(null);
            void runRerun(confirmed);
          }}
        />
      ) : null}
    </div>
  );
}
