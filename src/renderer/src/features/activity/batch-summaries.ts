/**
 * The store's summaries of batches (tasks.batches) as Activity's groups last read them, kept
 * outside the groups: Activity is a virtualized list, so a group is mounted again when scrolled
 * back into view or when Activity is opened again, and it starts from the summary read before
 * instead of the loaded tasks' counts. The most recent SUMMARIES_KEPT batches are kept.
 *
 * Reads are numbered: the answer to the newest read of a batch wins, and an answer arriving after
 * a newer one is ignored; an answer to a read that a newer read followed is still taken while the
 * newer one has not answered (so a steady stream of reads still moves the counts).
 */
import type { BatchSummary } from '../../../../shared/index.ts';

/** How many batches' summaries are kept. */
export const SUMMARIES_KEPT = 50;

interface Held {
  /** Null when the last taken answer was a failure. */
  summary: BatchSummary | null;
  /** The number of the read whose answer this is. */
  read: number;
}

/** By batch id, least recently answered first. */
const held = new Map<string, Held>();
const listeners = new Set<() => void>();
/** The number of the last read started, over all batches (so numbers never repeat). */
let reads = 0;

/** Starts a read: its number, to give with the answer. */
export function startSummaryRead(): number {
  reads += 1;
  return reads;
}

/**
 * The answer to read number `read` of batch `batchId` (null when the read failed). Taken unless an
 * answer to a newer read of that batch was taken before; says whether it was.
 */
export function takeSummaryAnswer(batchId: string, read: number, summary: BatchSummary | null): boolean {
  const before = held.get(batchId);
  if (before && before.read >= read) return false;
  held.delete(batchId);
  held.set(batchId, { summary, read });
  if (held.size > SUMMARIES_KEPT) {
    const oldest = held.keys().next().value;
    if (oldest !== undefined) held.delete(oldest);
  }
  for (const listener of listeners) listener();
  return true;
}

/** The last summary taken for the batch; null when none is kept or the last read failed. */
export function heldSummary(batchId: string): BatchSummary | null {
  return held.get(batchId)?.summary ?? null;
}

/** Calls `listener` whenever a newer summary is taken (for useSyncExternalStore). */
export function subscribeToSummaries(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
