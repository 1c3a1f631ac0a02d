/** The library: filters, the total, selection and export, the gallery, and the detail panel. */
import { useEffect } from 'react';
import { useTasks } from '../../stores/tasks-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { DetailPanel } from './DetailPanel.tsx';
import { GalleryGrid } from './GalleryGrid.tsx';
import { LibraryFilters } from './LibraryFilters.tsx';
import { exportTasks } from './library-actions.ts';

function Summary() {
  const total = useTasks((s) => s.gallery.total);
  const loaded = useTasks((s) => s.gallery.ids.length);
  const error = useTasks((s) => s.gallery.error);
  const unreadable = useTasks((s) => s.gallery.unreadable);
  const loadedOnce = useTasks((s) => s.gallery.loadedOnce);
  const reload = useTasks((s) => s.reloadGallery);
  const selection = useUi((s) => s.selection);
  const setSelection = useUi((s) => s.setSelection);
  const count = selection.size;
  return (
    <div className="library-summary">
      <p className="total" data-testid="library-total" aria-live="polite">
        {total === null ? 'Counting…' : `${total.toLocaleString('en-US')} task${total === 1 ? '' : 's'}`}
        {total !== null && loaded < total ? (
          <span className="muted"> · {loaded.toLocaleString('en-US')} loaded</span>
        ) : null}
      </p>
      {unreadable > 0 ? <p className="muted">{unreadable} record(s) could not be read.</p> : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}{' '}
          <button type="button" className="button button-small" onClick={reload}>
            Try again
          </button>
        </p>
      ) : null}
      <div className="selection-bar">
        {count > 0 ? (
          <>
            <span data-testid="selection-count">{count} selected</span>
            <button type="button" className="button button-small" onClick={() => setSelection([], null)}>
              Clear selection
            </button>
          </>
        ) : loadedOnce ? (
          <span className="muted">Tick cards to select; shift-click selects a range.</span>
        ) : null}
        <button
          type="button"
          className="button button-small button-primary"
          disabled={count === 0}
          onClick={() => void exportTasks([...selection])}
        >
          Export selected
        </button>
      </div>
    </div>
  );
}

export function LibraryView() {
  const detailId = useUi((s) => s.detailId);
  const generation = useTasks((s) => s.gallery.generation);
  const empty = useTasks((s) => s.gallery.loadedOnce && s.gallery.ids.length === 0 && !s.gallery.loading);

  useEffect(() => {
    if (useTasks.getState().gallery.generation === 0) useTasks.getState().reloadGallery();
  }, []);

  return (
    <div className={`view library-view${detailId ? ' library-with-detail' : ''}`}>
      <div className="library-main">
        <header className="view-header">
          <h1>Library</h1>
        </header>
        <LibraryFilters />
        <Summary />
        {empty ? (
          <div className="empty-state">
            <h2>No tasks here</h2>
            <p>Nothing matches these filters yet.</p>
          </div>
        ) : (
          <GalleryGrid key={generation} />
        )}
      </div>
      {detailId ? <DetailPanel id={detailId} /> : null}
    </div>
  );
}
