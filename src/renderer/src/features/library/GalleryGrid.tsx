/**
 * The library gallery: rows of cards virtualized with @tanstack/react-virtual, columns from the
 * container's width, the next keyset page loaded as the last rows come into view.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import { useElementWidth } from '../../hooks/useElementWidth.ts';
import { gridLayout, rangeBetween, rowCount, rowItems } from '../../model/grid-layout.ts';
import { useTasks } from '../../stores/tasks-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { TaskCard } from './TaskCard.tsx';

const GAP = 16;
const LOAD_AHEAD_ROWS = 3;

export function GalleryGrid() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(scrollRef);
  const ids = useTasks((s) => s.gallery.ids);
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

  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows[virtualRows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loading && lastIndex >= dataRows - LOAD_AHEAD_ROWS) void loadNextPage();
  }, [lastIndex, dataRows, hasMore, loading, loadNextPage]);

  const onSelect = useCallback((id: string, range: boolean) => {
    const ui = useUi.getState();
    if (range && ui.anchorId && ui.anchorId !== id) {
      const span = rangeBetween(useTasks.getState().gallery.ids, ui.anchorId, id);
      ui.setSelection(new Set([...ui.selection, ...span]), id);
    } else {
      ui.toggleSelected(id);
    }
  }, []);

  return (
    <div ref={scrollRef} className="gallery-scroll" data-testid="gallery" data-columns={layout.columns}>
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
                ids.slice(start, end).map((id) => <TaskCard key={id} id={id} onSelect={onSelect} />)
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
