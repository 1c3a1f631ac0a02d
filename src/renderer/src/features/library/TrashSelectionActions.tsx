/**
 * The selection toolbar's buttons in Recently deleted: restore the selection, delete it forever
 * (asked first), clear it; and "Empty Recently deleted…" (asked first), shown while it holds any.
 */
import { useState } from 'react';
import { useTasks } from '../../state/tasks-state.ts';
import { askToDeleteForever, askToEmpty, restoreSelected } from './recently-deleted.ts';

export function TrashSelectionActions({ onClear }: { onClear(): void }) {
  // as ConfirmDialog's busy: a second press while the restore runs would restore nothing again
  const [restoring, setRestoring] = useState(false);
  return (
    <>
      <button type="button" className="button button-small" onClick={onClear}>
        Clear selection
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={restoring}
        aria-busy={restoring || undefined}
        onClick={() => {
          setRestoring(true);
          void restoreSelected().finally(() => setRestoring(false));
        }}
      >
        Restore selected
      </button>
      <button
        type="button"
        className="button button-small button-danger"
        onClick={() => void askToDeleteForever()}
      >
        Delete forever…
      </button>
    </>
  );
}

export function EmptyTrashButton() {
  const total = useTasks((s) => s.gallery.total);
  const searched = useTasks((s) => s.gallery.filters.search.trim() !== '');
  // the whole of Recently deleted, whatever the filters: only offered when it is not empty
  if (!total && !searched) return null;
  return (
    <button type="button" className="button button-small button-danger" onClick={() => void askToEmpty()}>
      Empty Recently deleted…
    </button>
  );
}
