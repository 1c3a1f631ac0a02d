/**
 * The library: filters, the total, the selection toolbar, the gallery (or a batch's results side
 * by side), and the detail panel.
 */
import { useEffect, useRef } from 'react';
import { TRASH_DAYS } from '../../../../shared/index.ts';
import { useElementWidth } from '../../hooks/useElementWidth.ts';
import { useBoards } from '../../state/boards-state.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { CompareView } from '../compare/CompareView.tsx';
import { useCompare } from '../compare/compare-state.ts';
import { BatchCompare } from './BatchCompare.tsx';
import { useBatchCompare } from './batch-compare.ts';
import { DetailPanel } from './DetailPanel.tsx';
import { GalleryGrid } from './GalleryGrid.tsx';
import { useGalleryUi } from './gallery-state.ts';
import { LibraryFilters } from './LibraryFilters.tsx';
import { LibrarySizeLine } from './LibrarySize.tsx';
import { showRecentlyDeleted } from './recently-deleted.ts';
import { SelectionBar, selectAll } from './SelectionBar.tsx';
import { TrashQuestion } from './TrashQuestion.tsx';

function Summary() {
  const total = useTasks((s) => s.gallery.total);
  const capped = useTasks((s) => s.gallery.totalCapped);
  const ids = useTasks((s) => s.gallery.ids);
  const error = useTasks((s) => s.gallery.error);
  const unreadable = useTasks((s) => s.gallery.unreadable);
  const reload = useTasks((s) => s.reloadGallery);
  const hidden = useGalleryUi((s) => s.hidden);
  // cards waiting out their undo window are not counted
  const hiddenHere = hidden.size === 0 ? 0 : ids.filter((id) => hidden.has(id)).length;
  const shownTotal = total === null ? null : Math.max(0, total - hiddenHere);
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const trashView = useTasks((s) => s.gallery.filters.trashed);
  const boardId = useTasks((s) => s.gallery.filters.board);
  const boardName = useBoards((s) => s.boards.find((b) => b.id === boardId)?.name ?? null);
  const summary = useRef<HTMLDivElement>(null);
  const room = useElementWidth(summary);
  return (
    <div className="library-summary" ref={summary}>
      <p className="total" data-testid="library-total" aria-live="polite">
        {shownTotal === null
          ? 'Counting…'
          : capped
            ? `${(total ?? 0).toLocaleString('en-US')}+ tasks`
            : `${shownTotal.toLocaleString('en-US')} task${shownTotal === 1 ? '' : 's'}`}
        {trashView ? ' in Recently deleted' : null}
        {boardName !== null && !trashView ? (
          <>
            {' '}
            on the board “<bdi>{boardName}</bdi>”
          </>
        ) : null}
        {demo && !trashView ? (
          <span className="muted"> in the demo library (sample results, not billed)</span>
        ) : null}
      </p>
      {trashView ? (
        <p className="muted trash-note">
          Deleted tasks stay here with their files for {TRASH_DAYS} days, then go for good.
        </p>
      ) : null}
      {(boardId ?? null) === null ? <LibrarySizeLine trashView={trashView === true} /> : null}
      {unreadable > 0 ? (
        <p className="muted">
          {`${unreadable.toLocaleString('en-US')} record${unreadable === 1 ? '' : 's'} could not be read.`}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}{' '}
          <button type="button" className="button button-small" onClick={reload}>
            Try again
          </button>
        </p>
      ) : null}
      <SelectionBar room={room} />
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
        selectAll();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** Switches the gallery between the library and Recently deleted. */
function LibrarySide() {
  const trashView = useTasks((s) => s.gallery.filters.trashed);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of two toggle buttons, not a form's fieldset
    <div className="library-side" role="group" aria-label="Show">
      <button
        type="button"
        className="button button-small"
        aria-pressed={!trashView}
        onClick={() => showRecentlyDeleted(false)}
      >
        All results
      </button>
      <button
        type="button"
        className="button button-small"
        aria-pressed={trashView}
        onClick={() => showRecentlyDeleted(true)}
      >
        Recently deleted
      </button>
    </div>
  );
}

export function LibraryView() {
  const detailId = useUi((s) => s.detailId);
  const generation = useTasks((s) => s.gallery.generation);
  const hidden = useGalleryUi((s) => s.hidden);
  const trashView = useTasks((s) => s.gallery.filters.trashed);
  // empty only once every page is loaded (cards removed from the loaded ones leave more to load)
  const empty = useTasks(
    (s) =>
      s.gallery.loadedOnce &&
      !s.gallery.loading &&
      s.gallery.nextCursor === null &&
      s.gallery.ids.every((id) => hidden.has(id)),
  );
  const batchShown = useBatchCompare((s) => s.batchId !== null);
  const picked = useCompare((s) => s.taskIds.length > 0);
  const comparing = batchShown || picked;
  useLibraryKeys();

  useEffect(() => {
    if (useTasks.getState().gallery.generation === 0) useTasks.getState().reloadGallery();
  }, []);

  return (
    <div className={`view library-view${detailId ? ' library-with-detail' : ''}`}>
      <div className="library-main">
        <header className="view-header">
          <h1>Library</h1>
          {comparing ? null : <LibrarySide />}
        </header>
        {batchShown ? <BatchCompare /> : picked ? <CompareView /> : null}
        {comparing ? null : <LibraryFilters />}
        {comparing ? null : <Summary />}
        {comparing ? null : empty ? (
          <div className="empty-state">
            <h2>{trashView ? 'Nothing in Recently deleted' : 'No tasks here'}</h2>
            <p>
              {trashView
                ? `Deleted tasks wait here for ${TRASH_DAYS} days before they go for good.`
                : 'Nothing matches these filters yet.'}
            </p>
          </div>
        ) : (
          <GalleryGrid key={generation} />
        )}
      </div>
      {detailId ? <DetailPanel id={detailId} /> : null}
      <TrashQuestion />
    </div>
  );
}
