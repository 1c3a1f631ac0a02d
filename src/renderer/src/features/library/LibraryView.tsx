/**
 * The library: filters, the total, the selection toolbar, the gallery (or a batch's results side
 * by side), and the detail panel.
 */
import { useEffect } from 'react';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { BatchCompare } from './BatchCompare.tsx';
import { useBatchCompare } from './batch-compare.ts';
import { DetailPanel } from './DetailPanel.tsx';
import { GalleryGrid } from './GalleryGrid.tsx';
import { useGalleryUi } from './gallery-state.ts';
import { LibraryFilters } from './LibraryFilters.tsx';
import { SelectionBar, selectAllShown } from './SelectionBar.tsx';

function Summary() {
  const total = useTasks((s) => s.gallery.total);
  const ids = useTasks((s) => s.gallery.ids);
  const error = useTasks((s) => s.gallery.error);
  const unreadable = useTasks((s) => s.gallery.unreadable);
  const reload = useTasks((s) => s.reloadGallery);
  const hidden = useGalleryUi((s) => s.hidden);
  // cards waiting out their undo window are not counted
  const hiddenHere = hidden.size === 0 ? 0 : ids.filter((id) => hidden.has(id)).length;
  const shownTotal = total === null ? null : Math.max(0, total - hiddenHere);
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  return (
    <div className="library-summary">
      <p className="total" data-testid="library-total" aria-live="polite">
        {shownTotal === null
          ? 'Counting…'
          : `${shownTotal.toLocaleString('en-US')} task${shownTotal === 1 ? '' : 's'}`}
        {demo ? <span className="muted"> in the demo library (sample results, not billed)</span> : null}
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
      <SelectionBar />
    </div>
  );
}

function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  return (
    target instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'button', 'submit', 'range', 'reset'].includes(target.type)
  );
}

/**
 * The library's window-wide keys: Escape closes the detail (focus back on its card), Ctrl/Cmd+A
 * selects every card. Neither acts inside a text field or while a modal dialog is open.
 */
function useLibraryKeys(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTextEntry(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const ui = useUi.getState();
      if (event.key === 'Escape' && ui.detailId) {
        const id = ui.detailId;
        event.preventDefault();
        ui.openDetail(null);
        useGalleryUi.getState().focusCard(id);
        return;
      }
      const inDetail = event.target instanceof Element && event.target.closest('.detail') !== null;
      if ((event.key === 'a' || event.key === 'A') && (event.ctrlKey || event.metaKey) && !inDetail) {
        event.preventDefault();
        selectAllShown();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function LibraryView() {
  const detailId = useUi((s) => s.detailId);
  const generation = useTasks((s) => s.gallery.generation);
  const hidden = useGalleryUi((s) => s.hidden);
  const empty = useTasks(
    (s) => s.gallery.loadedOnce && !s.gallery.loading && s.gallery.ids.every((id) => hidden.has(id)),
  );
  const comparing = useBatchCompare((s) => s.batchId !== null);
  useLibraryKeys();

  useEffect(() => {
    if (useTasks.getState().gallery.generation === 0) useTasks.getState().reloadGallery();
  }, []);

  return (
    <div className={`view library-view${detailId ? ' library-with-detail' : ''}`}>
      <div className="library-main">
        <header className="view-header">
          <h1>Library</h1>
        </header>
        {comparing ? <BatchCompare /> : null}
        {comparing ? null : <LibraryFilters />}
        {comparing ? null : <Summary />}
        {comparing ? null : empty ? (
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
