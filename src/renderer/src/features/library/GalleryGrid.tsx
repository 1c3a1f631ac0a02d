/**
 * The library gallery: rows of cards virtualized with @tanstack/react-virtual, columns from the
 * container's width, the next keyset page loaded as the last rows come into view.
 *
 * Keyboard: the grid is one tab stop (roving tabindex: only the active card's controls are in
 * the tab order). Arrow keys move by one card or one row, Home / End go to the first / last
 * loaded card, Enter opens the detail (the card's own button), Space plays a song card in the
 * player, Delete (or Cmd+Backspace)
 * moves the card to Recently deleted after an undo window, or, when the card is in a selection
 * of several, asks first, naming how many tasks the selection holds (in Recently deleted: asks
 * before deleting forever).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type FocusEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
import { useElementWidth } from '../../hooks/useElementWidth.ts';
import { gridLayout, rangeBetween, rowCount, rowItems } from '../../model/grid-layout.ts';
import { usePlayer } from '../../state/player-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { startCardDrag } from '../boards/board-drag.ts';
import { isSelected } from './gallery-selection.ts';
import { shownIds, useGalleryUi } from './gallery-state.ts';
import { deleteWithUndo } from './library-actions.ts';
import { askToDeleteForever, askToTrash } from './recently-deleted.ts';
import { TaskCard } from './TaskCard.tsx';

const GAP = 16;
const LOAD_AHEAD_ROWS = 3;
/** Frames to wait for a requested card to be rendered (it may be scrolled to first). */
const FOCUS_FRAMES = 30;

function cardIdOf(target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  return target.closest<HTMLElement>('[data-testid="task-card"]')?.dataset.taskId ?? null;
}

/** Where an arrow (or Home / End) key moves from `index` in a grid of `columns`, or null. */
export function keyTarget(key: string, index: number, count: number, columns: number): number | null {
  const lastRow = Math.floor((count - 1) / columns);
  switch (key) {
    case 'ArrowRight':
      return index + 1 < count ? index + 1 : null;
    case 'ArrowLeft':
      return index > 0 ? index - 1 : null;
    case 'ArrowDown':
      if (index + columns < count) return index + columns;
      // a shorter last row: go to its last card
      return Math.floor(index / columns) < lastRow ? count - 1 : null;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : null;
    case 'Home':
      return count > 0 ? 0 : null;
    case 'End':
      return count > 0 ? count - 1 : null;
    default:
      return null;
  }
}

/**
 * Space on a song card: plays it in the player (pauses it when it is the one playing). False for
 * a card with no saved song, whose Space stays the button's own (it opens the detail).
 */
function playOrPause(id: string): boolean {
  const player = usePlayer.getState();
  if (player.taskId === id && player.playing) {
    player.pause();
    return true;
  }
  return player.playTask(id);
}

export function GalleryGrid() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const focused = useRef<{ id: string; element: HTMLElement; className: string } | null>(null);
  const width = useElementWidth(scrollRef);
  const allIds = useTasks((s) => s.gallery.ids);
  const hidden = useGalleryUi((s) => s.hidden);
  const ids = useMemo(() => shownIds(allIds, hidden), [allIds, hidden]);
  const activeId = useGalleryUi((s) => s.activeId);
  const focusRequest = useGalleryUi((s) => s.focusRequest);
  const nextCursor = useTasks((s) => s.gallery.nextCursor);
  const loading = useTasks((s) => s.gallery.loading);
  const loadedOnce = useTasks((s) => s.gallery.loadedOnce);
  const loadNextPage = useTasks((s) => s.loadNextPage);
  const layout = gridLayout(Math.max(0, width - 2 * GAP));
  const dataRows = rowCount(ids.length, layout.columns);
  const hasMore = !loadedOnce || nextCursor !== null;
  const rows = dataRows + (hasMore ? 1 : 0);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => layout.rowHeight,
    overscan: 3,
    paddingStart: GAP,
    paddingEnd: GAP,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: row height changes with the width; the virtualizer must re-measure
  useEffect(() => {
    virtualizer.measure();
  }, [layout.rowHeight, virtualizer]);

  // The detail opening or closing narrows or widens the grid and changes its column count, which
  // moves every card to another row: keep the opened (or just closed) card in view once the rows
  // are laid out anew. Only that re-layout moves the grid (a later one, e.g. when a scroll bar
  // comes or goes, leaves the user's scrolling alone); with the detail open, a new column count
  // (the window resized) keeps the open card in view.
  const detailId = useUi((s) => s.detailId);
  const shownDetail = useRef<string | null>(null);
  const shownColumns = useRef(0);
  const pending = useRef<{ id: string; until: number } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the layout or the open card changes, with the ids of that moment
  useEffect(() => {
    if (width === 0) return;
    if (detailId !== shownDetail.current) {
      const id = detailId ?? shownDetail.current;
      pending.current = id ? { id, until: Date.now() + 1_000 } : null;
      shownDetail.current = detailId;
    }
    const columnsChanged = shownColumns.current !== 0 && shownColumns.current !== layout.columns;
    shownColumns.current = layout.columns;
    if (!columnsChanged) return;
    const waiting = pending.current && pending.current.until >= Date.now() ? pending.current.id : null;
    pending.current = null;
    const anchor = waiting ?? detailId;
    if (!anchor) return;
    const index = ids.indexOf(anchor);
    if (index >= 0) virtualizer.scrollToIndex(Math.floor(index / layout.columns), { align: 'auto' });
  }, [detailId, layout.columns, width]);

  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows[virtualRows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loading && lastIndex >= dataRows - LOAD_AHEAD_ROWS) void loadNextPage();
  }, [lastIndex, dataRows, hasMore, loading, loadNextPage]);

  // A requested card: scrolled into the rendered rows, then focused once it is there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per request, with the ids and columns of that moment
  useEffect(() => {
    if (!focusRequest) return;
    const done = () => useGalleryUi.getState().doneFocus(focusRequest.nonce);
    const index = ids.indexOf(focusRequest.id);
    if (index < 0) {
      done();
      return;
    }
    virtualizer.scrollToIndex(Math.floor(index / layout.columns), { align: 'auto' });
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      const button = scrollRef.current?.querySelector<HTMLElement>(
        `[data-task-id="${CSS.escape(focusRequest.id)}"] .card-thumb`,
      );
      if (button) button.focus();
      if (button || tries++ >= FOCUS_FRAMES) done();
      else frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [focusRequest]);

  const onSelect = useCallback((id: string, range: boolean) => {
    const ui = useUi.getState();
    if (range && ui.anchorId && ui.anchorId !== id) {
      const order = shownIds(useTasks.getState().gallery.ids, useGalleryUi.getState().hidden);
      ui.addToSelection(rangeBetween(order, ui.anchorId, id), id);
    } else {
      ui.toggleSelected(id);
    }
  }, []);

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const id = cardIdOf(event.target);
    if (!id || !(event.target instanceof HTMLElement)) return;
    useGalleryUi.getState().setActive(id);
    focused.current = { id, element: event.target, className: event.target.classList[0] ?? '' };
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    // focus moved on to something else: nothing to keep
    if (event.relatedTarget) focused.current = null;
  };

  // A new column count (the detail opening or closing, a resized window) moves cards into other
  // rows, which makes them anew: the focused control goes with its old element. Put the focus
  // on the same control of the same card again.
  useLayoutEffect(() => {
    const last = focused.current;
    if (!last || last.element.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const again = scrollRef.current?.querySelector<HTMLElement>(
      `[data-task-id="${CSS.escape(last.id)}"] .${CSS.escape(last.className)}`,
    );
    again?.focus({ preventScroll: true });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const id = cardIdOf(event.target);
    if (!id || event.altKey) return;
    const index = ids.indexOf(id);
    if (index < 0) return;
    const isDelete = event.key === 'Delete' || (event.key === 'Backspace' && event.metaKey);
    if (isDelete) {
      event.preventDefault();
      const ui = useUi.getState();
      const trashed = useTasks.getState().gallery.filters.trashed;
      // a selection of several (or Select all) is asked about first, naming how many it touches
      if (isSelected(ui, id) && (ui.allMatching !== null || ui.selection.size > 1)) {
        void (trashed ? askToDeleteForever() : askToTrash());
        return;
      }
      if (trashed) {
        void askToDeleteForever([id]);
        return;
      }
      const doomed = [id];
      const after = ids.slice(index + 1).find((other) => !doomed.includes(other));
      const before = ids
        .slice(0, index)
        .reverse()
        .find((other) => !doomed.includes(other));
      deleteWithUndo(doomed);
      const next = after ?? before;
      if (next) useGalleryUi.getState().focusCard(next);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === ' ' && event.target instanceof Element && event.target.closest('.card-thumb')) {
      if (playOrPause(id)) event.preventDefault();
      return;
    }
    const target = keyTarget(event.key, index, ids.length, layout.columns);
    if (target === null) return;
    event.preventDefault();
    const next = ids[target];
    if (next && next !== id) useGalleryUi.getState().focusCard(next);
  };

  const rendered: string[] = [];
  for (const row of virtualRows) {
    if (row.index >= dataRows) continue;
    const [start, end] = rowItems(row.index, layout.columns, ids.length);
    for (let i = start; i < end; i++) rendered.push(ids[i] as string);
  }
  const tabbableId = activeId !== null && rendered.includes(activeId) ? activeId : (rendered[0] ?? null);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: key and focus events bubbling from the cards' buttons (the grid's keyboard model)
    <div
      ref={scrollRef}
      className="gallery-scroll"
      data-testid="gallery"
      data-columns={layout.columns}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: virtual rows sit between the list and its items, which <ul> does not allow */}
      <div
        role="list"
        aria-label="Library results"
        aria-busy={loading}
        className="virtual-inner"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualRows.map((row) => {
          const [start, end] = rowItems(row.index, layout.columns, ids.length);
          const isLoaderRow = row.index >= dataRows;
          return (
            <div
              key={row.key}
              role="none"
              className="gallery-row"
              // a card is dragged onto a board in the sidebar (board-drag.ts)
              draggable={!isLoaderRow}
              onDragStart={isLoaderRow ? undefined : startCardDrag}
              style={{
                transform: `translateY(${row.start}px)`,
                height: layout.rowHeight - GAP,
                gridTemplateColumns: `repeat(${layout.columns}, ${layout.cardWidth}px)`,
                left: GAP,
                right: GAP,
              }}
            >
              {isLoaderRow ? (
                // biome-ignore lint/a11y/useSemanticElements: an item of the role=list above
                <div role="listitem" className="gallery-loading">
                  {loading ? 'Loading more…' : ''}
                </div>
              ) : (
                ids
                  .slice(start, end)
                  .map((id) => <TaskCard key={id} id={id} onSelect={onSelect} tabbable={id === tabbableId} />)
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
