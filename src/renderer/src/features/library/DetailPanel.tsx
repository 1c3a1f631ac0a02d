/** The side panel of one library task: its media, actions (and what to make from it next), and every fact about it. */
import { useEffect, useId, useState } from 'react';
import { invoke } from '../../bridge.ts';
import { StateChip } from '../../components/StateChip.tsx';
import { asSentence } from '../../model/studio-error.ts';
import { stateExplanation, taskTypeLabelOf } from '../../model/task-status.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { openRerun } from '../compose/compose-actions.ts';
import { DetailMedia } from './DetailMedia.tsx';
import { LineageSection } from './LineageSection.tsx';
import {
  deleteWithUndo,
  dragOut,
  exportTasks,
  renameTask,
  revealTask,
  setFavorite,
} from './library-actions.ts';
import { ResultActions } from './ResultActions.tsx';
import { askToDeleteForever, restoreSelected } from './recently-deleted.ts';
import { Cost, Identity, Parameters, StateHistory, Timings } from './TaskFacts.tsx';
import { useParentTask } from './use-parent-task.ts';
import { useShownOutput } from './use-shown-output.ts';

function RenameForm({ id, title, onDone }: { id: string; title: string; onDone(): void }) {
  const inputId = useId();
  const [value, setValue] = useState(title);
  return (
    <form
      className="rename-form"
      onSubmit={async (event) => {
        event.preventDefault();
        if (value.trim() === '') return;
        if (await renameTask(id, value.trim())) onDone();
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        New title
      </label>
      <input
        id={inputId}
        type="text"
        value={value}
        maxLength={200}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // ends the rename only (the library's Escape would close the whole panel)
            event.stopPropagation();
            onDone();
          }
        }}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
        autoFocus
      />
      <button type="submit" className="button button-small button-primary" disabled={value.trim() === ''}>
        Save title
      </button>
      <button type="button" className="button button-small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

export function DetailPanel({ id }: { id: string }) {
  const task = useTasks((s) => s.byId.get(id));
  const close = useUi((s) => s.openDetail);
  const [renaming, setRenaming] = useState(false);
  const titleId = useId();
  const parent = useParentTask(task?.parentId ?? null);
  const [shown, showOutput] = useShownOutput(task?.id ?? null);

  useEffect(() => {
    let live = true;
    setRenaming(false);
    invoke('tasks.get', { id })
      .then((full) => {
        if (!live) return;
        if (full) useTasks.getState().upsert([full]);
        else useUi.getState().openDetail(null);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id]);

  if (!task) {
    return (
      <aside className="detail" aria-label="Task details" data-testid="detail-panel">
        <p className="muted">Loading…</p>
      </aside>
    );
  }
  const savedIndex = task.outputs.findIndex((o) => o.state === 'saved' && o.path);

  return (
    <aside className="detail" aria-labelledby={titleId} data-testid="detail-panel" data-task-id={task.id}>
      <header className="detail-header">
        {renaming ? (
          <RenameForm id={task.id} title={task.title} onDone={() => setRenaming(false)} />
        ) : (
          <h2 id={titleId} className="detail-title">
            {task.title}
          </h2>
        )}
        <button type="button" className="icon-button" aria-label="Close details" onClick={() => close(null)}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <div className="detail-state">
        <StateChip state={task.state} />
        <span className="muted">{taskTypeLabelOf(task)}</span>
      </div>
      {task.state === 'failed' && task.error ? (
        <p className="field-error" role="note">
          {asSentence(task.error.message)}
        </p>
      ) : task.state !== 'saved' ? (
        <p className="muted">{stateExplanation(task)}</p>
      ) : null}
      <DetailMedia key={task.id} task={task} parent={parent} shown={shown} onShow={showOutput} />
      <div className="detail-actions" role="toolbar" aria-label="Task actions">
        <button
          type="button"
          className="button button-small"
          aria-pressed={task.favorite}
          onClick={() => void setFavorite(task.id, !task.favorite)}
        >
          <span aria-hidden="true">{task.favorite ? '★ ' : '☆ '}</span>
          Favourite
        </button>
        <button type="button" className="button button-small" onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" className="button button-small" onClick={() => void openRerun(task.id)}>
          Re-run
        </button>
        <button type="button" className="button button-small" onClick={() => void exportTasks([task.id])}>
          Export this
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void revealTask(task.id, Math.max(0, savedIndex))}
          disabled={savedIndex < 0}
        >
          Reveal in folder
        </button>
        {savedIndex >= 0 ? (
          // biome-ignore lint/a11y/noStaticElementInteractions: a drag source for the OS; "Export this" does the same from the keyboard
          <span
            className="drag-out"
            draggable
            title="Drag the file to your desktop or another app"
            data-testid="drag-out"
            onDragStart={(event) => {
              event.preventDefault();
              dragOut(task.id, savedIndex);
            }}
          >
            <span aria-hidden="true">⇱</span> Drag out
          </span>
        ) : null}
        {task.deletedAt ? (
          <>
            <button
              type="button"
              className="button button-small"
              onClick={() => void restoreSelected([task.id])}
            >
              Restore
            </button>
            <button
              type="button"
              className="button button-small button-danger"
              onClick={() => void askToDeleteForever([task.id])}
            >
              Delete forever…
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => deleteWithUndo([task.id])}
          >
            Delete
          </button>
        )}
      </div>
      <ResultActions task={task} shown={shown} onShow={showOutput} />
      <LineageSection task={task} />
      <Parameters task={task} parent={parent} />
      <Identity task={task} />
      <Cost task={task} />
      <Timings task={task} />
      <StateHistory id={task.id} updatedAt={task.updatedAt} />
    </aside>
  );
}
