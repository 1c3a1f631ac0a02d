/**
 * The library's selection toolbar: "Select all", the count, and what can be done to every
 * selected task at once (favourite, re-run after a priced confirmation, add to a board or take
 * off the board shown, export, delete with undo),
 * and "Queue again from an export…" (a task.json, or a result file the app made, chosen in main's
 * file dialog, then what it would queue shown in TaskFileDialog, queued only on the user's word). In a narrow library the actions
 * used least go into "More" (SelectionMore.tsx), so the toolbar stays one row.
 */
import { type ReactNode, useState } from 'react';
import type { TaskFilePreview, TaskSelection } from '../../../../shared/index.ts';
import { tasksWord } from '../../../../shared/task/task-count-words.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { AddToBoardDialog } from '../boards/AddToBoardDialog.tsx';
import { RemoveFromBoardButton } from '../boards/RemoveFromBoardButton.tsx';
import { CompareButton } from '../compare/CompareButton.tsx';
import { planPriceText, planRerun, type RerunPlan, runRerun } from './bulk-rerun.ts';
import { currentSelection, selectedIds, selectedWords, useSelectionSize } from './gallery-selection.ts';
import { deleteWithUndo, exportTasks, readExport, setFavoriteMany } from './library-actions.ts';
import { askToTrash } from './recently-deleted.ts';
import { SelectionMore, selectionOverflowAt } from './SelectionMore.tsx';
import { TaskFileDialog } from './TaskFileDialog.tsx';
import { EmptyTrashButton, TrashSelectionActions } from './TrashSelectionActions.tsx';

/**
 * Selects every task the gallery's filter matches, loaded or not (Select all, Ctrl/Cmd+A): the
 * actions take the filter, and the count is the library's.
 */
export function selectAll(): void {
  useUi.getState().selectAllMatching();
}

/** Runs an action that takes ids with the selected ones (asked of the library for Select all). */
function withSelectedIds(action: (ids: string[]) => unknown): () => void {
  return () => {
    selectedIds().then(action, (err: unknown) => toastError(err));
  };
}

/**
 * Words of a button's label that a mid-size library does not show, so the toolbar stays one line
 * (gallery.css); they stay in the button's name (hidden only from sight).
 */
function Wide({ children }: { children: string }) {
  return <span className="wide-words">{children}</span>;
}

/** `room`: the width of the row the toolbar is on (0: not measured yet). */
export function SelectionBar({ room = 0 }: { room?: number }) {
  const selection = useUi((s) => s.selection);
  const setSelection = useUi((s) => s.setSelection);
  const loadedOnce = useTasks((s) => s.gallery.loadedOnce);
  const allMatching = useUi((s) => s.allMatching);
  const trashView = useTasks((s) => s.gallery.filters.trashed);
  const byId = useTasks((s) => s.byId);
  useTasks((s) => s.rev);
  const [plan, setPlan] = useState<RerunPlan | null>(null);
  const [planning, setPlanning] = useState(false);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<TaskFilePreview | null>(null);
  const [boarding, setBoarding] = useState<TaskSelection | null>(null);
  const runImport = async () => {
    setImporting(true);
    setImported(await readExport());
    setImporting(false);
  };
  const size = useSelectionSize();
  const { count } = size;
  const picked = [...selection];
  const allFavourite = !allMatching && count > 0 && picked.every((id) => byId.get(id)?.favorite === true);
  const allSelected = allMatching !== null && allMatching.except.size === 0;
  const acting = count > 0 && !trashView;
  const overflow = acting ? selectionOverflowAt(room) : 'none';
  const queueAgain = (
    <button
      type="button"
      className="button button-small"
      disabled={importing}
      onClick={() => void runImport()}
    >
      <span>
        Queue<Wide> again</Wide> from an export…
      </span>
    </button>
  );
  const rerun = (
    <button
      type="button"
      className="button button-small"
      disabled={planning}
      onClick={withSelectedIds(async (ids) => {
        setPlanning(true);
        const next = await planRerun(ids);
        setPlanning(false);
        if (next) setPlan(next);
      })}
    >
      <span>
        Re-run<Wide> selected</Wide>…
      </span>
    </button>
  );
  const addToBoard = (
    <button type="button" className="button button-small" onClick={() => setBoarding(currentSelection())}>
      Add to board…
    </button>
  );
  // the least used first: what goes into More as the library narrows
  const more: ReactNode[] =
    overflow === 'none'
      ? []
      : overflow === 'rare'
        ? [queueAgain, <RemoveFromBoardButton key="remove" />]
        : [rerun, addToBoard, <RemoveFromBoardButton key="remove" />, queueAgain];
  const inline = (node: ReactNode) => (more.includes(node) ? null : node);

  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      {count > 0 ? (
        <span data-testid="selection-count" className="selection-count">
          {selectedWords(size)}
        </span>
      ) : loadedOnce ? (
        <span className="muted selection-hint">Tick cards to select; shift-click selects a range.</span>
      ) : null}
      <button
        type="button"
        className="button button-small"
        disabled={allSelected}
        onClick={selectAll}
        aria-keyshortcuts="Control+A Meta+A"
      >
        Select all
      </button>
      {count > 0 && trashView ? <TrashSelectionActions onClear={() => setSelection([], null)} /> : null}
      {trashView ? <EmptyTrashButton /> : null}
      {count > 0 && !trashView ? (
        <>
          <button type="button" className="button button-small" onClick={() => setSelection([], null)}>
            <span>
              Clear<Wide> selection</Wide>
            </span>
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={withSelectedIds((ids) => setFavoriteMany(ids, !allFavourite))}
          >
            <span aria-hidden="true">{allFavourite ? '☆ ' : '★ '}</span>
            <span>
              {allFavourite ? 'Unfavourite' : 'Favourite'}
              <Wide> selected</Wide>
            </span>
          </button>
          {inline(rerun)}
          {inline(addToBoard)}
          <CompareButton />
          {overflow === 'none' ? <RemoveFromBoardButton /> : null}
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => (allMatching || picked.length > 1 ? void askToTrash() : deleteWithUndo(picked))}
          >
            <span>
              Delete<Wide> selected</Wide>…
            </span>
          </button>
        </>
      ) : null}
      {inline(queueAgain)}
      <button
        type="button"
        className="button button-small button-primary"
        disabled={count === 0}
        onClick={withSelectedIds((ids) => exportTasks(ids))}
      >
        <span>
          Export<Wide> selected</Wide>
        </span>
      </button>
      {more.length > 0 ? (
        <SelectionMore>
          {more.map((node, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list per width
            <span key={i}>{node}</span>
          ))}
        </SelectionMore>
      ) : null}
      {boarding ? (
        <AddToBoardDialog selection={boarding} size={size} onClose={() => setBoarding(null)} />
      ) : null}
      {imported ? <TaskFileDialog preview={imported} onClose={() => setImported(null)} /> : null}
      {plan ? (
        <ConfirmDialog
          title={`Re-run ${tasksWord(plan.items.length)}?`}
          message={
            <>
              <p>
                This queues{' '}
                {`${plan.items.length.toLocaleString('en-US')} new task${plan.items.length === 1 ? '' : 's'}`}{' '}
                with the same inputs, each billed by the service.
              </p>
              <p data-testid="rerun-total">
                <strong>{planPriceText(plan)}</strong>
              </p>
            </>
          }
          confirmLabel={`Queue ${plan.items.length.toLocaleString('en-US')} re-run${plan.items.length === 1 ? '' : 's'}`}
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
