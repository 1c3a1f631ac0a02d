/**
 * How each list order sorts, and the opaque cursor that says where a page ended.
 *
 * Every order is "a key column (or none), then seq", both ascending or both descending, walked on
 * one index `(key, seq)` of migration 3 (or on seq alone). So the next page is the keyset
 * `(key, seq) > (last key, last seq)` (`<` when descending): a range of that index, whatever the
 * page number, and exact across ties because seq is unique.
 */
import { z } from 'zod';
import { LIST_ORDERS, type ListOrder } from '../../shared/index.ts';
import { InvalidCursorError } from './store-errors.ts';

export interface OrderSpec {
  /** The tasks column sorted on before seq (a virtual column for the derived keys); null: seq alone. */
  key: string | null;
  /** Whether the key's values are text (else numbers). */
  textKey: boolean;
  descending: boolean;
}

export const ORDERS: Readonly<Record<ListOrder, OrderSpec>> = {
  newest: { key: null, textKey: false, descending: true },
  oldest: { key: null, textKey: false, descending: false },
  starredFirst: { key: 'favorite', textKey: false, descending: true },
  // title_key: the title compared without case (COLLATE NOCASE)
  title: { key: 'title_key', textKey: true, descending: false },
  costliest: { key: 'cost_micros', textKey: false, descending: true },
  // length_key: length_seconds, or -1 without one, so those come last
  longest: { key: 'length_key', textKey: false, descending: true },
};

/** The column name under which a list query returns the order's key value. */
export const SORT_KEY_COLUMN = 'sort_key';

/**
 * Text keys longer than this (in code points) are cut in the cursor, which must stay short (the
 * window hands it back through a size-checked call); the next page then finds the full key by seq.
 */
export const MAX_CURSOR_TEXT = 100;

/** Where the previous page ended: its last row's key (null for the seq-only orders) and seq. */
export interface PagePosition {
  key: number | string | null;
  seq: number;
  /** True when `key` is only the start of a longer text key (see MAX_CURSOR_TEXT). */
  cut: boolean;
}

const CursorSchema = z.strictObject({
  v: z.literal(2),
  o: z.enum(LIST_ORDERS),
  k: z.union([z.number(), z.string(), z.null()]),
  s: z.number().int(),
  c: z.literal(1).optional(),
});

/** Where a page whose last row is `row` ended. */
export function positionOf(row: Record<string, unknown>, order: ListOrder): PagePosition {
  const seq = Number(row.seq);
  const spec = ORDERS[order];
  if (spec.key === null) return { key: null, seq, cut: false };
  const value = row[SORT_KEY_COLUMN];
  if (!spec.textKey) return { key: Number(value), seq, cut: false };
  const points = Array.from(String(value));
  const cut = points.length > MAX_CURSOR_TEXT;
  return { key: cut ? points.slice(0, MAX_CURSOR_TEXT).join('') : String(value), seq, cut };
}

export function encodeCursor(order: ListOrder, at: PagePosition): string {
  const body = { v: 2, o: order, k: at.key, s: at.seq, ...(at.cut ? { c: 1 } : {}) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

function keyFits(spec: OrderSpec, key: number | string | null): boolean {
  if (spec.key === null) return key === null;
  return spec.textKey ? typeof key === 'string' : typeof key === 'number' && Number.isFinite(key);
}

export function decodeCursor(cursor: string, order: ListOrder): PagePosition {
  const notOurs = () => new InvalidCursorError('The list cursor is not one this store made');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notOurs();
  }
  const parsed = CursorSchema.safeParse(value);
  if (!parsed.success) throw notOurs();
  const { o, k, s, c } = parsed.data;
  if (o !== order) {
    throw new InvalidCursorError(`The list cursor was made for order "${o}", not "${order}"`);
  }
  if (!keyFits(ORDERS[order], k)) throw notOurs();
  return { key: k, seq: s, cut: c === 1 };
}
