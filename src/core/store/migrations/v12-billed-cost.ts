/**
 * v12: what a task cost as billed (issue 20, item 4). `billed_micros` is the micro-dollars the
 * budget and the spending summary count (billed-cost.ts: the reported `usage.consume` at the
 * point's value, or the published price too when the two disagree), `cost_json` the whole
 * TaskCost (reported, published, the point's value and where it came from, the flag). Both NULL
 * until the service reports a task ended with a charge.
 *
 * The spent sum now counts, in this order: the billed cost; nothing for a task the service never
 * created (cancelled or failed without a remote id) and for a failed task it did not bill
 * (`consume` 0 or none); the estimate otherwise (a task still running reports `consume: 0`, and
 * a task of an older version's library holds `consume` in a unit in doubt), the reported figure
 * as it was only when no price is published. The triggers are made anew (they also follow
 * billed_micros) and spent_micros recomputed from the tasks.
 * NEVER edit: its SQL is hashed.
 */
const TRASHED_NEW = '(new.deleted_at IS NOT NULL)';
const TRASHED_OLD = '(old.deleted_at IS NOT NULL)';

function spentOf(row: string): string {
  return `CASE
    WHEN ${row}billed_micros IS NOT NULL THEN ${row}billed_micros
    WHEN ${row}remote_id IS NULL AND ${row}state IN ('cancelled', 'failed') THEN 0
    WHEN ${row}state = 'failed' AND coalesce(${row}usage_consume, 0) = 0 THEN 0
    ELSE coalesce(${row}estimate_micros, ${row}usage_consume, 0) END`;
}

export const V12_BILLED_COST = `
ALTER TABLE tasks ADD COLUMN billed_micros REAL;
ALTER TABLE tasks ADD COLUMN cost_json TEXT;

DROP TRIGGER tasks_totals_after_insert;
DROP TRIGGER tasks_totals_after_delete;
DROP TRIGGER tasks_totals_after_update;

UPDATE task_totals SET spent_micros = 0;
INSERT INTO task_totals (family, task_type, state, favorite, trashed, tasks, estimate_micros, consume, spent_micros)
SELECT family, task_type, state, favorite, deleted_at IS NOT NULL, 0, 0, 0, sum(${spentOf('')})
FROM tasks GROUP BY family, task_type, state, favorite, deleted_at IS NOT NULL
ON CONFLICT (family, task_type, state, favorite, trashed) DO UPDATE SET spent_micros = excluded.spent_micros;

CREATE TRIGGER tasks_totals_after_insert AFTER INSERT ON tasks
BEGIN
  INSERT INTO task_totals (family, task_type, state, favorite, trashed, tasks, estimate_micros, consume, spent_micros)
  VALUES (new.family, new.task_type, new.state, new.favorite, ${TRASHED_NEW}, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0), ${spentOf('new.')})
  ON CONFLICT (family, task_type, state, favorite, trashed) DO UPDATE SET
    tasks = tasks + 1,
    estimate_micros = estimate_micros + excluded.estimate_micros,
    consume = consume + excluded.consume,
    spent_micros = spent_micros + excluded.spent_micros;
END;

CREATE TRIGGER tasks_totals_after_delete AFTER DELETE ON tasks
BEGIN
  UPDATE task_totals SET
    tasks = tasks - 1,
    estimate_micros = estimate_micros - coalesce(old.estimate_micros, 0),
    consume = consume - coalesce(old.usage_consume, 0),
    spent_micros = spent_micros - ${spentOf('old.')}
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite
    AND trashed = ${TRASHED_OLD};
END;

CREATE TRIGGER tasks_totals_after_update
AFTER UPDATE OF state, favorite, estimate_micros, usage_consume, remote_id, deleted_at, billed_micros ON tasks
WHEN old.state IS NOT new.state OR old.favorite IS NOT new.favorite
  OR old.estimate_micros IS NOT new.estimate_micros OR old.usage_consume IS NOT new.usage_consume
  OR old.remote_id IS NOT new.remote_id OR ${TRASHED_OLD} IS NOT ${TRASHED_NEW}
  OR old.billed_micros IS NOT new.billed_micros
BEGIN
  UPDATE task_totals SET
    tasks = tasks - 1,
    estimate_micros = estimate_micros - coalesce(old.estimate_micros, 0),
    consume = consume - coalesce(old.usage_consume, 0),
    spent_micros = spent_micros - ${spentOf('old.')}
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite
    AND trashed = ${TRASHED_OLD};
  INSERT INTO task_totals (family, task_type, state, favorite, trashed, tasks, estimate_micros, consume, spent_micros)
  VALUES (new.family, new.task_type, new.state, new.favorite, ${TRASHED_NEW}, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0), ${spentOf('new.')})
  ON CONFLICT (family, task_type, state, favorite, trashed) DO UPDATE SET
    tasks = tasks + 1,
    estimate_micros = estimate_micros + excluded.estimate_micros,
    consume = consume + excluded.consume,
    spent_micros = spent_micros + excluded.spent_micros;
END;
`;
