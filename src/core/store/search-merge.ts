/** One small step of merging the search index's segments, taken while writes pause. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** Leaf pages one step of the search index's merging writes at most (a few ms at a million tasks). */
export const SEARCH_MERGE_PAGES = 32;

/** SQLite's SQLITE_BUSY, the low byte of an extended result code. */
const SQLITE_BUSY = 5;

/** What one merge step uses of the store's core (named by shape: store-core.ts calls the step). */
interface SearchMergeTarget {
  readonly db: Pick<DatabaseSync, 'exec'>;
  readonly sql: {
    readonly totalChanges: Pick<StatementSync, 'get'>;
    readonly mergeSearch: Pick<StatementSync, 'run'>;
  };
}

/**
 * See LibraryStore.mergeSearchIndex: FTS5's 'merge' of about `pages` leaf pages (migration 23 left
 * merging to these steps). Never waits for another connection's write: a locked library answers
 * false at once and the next pause tries again.
 */
export function mergeSearchStep(core: SearchMergeTarget, pages: number, busyTimeoutMs: number): boolean {
  core.db.exec('PRAGMA busy_timeout = 0');
  try {
    const before = Number(core.sql.totalChanges.get()?.n);
    core.sql.mergeSearch.run(pages);
    // FTS5's own measure: a step that merged something changed at least two rows
    return Number(core.sql.totalChanges.get()?.n) - before >= 2;
  } catch (error) {
    if (((error as { errcode?: number }).errcode ?? 0) % 256 === SQLITE_BUSY) return false;
    throw error;
  } finally {
    core.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
  }
}
