/**
 * Many tasks at once: the library's pages (filters, search, orders, cursors), counts, the engine's
 * queues (oldest in some states, queued, due for a poll) and the aggregates (cost, durations).
 * The SQL comes from list-query.ts and fixed-statements.ts.
 */
import {
  type CostSummary,
  type ListOrder,
  type ListQuery,
  type StateCounts,
  TASK_STATES,
  type Task,
  type TaskFilter,
  type TaskListItem,
  type TaskPage,
  type TaskState,
  type UnreadableTask,
} from '../../shared/index.ts';
import {
  buildCountQuery,
  buildFilterShareQuery,
  buildTotalsCountQuery,
  countableFromTotals,
  walkOrderIndex,
} from './count-query.ts';
import type { PrefixTerms } from './fts-query.ts';
import { decodeCursor, encodeCursor, ORDERS, positionOf } from './list-cursor.ts';
import { buildListQuery, buildOldestInStatesQuery, filterStates, pageSize } from './list-query.ts';
import { prefixTermsOf } from './search-terms.ts';
import { assertStates, positiveLimit, type StoreCore } from './store-core.ts';
import { CorruptTaskRowError } from './store-errors.ts';
import type { DurationRow } from './store-types.ts';
import { parseRequestJson } from './task-columns.ts';
import { outputFromRow, rowTaskId, type SqlRow, summaryFromRow } from './task-row.ts';

const CONSUME_DECIMALS = 1e9;

const BOARD_SIZE_SQL = {
  // task_totals (a few rows per task type)
  library: 'SELECT coalesce(sum(tasks), 0) AS total FROM task_totals WHERE trashed = 0',
  // the primary key of board_tasks, stopping at the limit
  upTo: 'SELECT count(*) AS n FROM (SELECT 1 FROM board_tasks WHERE board_id = ? LIMIT ?)',
} as const;

export class TaskLists {
  readonly #core: StoreCore;
  /** A search's last word named by its terms (a page and a count stop early; see toFtsQuery). */
  readonly #termsOf: PrefixTerms;

  constructor(core: StoreCore) {
    this.#core = core;
    this.#termsOf = prefixTermsOf(core.cache);
  }

  list(query: ListQuery): TaskPage {
    const order = query.order ?? 'newest';
    const size = pageSize(query.limit);
    const at = query.cursor ? decodeCursor(query.cursor, order) : null;
    const built = buildListQuery(
      query,
      at,
      size,
      this.#walkOrder(query, order, size),
      query.board !== undefined && this.#bigBoard(query.board, size),
      this.#termsOf,
    );
    if (built === null) return { items: [], nextCursor: null, unreadable: [] };
    return this.#core.snapshot(() => {
      const rows = this.#core.cache.get(built.sql).all(built.params);
      const page = rows.slice(0, size);
      const last = page[page.length - 1];
      const nextCursor = rows.length > size && last ? encodeCursor(order, positionOf(last, order)) : null;
      return { ...this.#summaries(page), nextCursor };
    });
  }

  /** Whether a page in a keyed order walks the order's index (see walkOrderIndex). */
  #walkOrder(filter: TaskFilter, order: ListOrder, size: number): boolean {
    if (ORDERS[order].key === null) return false;
    const built = buildFilterShareQuery(filter);
    if (built === null) return false;
    const row = this.#core.cache.get(built.sql).get(built.params);
    return walkOrderIndex(Number(row?.matching ?? 0), Number(row?.total ?? 0), size);
  }

  /**
   * Whether the board holds more tasks than sorting them all costs against walking the library's
   * list and checking each task's place on the board (walkOrderIndex, with the library's total
   * from task_totals); its tasks are counted by its key only up to that point.
   */
  #bigBoard(board: number, size: number): boolean {
    const total = Number(this.#core.cache.get(BOARD_SIZE_SQL.library).get()?.total ?? 0);
    const enough = Math.ceil(Math.sqrt((size + 1) * total)) + 1;
    const held = Number(this.#core.cache.get(BOARD_SIZE_SQL.upTo).get(board, enough)?.n ?? 0);
    return walkOrderIndex(held, total, size);
  }

  #summaries(rows: readonly SqlRow[]): { items: TaskListItem[]; unreadable: UnreadableTask[] } {
    const items: TaskListItem[] = [];
    const unreadable: UnreadableTask[] = [];
    for (const row of rows) {
      const id = rowTaskId(row);
      try {
        items.push(
          summaryFromRow(
            row,
            this.#core.sql.outputsOf.all(id).map((o) => outputFromRow(o, id)),
          ),
        );
      } catch (error) {
        if (!(error instanceof CorruptTaskRowError)) throw error;
        unreadable.push({ id, message: error.message });
        this.#core.onUnreadable(error);
      }
    }
    return { items, unreadable };
  }

  count(filter: TaskFilter): StateCounts {
    const states = filterStates(filter);
    const exact = countableFromTotals(filter);
    // a count from the rows stops one past the cap: more than the cap says "1,000+"
    const cap = this.#core.countCap;
    const built = exact ? buildTotalsCountQuery(filter) : buildCountQuery(filter, cap + 1, this.#termsOf);
    const byState: Record<string, number> = {};
    for (const s of states ?? TASK_STATES) byState[s] = 0;
    if (built === null) return { total: 0, byState };
    const wanted = states === null ? null : new Set<string>(states);
    let total = 0;
    for (const row of this.#core.cache.get(built.sql).all(built.params)) {
      const state = String(row.state);
      if (wanted !== null && !wanted.has(state)) continue;
      const n = Number(row.n);
      byState[state] = (byState[state] ?? 0) + n;
      total += n;
    }
    if (!exact && total > cap) return { total: cap, byState, capped: true };
    return { total, byState };
  }

  inStates(states: readonly TaskState[], limit?: number): Task[] {
    assertStates(states);
    const max = limit === undefined ? -1 : positiveLimit(limit, 'limit');
    const built = buildOldestInStatesQuery(states, max);
    if (built === null) return [];
    const core = this.#core;
    return core.snapshot(() => core.tasksOf(core.cache.get(built.sql).all(built.params)));
  }

  countInStates(states: readonly TaskState[]): number {
    assertStates(states);
    return Number(this.#core.sql.countInStates.get({ states: JSON.stringify(states) })?.n ?? 0);
  }

  nextQueued(limit: number): Task[] {
    const max = positiveLimit(limit, 'limit');
    const core = this.#core;
    return core.snapshot(() => core.tasksOf(core.sql.nextQueued.all({ limit: max })));
  }

  dueForPoll(nowMs: number, limit: number): Task[] {
    const max = positiveLimit(limit, 'limit');
    const core = this.#core;
    return core.snapshot(() => core.tasksOf(core.sql.dueForPoll.all({ now: Math.floor(nowMs), limit: max })));
  }

  nextPollDue(): number | null {
    const found = this.#core.sql.nextPollDue.get()?.next_poll_at;
    return typeof found === 'number' ? found : null;
  }

  costSummary(): CostSummary {
    const row = this.#core.sql.costSummary.get();
    return {
      estimateMicros: Number(row?.estimate_micros ?? 0),
      // The running sum adds and subtracts floats; round away the last-bit noise.
      consume: Math.round(Number(row?.consume ?? 0) * CONSUME_DECIMALS) / CONSUME_DECIMALS,
      spentMicros: Math.round(Number(row?.spent_micros ?? 0)),
      tasks: Number(row?.tasks ?? 0),
    };
  }

  durationHistory(model: string, taskType: string, limit: number): DurationRow[] {
    const max = positiveLimit(limit, 'limit');
    const rows = this.#core.sql.durationHistory.all({ model, task_type: taskType, limit: max });
    const samples: DurationRow[] = [];
    for (const row of rows) {
      const sample = this.#durationRow(row);
      if (sample) samples.push(sample);
    }
    return samples;
  }

  #durationRow(row: SqlRow): DurationRow | null {
    const endedAt = String(row.ended_at);
    const durationMs = Date.parse(endedAt) - Date.parse(String(row.began_at));
    if (!Number.isFinite(durationMs) || durationMs < 0) return null;
    try {
      return { durationMs, endedAt, request: parseRequestJson(String(row.request_json), rowTaskId(row)) };
    } catch (error) {
      if (!(error instanceof CorruptTaskRowError)) throw error;
      this.#core.onUnreadable(error);
      return null;
    }
  }
}
