/**
 * Recently deleted (migration 7): moving tasks there and back, the pages of a selection a bulk
 * action walks, and the tasks due to be purged. A task there keeps everything (its row, inputs,
 * outputs and files); only `deleted_at` says where it is. Each call is one transaction, and each
 * task moved gets an event (its state both sides, and what happened).
 */
import type { TaskFilter, TaskState } from '../../shared/index.ts';
import { buildSelectionPageQuery } from './list-query.ts';
import { positiveLimit, type StoreCore } from './store-core.ts';

/** One task of a selection page: enough to decide what an action does to it. */
export interface SelectedTask {
  id: string;
  seq: number;
  state: TaskState;
  deletedAt: string | null;
}

/** The detail of a restore's event: retention counts a restored task's days from its last one. */
export const RESTORED_DETAIL = 'restored from Recently deleted';

export const TRASH_SQL = {
  trash: `UPDATE tasks SET deleted_at = $deleted_at, updated_at = $now
    WHERE id = $id AND deleted_at IS NULL`,
  restore: 'UPDATE tasks SET deleted_at = NULL, updated_at = $now WHERE id = $id AND deleted_at IS NOT NULL',
  stateOf: 'SELECT state FROM tasks WHERE id = ?',
  selected: 'SELECT id, seq, state, deleted_at FROM tasks WHERE id = ?',
  // partial index tasks_trashed
  trashedAt: `SELECT id FROM tasks INDEXED BY tasks_trashed
    WHERE deleted_at IS NOT NULL AND deleted_at = ? ORDER BY seq`,
  trashedBefore: `SELECT id FROM tasks INDEXED BY tasks_trashed
    WHERE deleted_at IS NOT NULL AND deleted_at < $before ORDER BY deleted_at, seq LIMIT $limit`,
} as const;

function selectedOf(row: Record<string, unknown>): SelectedTask {
  return {
    id: String(row.id),
    seq: Number(row.seq),
    state: String(row.state) as TaskState,
    deletedAt: row.deleted_at === null ? null : String(row.deleted_at),
  };
}

export class TrashRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  /** Moves these tasks to Recently deleted at `deletedAt`; returns the ids moved (not those already there). */
  trash(ids: readonly string[], deletedAt: string): string[] {
    return this.#move(ids, TRASH_SQL.trash, { deleted_at: deletedAt }, 'moved to Recently deleted');
  }

  /** Takes these tasks out of Recently deleted; returns the ids restored. */
  restore(ids: readonly string[]): string[] {
    return this.#move(ids, TRASH_SQL.restore, {}, RESTORED_DETAIL);
  }

  #move(ids: readonly string[], sql: string, params: Record<string, string>, detail: string): string[] {
    const core = this.#core;
    const now = core.nowIso();
    return core.transaction(() => {
      const moved: string[] = [];
      for (const id of new Set(ids)) {
        const changed = core.cache.get(sql).run({ ...params, id, now });
        if (Number(changed.changes) === 0) continue;
        const state = String(core.cache.get(TRASH_SQL.stateOf).get(id)?.state);
        core.sql.insertEvent.run({ task_id: id, at: now, from_state: state, to_state: state, detail });
        moved.push(id);
      }
      return moved;
    });
  }

  /** One page of the tasks a filter selects (see buildSelectionPageQuery). */
  selectionPage(
    filter: TaskFilter,
    except: readonly string[],
    afterSeq: number | null,
    limit: number,
  ): SelectedTask[] {
    const built = buildSelectionPageQuery(filter, except, afterSeq, positiveLimit(limit, 'limit'));
    if (built === null) return [];
    return this.#core.cache.get(built.sql).all(built.params).map(selectedOf);
  }

  /** Each of these ids that is a task, with its state and deletedAt (absent ids left out). */
  selected(ids: readonly string[]): SelectedTask[] {
    const found: SelectedTask[] = [];
    for (const id of ids) {
      const row = this.#core.cache.get(TRASH_SQL.selected).get(id);
      if (row) found.push(selectedOf(row));
    }
    return found;
  }

  /** The ids of the tasks moved to Recently deleted at exactly `deletedAt` (one delete call). */
  trashedAt(deletedAt: string): string[] {
    return this.#core.cache
      .get(TRASH_SQL.trashedAt)
      .all(deletedAt)
      .map((r) => String(r.id));
  }

  /** Up to `limit` ids of the tasks moved to Recently deleted before `before` (ISO), oldest first. */
  trashedBefore(before: string, limit: number): string[] {
    return this.#core.cache
      .get(TRASH_SQL.trashedBefore)
      .all({ before, limit: positiveLimit(limit, 'limit') })
      .map((r) => String(r.id));
  }
}
