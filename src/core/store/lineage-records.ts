/**
 * Tasks by their links (migration 5): what a task was made from and what was made from it, and
 * the tasks of a batch. Each read is an index walk (the primary key up the chain,
 * `tasks_by_parent` down it, `tasks_by_batch` across a batch, `tasks_by_state` to find the
 * batches not ended), so its cost does not grow with the library.
 */
import { z } from 'zod';
import {
  type BatchSummary,
  FINAL_STATES,
  LINEAGE_CHILDREN,
  LINEAGE_DEPTH,
  RETRIABLE_STATES,
  RUNNING_STATES,
  TASK_STATES,
  type TaskLineage,
  type TaskLineageItem,
  type TaskState,
} from '../../shared/index.ts';
import { batchCostOf } from '../../shared/task/cost-standing.ts';
import { parseStored } from './column-table.ts';
import type { StoreCore } from './store-core.ts';

const ITEM_COLUMNS = `id, title, task_type, state, created_at, parent_id, parent_output, batch_id, deleted_at,
  (SELECT thumb_path FROM task_outputs o WHERE o.task_id = tasks.id AND o.thumb_path IS NOT NULL
   ORDER BY o.idx LIMIT 1) AS thumb_path`;

const NOT_ENDED = TASK_STATES.filter((s) => !FINAL_STATES.includes(s))
  .map((s) => `'${s}'`)
  .join(', ');

export const LINEAGE_SQL = {
  // primary key
  item: `SELECT ${ITEM_COLUMNS} FROM tasks WHERE id = ?`,
  // tasks_by_parent
  children: `SELECT ${ITEM_COLUMNS} FROM tasks INDEXED BY tasks_by_parent
    WHERE parent_id = $id ORDER BY seq LIMIT $limit`,
  // tasks_by_parent: every child's id, however many
  childIds: `SELECT id FROM tasks INDEXED BY tasks_by_parent WHERE parent_id = ? ORDER BY seq`,
  // tasks_by_parent: the re-runs of one task (its retries, when it failed), oldest first
  retryIds: `SELECT id FROM tasks INDEXED BY tasks_by_parent
    WHERE parent_id = ? AND parent_output IS NULL ORDER BY seq`,
  // tasks_by_batch, and tasks_by_parent for each failure's re-runs
  batchTasks: `SELECT id, title, task_type, state, created_at, estimate_micros, remote_id,
    json_extract(usage_json, '$.type') AS usage_type, usage_consume, billed_micros,
    (SELECT count(*) FROM tasks c INDEXED BY tasks_by_parent
      WHERE c.parent_id = tasks.id AND c.parent_output IS NULL) AS retries
    FROM tasks INDEXED BY tasks_by_batch WHERE batch_id = ? ORDER BY seq`,
  // tasks_by_state: the tasks not ended are few, whatever the size of the library
  openBatches: `SELECT DISTINCT batch_id FROM tasks INDEXED BY tasks_by_state
    WHERE state IN (${NOT_ENDED}) AND batch_id IS NOT NULL`,
} as const;

const ItemRow = z
  .object({
    id: z.string(),
    title: z.string(),
    task_type: z.string(),
    state: z.enum(TASK_STATES),
    created_at: z.string(),
    parent_id: z.string().nullable(),
    parent_output: z.number().int().nullable(),
    batch_id: z.string().nullable(),
    thumb_path: z.string().nullable(),
    deleted_at: z.string().nullable(),
  })
  .transform((r) => ({
    parentId: r.parent_id,
    item: {
      id: r.id,
      title: r.title,
      taskType: r.task_type,
      state: r.state,
      createdAt: r.created_at,
      parentOutput: r.parent_output,
      batchId: r.batch_id,
      thumbPath: r.thumb_path,
      deletedAt: r.deleted_at,
    } satisfies TaskLineageItem,
  }));

const BatchRow = z.object({
  id: z.string(),
  title: z.string(),
  task_type: z.string(),
  state: z.enum(TASK_STATES),
  created_at: z.string(),
  estimate_micros: z.number().nullable(),
  remote_id: z.string().nullable(),
  usage_type: z.string().nullable(),
  usage_consume: z.number().nullable(),
  billed_micros: z.number().nullable(),
  retries: z.number().int(),
});
type BatchTaskRow = z.infer<typeof BatchRow>;

/** The summary of one batch's rows (in the order they were queued). */
function summaryOf(batchId: string, rows: readonly BatchTaskRow[]): BatchSummary {
  const count = (states: readonly TaskState[]) => rows.filter((r) => states.includes(r.state)).length;
  const first = rows[0] as BatchTaskRow;
  const unknown = rows.some((r) => r.estimate_micros === null);
  return {
    batchId,
    title: first.title,
    taskType: first.task_type,
    createdAt: first.created_at,
    total: rows.length,
    done: count(['saved']),
    failed: count(['failed', 'expired']),
    active: count(RUNNING_STATES),
    queued: count(['queued']),
    uncertain: count(['uncertain']),
    cancelled: count(['cancelled']),
    retried: rows.filter((r) => RETRIABLE_STATES.includes(r.state) && r.retries > 0).length,
    estimateMicros: unknown ? null : rows.reduce((sum, r) => sum + (r.estimate_micros ?? 0), 0),
    cost: batchCostOf(
      rows.map((r) => ({
        state: r.state,
        remoteId: r.remote_id,
        estimateMicros: r.estimate_micros,
        usage:
          r.usage_consume === null && r.usage_type === null
            ? null
            : { type: r.usage_type, consume: r.usage_consume },
        cost: r.billed_micros === null ? null : { micros: r.billed_micros, flagged: false },
      })),
    ),
    taskIds: rows.map((r) => r.id),
  };
}

export class TaskLineageRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  /** The chain around task `id`; null when there is no such task. */
  lineage(id: string): TaskLineage | null {
    const core = this.#core;
    const item = core.cache.get(LINEAGE_SQL.item);
    const read = (row: unknown) => parseStored(ItemRow, row, String((row as { id?: unknown }).id), 'lineage');
    return core.snapshot(() => {
      const self = item.get(id);
      if (!self) return null;
      const madeFrom: TaskLineageItem[] = [];
      const seen = new Set([id]);
      let next = read(self).parentId;
      while (next !== null && !seen.has(next) && madeFrom.length < LINEAGE_DEPTH) {
        seen.add(next);
        const row = item.get(next);
        if (!row) break;
        const parent = read(row);
        madeFrom.push(parent.item);
        next = parent.parentId;
      }
      const children = core.cache.get(LINEAGE_SQL.children).all({ id, limit: LINEAGE_CHILDREN });
      return { madeFrom, madeInto: children.map((row) => read(row).item) };
    });
  }

  /** The ids of every task made from task `id` (no limit, no row read beyond its id). */
  childIds(id: string): string[] {
    return this.#core.cache
      .get(LINEAGE_SQL.childIds)
      .all(id)
      .map((r) => String(r.id));
  }

  /** The id and state of each task of a batch, in the order they were queued, and how many re-runs each has. */
  batchStates(batchId: string): { id: string; state: TaskState; retries: number }[] {
    return this.#batchRows(batchId).map((r) => ({ id: r.id, state: r.state, retries: r.retries }));
  }

  /** The ids of the re-runs of task `id` (its retries, when it failed), oldest first. */
  retryIds(id: string): string[] {
    return this.#core.cache
      .get(LINEAGE_SQL.retryIds)
      .all(id)
      .map((r) => String(r.id));
  }

  /** One batch's summary (ended or not), or every batch with a task not ended, newest first. */
  batches(batchId?: string): BatchSummary[] {
    const core = this.#core;
    return core.snapshot(() => {
      const ids =
        batchId === undefined
          ? core.cache
              .get(LINEAGE_SQL.openBatches)
              .all()
              .map((r) => String(r.batch_id))
          : [batchId];
      const summaries: BatchSummary[] = [];
      for (const id of ids) {
        const rows = this.#batchRows(id);
        if (rows.length > 0) summaries.push(summaryOf(id, rows));
      }
      return summaries.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    });
  }

  #batchRows(batchId: string): BatchTaskRow[] {
    return this.#core.cache
      .get(LINEAGE_SQL.batchTasks)
      .all(batchId)
      .map((row) => parseStored(BatchRow, row, String(row.id), 'batch'));
  }
}
