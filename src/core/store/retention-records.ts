/**
 * Retention (issue 22, item 4), the store's side: the tasks a user's rules would move to Recently
 * deleted, a window at a time in creation order (only ended tasks: saved, failed, cancelled,
 * expired; never one already in Recently deleted, nor one restored from it since the rules' time:
 * a restored task's days count from its last restore, as `task_events` has it), each with the
 * bytes of its saved results; a
 * window is a number of tasks looked at, whatever the rules keep of them, so its cost is bounded
 * however many tasks in a row the rules keep (issue 22, item 6: a million tasks); and
 * the library's size on disk by kind (migration 18's `output_sizes`, kept by triggers, plus what
 * Recently deleted holds). The engine decides what a task makes and moves the tasks.
 */
import { FINAL_STATES } from '../../shared/index.ts';
import { seqFloor } from './sort-key.ts';
import { positiveLimit, type StoreCore } from './store-core.ts';
import { RESTORED_DETAIL } from './trash-records.ts';

/**
 * Which tasks a page looks at: made before `before` (ISO) and not restored since, less those the
 * keep rules keep.
 */
export interface RetentionQuery {
  before: string;
  keepFavorites: boolean;
  keepBoards: boolean;
  keepUsedAsInputs: boolean;
}

/** One task the rules would move. */
export interface RetentionCandidate {
  id: string;
  seq: number;
  entryId: string | null;
  model: string;
  taskType: string;
  family: string;
  /** Bytes of its saved results. */
  bytes: number;
}

const ENDED = FINAL_STATES.map((s) => `'${s}'`).join(', ');

const CANDIDATES_SQL = `SELECT t.id, t.seq, t.entry_id, t.model, t.task_type, t.family,
    (SELECT coalesce(sum(o.size), 0) FROM task_outputs o WHERE o.task_id = t.id AND o.state = 'saved') AS bytes
  FROM tasks t
  WHERE t.seq > $after AND t.seq <= $last AND t.deleted_at IS NULL AND t.state IN (${ENDED})
    AND ($keep_favorites = 0 OR t.favorite = 0)
    AND ($keep_boards = 0 OR NOT EXISTS (SELECT 1 FROM board_tasks b WHERE b.task_id = t.id))
    AND ($keep_used = 0 OR NOT EXISTS (
      SELECT 1 FROM tasks c WHERE c.parent_id = t.id AND c.parent_output IS NOT NULL))
    AND NOT EXISTS (SELECT 1 FROM task_events e WHERE e.task_id = t.id
      AND e.detail = '${RESTORED_DETAIL}' AND e.at >= $before_at)`;

/** The last seq of a window: the `window` tasks made after `after` and before `before`. */
const WINDOW_END_SQL = `SELECT max(seq) AS last FROM (
  SELECT seq FROM tasks WHERE seq > $after AND seq < $before ORDER BY seq LIMIT $window)`;

/** The SQL, for the query plans' test: a window walks the seq index, never the table. */
export const RETENTION_SQL = { windowEnd: WINDOW_END_SQL, candidates: CANDIDATES_SQL } as const;

/** One window's tasks the rules select, and the window's last seq (null: no task left to look at). */
export interface RetentionWindow {
  items: RetentionCandidate[];
  lastSeq: number | null;
}

const SIZES_SQL = 'SELECT kind, files, bytes FROM output_sizes';

// partial index tasks_trashed: the cost of Recently deleted's own size
const TRASHED_BYTES_SQL = `SELECT coalesce(sum(o.size), 0) AS bytes FROM tasks t INDEXED BY tasks_trashed
  JOIN task_outputs o ON o.task_id = t.id
  WHERE t.deleted_at IS NOT NULL AND o.state = 'saved' AND o.size IS NOT NULL`;

export class RetentionRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  /**
   * The tasks the query selects among the next `window` tasks made after seq `afterSeq` (null:
   * from the oldest) and before the query's time, in no particular order.
   */
  candidates(query: RetentionQuery, afterSeq: number | null, window: number): RetentionWindow {
    const after = afterSeq ?? -1;
    const before = seqFloor(query.before, 'before');
    const end = this.#core.cache
      .get(WINDOW_END_SQL)
      .get({ after, before, window: positiveLimit(window, 'window') });
    if (end?.last === null || end?.last === undefined) return { items: [], lastSeq: null };
    const rows = this.#core.cache.get(CANDIDATES_SQL).all({
      after,
      last: Number(end.last),
      keep_favorites: query.keepFavorites ? 1 : 0,
      keep_boards: query.keepBoards ? 1 : 0,
      keep_used: query.keepUsedAsInputs ? 1 : 0,
      before_at: query.before,
    });
    const items = rows.map((r) => ({
      id: String(r.id),
      seq: Number(r.seq),
      entryId: r.entry_id === null ? null : String(r.entry_id),
      model: String(r.model),
      taskType: String(r.task_type),
      family: String(r.family),
      bytes: Number(r.bytes),
    }));
    return { items, lastSeq: Number(end.last) };
  }

  /** Saved results' files and bytes by output kind, and the bytes of those in Recently deleted. */
  sizes(): { byKind: { kind: string; files: number; bytes: number }[]; trashedBytes: number } {
    const byKind = this.#core.cache
      .get(SIZES_SQL)
      .all()
      .map((r) => ({ kind: String(r.kind), files: Number(r.files), bytes: Number(r.bytes) }));
    const trashed = this.#core.cache.get(TRASHED_BYTES_SQL).get();
    return { byKind, trashedBytes: Number(trashed?.bytes ?? 0) };
  }
}
