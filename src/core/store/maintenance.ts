/** Checks of the database's health, and the small write that tells whether it takes writes. */
import { CONSISTENCY_SQL } from './fixed-statements.ts';
import type { StoreCore } from './store-core.ts';

/** The settings key probeWrite adds and removes; never left in the table. */
const WRITE_PROBE_KEY = 'store.writeProbe';

/** See LibraryStore.probeWrite. */
export function probeWrite(core: StoreCore): void {
  core.transaction(() => {
    core.sql.setSetting.run({ key: WRITE_PROBE_KEY, value: JSON.stringify(core.nowIso()) });
    core.sql.deleteSetting.run(WRITE_PROBE_KEY);
  });
}

/** Kinds whose kept files and bytes (migration 18) differ from the saved outputs' own. */
const OUTPUT_SIZES_DRIFT_SQL = `WITH real AS (
    SELECT kind, count(*) AS files, sum(size) AS bytes FROM task_outputs
    WHERE state = 'saved' AND size IS NOT NULL GROUP BY kind)
  SELECT kind FROM output_sizes k WHERE (files, bytes) IS NOT
    (SELECT files, bytes FROM real r WHERE r.kind = k.kind) AND (files, bytes) IS NOT (0, 0)
  UNION SELECT kind FROM real r WHERE (files, bytes) IS NOT
    (SELECT files, bytes FROM output_sizes k WHERE k.kind = r.kind)`;

/** Boards whose kept count (migration 19) differs from their tasks not in Recently deleted. */
const BOARD_COUNT_DRIFT_SQL = `SELECT b.id FROM boards AS b WHERE b.tasks <> (SELECT count(*)
    FROM board_tasks AS bt JOIN tasks AS t ON t.id = bt.task_id
    WHERE bt.board_id = b.id AND t.deleted_at IS NULL)`;

/** See LibraryStore.integrityCheck. */
export function integrityCheck(core: StoreCore): string {
  const problems = core.db
    .prepare('PRAGMA integrity_check')
    .all()
    .map((r) => String(r.integrity_check))
    .filter((line) => line !== 'ok');
  const orphans = core.db.prepare(CONSISTENCY_SQL.foreignKeys).all();
  if (orphans.length > 0) problems.push(`foreign keys: ${orphans.length} row(s) point at missing tasks`);
  try {
    core.db.exec(CONSISTENCY_SQL.fts);
  } catch (error) {
    problems.push(`full-text index: ${(error as Error).message}`);
  }
  const drift = core.db.prepare(CONSISTENCY_SQL.totals).all();
  if (drift.length > 0) problems.push(`task totals: ${drift.length} group(s) differ from the tasks`);
  const sizes = core.db.prepare(OUTPUT_SIZES_DRIFT_SQL).all();
  if (sizes.length > 0) problems.push(`output sizes: ${sizes.length} kind(s) differ from the outputs`);
  const boards = core.db.prepare(BOARD_COUNT_DRIFT_SQL).all();
  if (boards.length > 0) problems.push(`board counts: ${boards.length} board(s) differ from their tasks`);
  return problems.length === 0 ? 'ok' : problems.join('\n');
}
