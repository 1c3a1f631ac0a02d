/** v2 and v3: what a task cost, and the orders by title, cost and length. NEVER edit: their SQL is hashed. */

/**
 * v2: what each task has cost, kept per group like the other totals: the service's reported
 * `usage.consume` (points of one micro-dollar) once known, the estimate before, and nothing for
 * a task the service never created (cancelled or refused before it had a remote id).
 */
export const SPENT_OF_NEW = `CASE
    WHEN new.remote_id IS NULL AND new.state IN ('cancelled', 'failed') THEN 0
    WHEN new.usage_consume IS NOT NULL THEN new.usage_consume
    ELSE coalesce(new.estimate_micros, 0) END`;
export const SPENT_OF_OLD = SPENT_OF_NEW.replaceAll('new.', 'old.');

export const V2_SPENT = `
ALTER TABLE task_totals ADD COLUMN spent_micros REAL NOT NULL DEFAULT 0;

DROP TRIGGER tasks_totals_after_insert;
DROP TRIGGER tasks_totals_after_delete;
DROP TRIGGER tasks_totals_after_update;

CREATE TRIGGER tasks_totals_after_insert AFTER INSERT ON tasks
BEGIN
  INSERT INTO task_totals (family, task_type, state, favorite, tasks, estimate_micros, consume, spent_micros)
  VALUES (new.family, new.task_type, new.state, new.favorite, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0), ${SPENT_OF_NEW})
  ON CONFLICT (family, task_type, state, favorite) DO UPDATE SET
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
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite;
END;

CREATE TRIGGER tasks_totals_after_update
AFTER UPDATE OF state, favorite, estimate_micros, usage_consume, remote_id ON tasks
WHEN old.state IS NOT new.state OR old.favorite IS NOT new.favorite
  OR old.estimate_micros IS NOT new.estimate_micros OR old.usage_consume IS NOT new.usage_consume
  OR old.remote_id IS NOT new.remote_id
BEGIN
  UPDATE task_totals SET
    tasks = tasks - 1,
    estimate_micros = estimate_micros - coalesce(old.estimate_micros, 0),
    consume = consume - coalesce(old.usage_consume, 0),
    spent_micros = spent_micros - ${SPENT_OF_OLD}
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite;
  INSERT INTO task_totals (family, task_type, state, favorite, tasks, estimate_micros, consume, spent_micros)
  VALUES (new.family, new.task_type, new.state, new.favorite, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0), ${SPENT_OF_NEW})
  ON CONFLICT (family, task_type, state, favorite) DO UPDATE SET
    tasks = tasks + 1,
    estimate_micros = estimate_micros + excluded.estimate_micros,
    consume = consume + excluded.consume,
    spent_micros = spent_micros + excluded.spent_micros;
END;

UPDATE task_totals SET spent_micros = coalesce((
  SELECT sum(CASE
    WHEN t.remote_id IS NULL AND t.state IN ('cancelled', 'failed') THEN 0
    WHEN t.usage_consume IS NOT NULL THEN t.usage_consume
    ELSE coalesce(t.estimate_micros, 0) END)
  FROM tasks t
  WHERE t.family = task_totals.family AND t.task_type = task_totals.task_type
    AND t.state = task_totals.state AND t.favorite = task_totals.favorite), 0);
`;

/**
 * v3: what the library can be ordered by besides creation time. Each order walks its own index
 * ending in seq, on a column (a row-value keyset on an expression would not be a range of the
 * index), so a page is an index walk from a one-row cursor, as for newest first:
 * - title, A to Z: `title_key`, the title compared without case (ASCII letters fold; other letters
 *   sort by code point);
 * - cost, highest first: `cost_micros`, computed like v2's spent (reported usage, else the estimate;
 *   nothing for a task the service never created);
 * - length, longest first: `length_key`, the task's `length_seconds` or -1 without one (so those
 *   come last). `length_seconds` is the longest duration among the task's outputs (songs get
 *   theirs from the downloaded file), kept by triggers on task_outputs.
 * The keys are virtual columns: computed when read or indexed, never stored twice. Each index also
 * holds family, task_type, favorite and state, so a walk that checks the list's filters on every
 * row reads only the index (no table row for the rows that fail): a page filtered to the last
 * titles of 100,000 tasks costs ~7 ms instead of ~50.
 */
const LONGEST_OUTPUT_OF = (taskId: string) =>
  `(SELECT max(duration_seconds) FROM task_outputs WHERE task_id = ${taskId})`;

export const V3_ORDERS = `
ALTER TABLE tasks ADD COLUMN title_key TEXT COLLATE NOCASE GENERATED ALWAYS AS (title) VIRTUAL;
ALTER TABLE tasks ADD COLUMN cost_micros REAL GENERATED ALWAYS AS (CASE
    WHEN remote_id IS NULL AND state IN ('cancelled', 'failed') THEN 0
    WHEN usage_consume IS NOT NULL THEN usage_consume
    ELSE coalesce(estimate_micros, 0) END) VIRTUAL;
ALTER TABLE tasks ADD COLUMN length_seconds REAL;
ALTER TABLE tasks ADD COLUMN length_key REAL GENERATED ALWAYS AS (coalesce(length_seconds, -1)) VIRTUAL;

UPDATE tasks SET length_seconds = ${LONGEST_OUTPUT_OF('tasks.id')}
WHERE id IN (SELECT task_id FROM task_outputs WHERE duration_seconds IS NOT NULL);

CREATE INDEX tasks_by_title ON tasks (title_key, seq, family, task_type, favorite, state);
CREATE INDEX tasks_by_cost ON tasks (cost_micros, seq, family, task_type, favorite, state);
CREATE INDEX tasks_by_length ON tasks (length_key, seq, family, task_type, favorite, state);

CREATE TRIGGER task_outputs_length_after_insert AFTER INSERT ON task_outputs
WHEN new.duration_seconds IS NOT NULL
BEGIN
  UPDATE tasks SET length_seconds = ${LONGEST_OUTPUT_OF('new.task_id')} WHERE id = new.task_id;
END;

CREATE TRIGGER task_outputs_length_after_update AFTER UPDATE OF duration_seconds ON task_outputs
WHEN old.duration_seconds IS NOT new.duration_seconds
BEGIN
  UPDATE tasks SET length_seconds = ${LONGEST_OUTPUT_OF('new.task_id')} WHERE id = new.task_id;
END;

CREATE TRIGGER task_outputs_length_after_delete AFTER DELETE ON task_outputs
WHEN old.duration_seconds IS NOT NULL
BEGIN
  UPDATE tasks SET length_seconds = ${LONGEST_OUTPUT_OF('old.task_id')} WHERE id = old.task_id;
END;
`;
