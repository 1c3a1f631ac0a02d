/**
 * `tasks.seq`: the one integer every list is ordered by. It is made from the creation time:
 * `seq = createdAtMs * 1024 + n`, n counting the tasks created in the same millisecond in insertion
 * order. So `seq` order IS "created_at, then insertion order", and:
 * - newest first is `ORDER BY seq DESC` on one index, and a page cursor is one number;
 * - the FTS5 rowid is `seq`, so a search walks the full-text index newest first and stops after a
 *   page, whatever the number of matches;
 * - a createdFrom/createdTo filter is a range of `seq`.
 * A task created earlier than others but inserted later (an import) still sorts by its creation
 * time. If more than 1,024 tasks share one millisecond, the rest take the free numbers of the next
 * milliseconds (ordered as if created up to a few ms later); nothing else changes.
 * Numbers stay exact JavaScript integers for creation times up to the year 2248.
 */
import { LibraryStoreError } from './store-errors.ts';

export const SEQ_PER_MS = 1024;
const MAX_MS = Math.floor(Number.MAX_SAFE_INTEGER / SEQ_PER_MS) - 1;

/** The first seq of the millisecond of `iso` (a stored, normalised ISO time). */
export function seqFloor(iso: string, field: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || Math.abs(ms) > MAX_MS) {
    throw new LibraryStoreError(
      `${field} is outside the times the library can order: ${JSON.stringify(iso)}`,
    );
  }
  return ms * SEQ_PER_MS;
}

/**
 * The seq for a task created at `iso`. `highestIn(lo, hi)` returns the highest seq already used in
 * [lo, hi), or null.
 */
export function nextSeq(iso: string, highestIn: (lo: number, hi: number) => number | null): number {
  for (let lo = seqFloor(iso, 'createdAt'); ; lo += SEQ_PER_MS) {
    const hi = lo + SEQ_PER_MS;
    const highest = highestIn(lo, hi);
    if (highest === null) return lo;
    if (highest + 1 < hi) return highest + 1;
  }
}
