/** Column math for the virtualized library grid. Pure. */

export interface GridOptions {
  /** Smallest card width before a column is dropped. */
  minCardWidth: number;
  /** Gap between cards, both ways. */
  gap: number;
  /** Height of the caption under a square thumbnail. */
  captionHeight: number;
  /** Upper bound on columns. */
  maxColumns?: number;
}

export interface GridLayout {
  columns: number;
  cardWidth: number;
  /** Height of one virtual row: card plus the gap under it. */
  rowHeight: number;
}

export const DEFAULT_GRID: GridOptions = { minCardWidth: 184, gap: 16, captionHeight: 86, maxColumns: 12 };

export function gridLayout(containerWidth: number, options: GridOptions = DEFAULT_GRID): GridLayout {
  const width = Math.max(0, Math.floor(containerWidth));
  const fit = Math.floor((width + options.gap) / (options.minCardWidth + options.gap));
  const columns = Math.max(1, Math.min(options.maxColumns ?? Number.POSITIVE_INFINITY, fit));
  const cardWidth = Math.max(1, Math.floor((width - options.gap * (columns - 1)) / columns));
  return { columns, cardWidth, rowHeight: cardWidth + options.captionHeight + options.gap };
}

/** Rows needed for `count` items in `columns` columns. */
export function rowCount(count: number, columns: number): number {
  return columns <= 0 ? 0 : Math.ceil(Math.max(0, count) / columns);
}

/** Item indexes [start, end) shown in virtual row `row`. */
export function rowItems(row: number, columns: number, count: number): [number, number] {
  const start = row * columns;
  return [Math.min(start, count), Math.min(start + columns, count)];
}

/** Ids between two positions of an ordered list, inclusive, for shift-click selection. */
export function rangeBetween<T>(ordered: readonly T[], from: T, to: T): T[] {
  const a = ordered.indexOf(from);
  const b = ordered.indexOf(to);
  if (a === -1 || b === -1) return b === -1 ? [] : [to];
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  return ordered.slice(lo, hi + 1);
}
