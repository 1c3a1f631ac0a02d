/**
 * v7: Recently deleted. A task the user deletes gets `deleted_at` (when, ISO UTC) and stays, with
 * its files, until it is purged (30 days later, or by "Delete forever" / "Empty Recently
 * deleted"); restoring it clears `deleted_at`. Every list, search and count leaves such tasks out
 * unless it asks for Recently deleted itself; the cost summary (and so the budget) still counts
 * them, as the money was spent.
 *
 * `task_totals` gains `trashed` (1 for a task in Recently deleted) in its key, so counts of either
 * side stay O(1). SQLite cannot change a primary key in place: the table and its three triggers
 * are made anew and the totals recomputed from the tasks (none is in Recently deleted yet).
 * `tasks_trashed` walks Recently deleted by deletion time (the purge of the oldest, and Undo of
 * one delete, which moved its tasks with one time).
 * NEVER edit: its SQL is hashed.
 */
import { SPENT_OF_NEW, SPENT_OF_OLD } from './v2-v3-cost-and-orders.ts';

const TRASHED_NEW = '(new.deleted_at IS NOT NULL)';
const TRASHED_OLD = '(old.deleted_at IS NOT NULL)';

export const V7_RECENTLY_DELETED = `
ALTER TABLE tasks ADD COLUMN deleted_at TEXT;
CREATE INDEX tasks_trashed ON tasks (deleted_at, seq) WHERE deleted_at IS NOT NULL;

DROP TRIGGER tasks_totals_after_insert;
DROP TRIGGER tasks_totals_after_delete;
DROP TRIGGER tasks_totals_after_update;
DROP TABLE task_totals;

CREATE TABLE task_totals (
  family TEXT NOT NULL,
  task_type TEXT NOT NULL,
  state TEXT NOT NULL,
  favorite INTEGER NOT NULL,
  trashed INTEGER NOT NULL CHECK (trashed IN (0, 1)),
  tasks INTEGER NOT NULL,
  estimate_micros INTEGER NOT NULL,
  consume REAL NOT NULL,
  spent_micros REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (family, task_type, state, favorite, trashed)
) WITHOUT ROWID;

INSERT INTO task_totals (family, task_type, state, favorite, trashed, tasks, estimate_micros, consume, spent_micros)
SELECT family, task_type, state, favorite, deleted_at IS NOT NULL, count(*),
  sum(coalesce(estimate_micros, 0)), sum(coalesce(usage_consume, 0)),
  sum(CASE
    WHEN remote_id IS NULL AND state IN ('cancelled', 'failed') THEN 0
    WHEN usage_consume IS NOT NULL THEN usage_consume
    ELSE coalesce(estimate_micros, 0) END)
FROM tasks GROUP BY family, task_type, state, favorite, deleted_at IS NOT NULL;

CREATE TRIGGER tasks_totals_after_insert AFTER INSERT ON tasks
BEGIN
  INSERT INTO task_totals (family, task_type, state, favorite, trashed, tasks, estimate_micros, consume, spent_micros)
  VALUES (new.family, new.task_type, new.state, new.favorite, ${TRASHED_NEW}, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0), ${SPENT_OF_NEW})
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
    spent_micros = spent_micros - ${SPENT_OF_OLD}
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite
    AND trashed = ${TRASHED_OLD};
END;

CREATE TRIGGER tasks_totals_after_update
AFTER UPDATE OF state, favorite, estimate_micros, usage_consume, remote_id, deleted_at ON tasks
WHEN old.state IS NOT new.state OR old.favorite IS NOT new.favorite
  OR old.estimate_micros IS NOT new.estimate_micros OR old.usage_consume IS NOT new.usage_consume
  OR old.remote_id IS NOT new.remote_id OR ${TRASHED_OLD} IS NOT ${TRASHED_NEW}
BEGIN
  UPDATE task_totals SET
    tasks = tasks - 1,
    estimate_micros = estimate_micros - coalesce(old.estimate_micros, 0),
    consume = consume - coalesce(old.usage_consume, 0),
    spent_micros = spent_micros - ${SPENT_OF_OLD}
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite
    AND trashed = ${TRASHED_OLD};
  INSERT INTO task_totals (family, task_type, state, favorite, trashed, tasks, estimate_micros, consume, spent_micros)
  VALUES (new.family, new.task_type, new.state, new.favorite, ${TRASHED_NEW}, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0), ${SPENT_OF_NEW})
  ON CONFLICT (family, task_type, state, favorite, trashed) DO UPDATE SET
    tasks = tasks + 1,
    estimate_micros = estimate_micros + excluded.estimate_micros,
    consume = consume + excluded.consume,
    spent_micros = spent_micros + excluded.spent_micros;
END;
`;
