/** A task's outputs: replacing them as the service reports them, and what a download changes on one. */
import type { TaskOutput } from '../../shared/index.ts';
import { OUTPUT_TABLE } from './input-output-columns.ts';
import { newOutputRows } from './new-task-row.ts';
import type { StoreCore } from './store-core.ts';
import type { NewOutput, OutputPatch } from './store-types.ts';
import { outputFromRow } from './task-row.ts';

export class OutputRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  replace(taskId: string, outputs: readonly NewOutput[]): TaskOutput[] | null {
    const core = this.#core;
    const rows = newOutputRows(taskId, outputs);
    return core.transaction(() => {
      if (!core.sql.taskExists.get(taskId)) return null;
      core.sql.deleteOutputs.run(taskId);
      for (const row of rows) core.sql.insertOutput.run(row);
      return core.sql.outputsOf.all(taskId).map((r) => outputFromRow(r, taskId));
    });
  }

  /**
   * The outputs whose file has this SHA-256 (lower-case hex), the newest task first and those in
   * Recently deleted last; at most `limit`.
   */
  withChecksum(sha256: string, limit: number): { taskId: string; index: number }[] {
    const sql = `SELECT o.task_id, o.idx FROM task_outputs o JOIN tasks t ON t.id = o.task_id
      WHERE o.sha256 = ? ORDER BY t.deleted_at IS NOT NULL, t.seq DESC LIMIT ?`;
    return this.#core.cache
      .get(sql)
      .all(sha256, limit)
      .map((r) => ({ taskId: String(r.task_id), index: Number(r.idx) }));
  }

  update(taskId: string, index: number, patch: OutputPatch): TaskOutput | null {
    const core = this.#core;
    const clause = OUTPUT_TABLE.patchClause(patch, 'output patch');
    return core.transaction(() => {
      if (clause.assignments.length > 0) {
        const sql = `UPDATE task_outputs SET ${clause.assignments.join(', ')} WHERE task_id = $task_id AND idx = $idx`;
        core.cache.get(sql).run({ ...clause.params, task_id: taskId, idx: index });
      }
      const row = core.sql.outputOf.get(taskId, index);
      return row ? outputFromRow(row, taskId) : null;
    });
  }
}
