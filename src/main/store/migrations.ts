/**
 * The schema of a library database as numbered migrations. An applied migration is recorded in
 * `schema_migrations` with the sha256 of its SQL, so NEVER edit one that has shipped: add a new
 * one. The runner refuses a database whose recorded hash differs from the SQL here.
 *
 * Design notes (v1):
 * - `tasks.id` is the local UUID (TEXT PRIMARY KEY). `seq` is an immutable, unique integer made
 *   from created_at (see sort-key.ts), so `seq` order is "created_at, then insertion order": every
 *   list is ordered by it through one of the `(…, seq)` indexes, and it is the FTS rowid (the hidden
 *   rowid of a table with a TEXT key may change on VACUUM; `seq` never does).
 * - Timestamps are ISO text normalised to UTC by the store, so text order is time order.
 * - `task_events` has NO foreign key: the log outlives a deleted task (a record that something was
 *   sent to the paid service is worth keeping); deleting a task appends a last `deleted` event.
 * - `task_totals` holds counts and sums per (family, task_type, state, favorite), kept by triggers
 *   in the same transaction as the change, so counts and the cost summary cost the same with 100 or
 *   100,000 tasks.
 * - `tasks_fts` is an external-content FTS5 table over title, prompt and lyrics (rowid = seq), kept
 *   in sync by triggers that only fire when one of those columns really changes.
 * - The state lists in the partial indexes must equal REMOTE_ACTIVE_STATES and the states
 *   durationHistory reads (a test checks this); changing them needs a new migration.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const V1_SCHEMA = `
CREATE TABLE tasks (
  id TEXT PRIMARY KEY NOT NULL,
  seq INTEGER NOT NULL UNIQUE,
  remote_id TEXT UNIQUE,
  model TEXT NOT NULL,
  task_type TEXT NOT NULL,
  family TEXT NOT NULL,
  title TEXT NOT NULL,
  state TEXT NOT NULL,
  remote_status TEXT,
  request_json TEXT NOT NULL,
  prompt TEXT,
  lyrics TEXT,
  favorite INTEGER NOT NULL DEFAULT 0 CHECK (favorite IN (0, 1)),
  estimate_micros INTEGER,
  usage_json TEXT,
  usage_consume REAL,
  error_kind TEXT,
  error_message TEXT,
  error_code INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  submitted_at TEXT,
  remote_created_at TEXT,
  started_at TEXT,
  ended_at TEXT,
  saved_at TEXT,
  expected_ms INTEGER,
  rerun_of TEXT REFERENCES tasks (id) ON DELETE SET NULL,
  next_poll_at INTEGER,
  poll_count INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX tasks_by_favorite ON tasks (favorite, seq);
CREATE INDEX tasks_by_state ON tasks (state, seq);
CREATE INDEX tasks_by_family ON tasks (family, seq);
CREATE INDEX tasks_by_type ON tasks (task_type, seq);
CREATE INDEX tasks_by_rerun_of ON tasks (rerun_of) WHERE rerun_of IS NOT NULL;
CREATE INDEX tasks_due_for_poll ON tasks (next_poll_at, seq)
  WHERE next_poll_at IS NOT NULL AND state IN ('pending', 'staged', 'processing');
CREATE INDEX tasks_finished_by_model ON tasks (model, task_type, ended_at)
  WHERE ended_at IS NOT NULL AND state IN ('completed', 'downloading', 'saved', 'expired');

CREATE TRIGGER tasks_keys_immutable BEFORE UPDATE OF id, seq, family, task_type ON tasks
WHEN old.id IS NOT new.id OR old.seq IS NOT new.seq OR old.family IS NOT new.family
  OR old.task_type IS NOT new.task_type
BEGIN
  SELECT RAISE(ABORT, 'tasks.id, seq, family and task_type cannot change');
END;

CREATE TABLE task_inputs (
  task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL CHECK (idx >= 0),
  field TEXT NOT NULL,
  source TEXT NOT NULL,
  value TEXT NOT NULL,
  mime TEXT,
  size INTEGER,
  sha256 TEXT,
  width INTEGER,
  height INTEGER,
  PRIMARY KEY (task_id, idx)
);

CREATE TABLE task_outputs (
  task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL CHECK (idx >= 0),
  kind TEXT NOT NULL,
  url TEXT NOT NULL,
  field TEXT NOT NULL,
  state TEXT NOT NULL,
  path TEXT,
  thumb_path TEXT,
  mime TEXT,
  size INTEGER,
  sha256 TEXT,
  width INTEGER,
  height INTEGER,
  duration_seconds REAL,
  error TEXT,
  PRIMARY KEY (task_id, idx)
);

CREATE TABLE task_events (
  id INTEGER PRIMARY KEY,
  task_id TEXT NOT NULL,
  at TEXT NOT NULL,
  from_state TEXT,
  to_state TEXT NOT NULL,
  detail TEXT
);
CREATE INDEX task_events_by_task ON task_events (task_id, id);

CREATE TABLE settings (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL CHECK (json_valid(value))
);

CREATE TABLE task_totals (
  family TEXT NOT NULL,
  task_type TEXT NOT NULL,
  state TEXT NOT NULL,
  favorite INTEGER NOT NULL,
  tasks INTEGER NOT NULL,
  estimate_micros INTEGER NOT NULL,
  consume REAL NOT NULL,
  PRIMARY KEY (family, task_type, state, favorite)
) WITHOUT ROWID;

CREATE TRIGGER tasks_totals_after_insert AFTER INSERT ON tasks
BEGIN
  INSERT INTO task_totals (family, task_type, state, favorite, tasks, estimate_micros, consume)
  VALUES (new.family, new.task_type, new.state, new.favorite, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0))
  ON CONFLICT (family, task_type, state, favorite) DO UPDATE SET
    tasks = tasks + 1,
    estimate_micros = estimate_micros + excluded.estimate_micros,
    consume = consume + excluded.consume;
END;

CREATE TRIGGER tasks_totals_after_delete AFTER DELETE ON tasks
BEGIN
  UPDATE task_totals SET
    tasks = tasks - 1,
    estimate_micros = estimate_micros - coalesce(old.estimate_micros, 0),
    consume = consume - coalesce(old.usage_consume, 0)
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite;
END;

CREATE TRIGGER tasks_totals_after_update AFTER UPDATE OF state, favorite, estimate_micros, usage_consume ON tasks
WHEN old.state IS NOT new.state OR old.favorite IS NOT new.favorite
  OR old.estimate_micros IS NOT new.estimate_micros OR old.usage_consume IS NOT new.usage_consume
BEGIN
  UPDATE task_totals SET
    tasks = tasks - 1,
    estimate_micros = estimate_micros - coalesce(old.estimate_micros, 0),
    consume = consume - coalesce(old.usage_consume, 0)
  WHERE family = old.family AND task_type = old.task_type AND state = old.state AND favorite = old.favorite;
  INSERT INTO task_totals (family, task_type, state, favorite, tasks, estimate_micros, consume)
  VALUES (new.family, new.task_type, new.state, new.favorite, 1,
          coalesce(new.estimate_micros, 0), coalesce(new.usage_consume, 0))
  ON CONFLICT (family, task_type, state, favorite) DO UPDATE SET
    tasks = tasks + 1,
    estimate_micros = estimate_micros + excluded.estimate_micros,
    consume = consume + excluded.consume;
END;

CREATE VIRTUAL TABLE tasks_fts USING fts5 (
  title, prompt, lyrics,
  content = 'tasks', content_rowid = 'seq',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER tasks_fts_after_insert AFTER INSERT ON tasks
BEGIN
  INSERT INTO tasks_fts (rowid, title, prompt, lyrics) VALUES (new.seq, new.title, new.prompt, new.lyrics);
END;

CREATE TRIGGER tasks_fts_after_delete AFTER DELETE ON tasks
BEGIN
  INSERT INTO tasks_fts (tasks_fts, rowid, title, prompt, lyrics)
  VALUES ('delete', old.seq, old.title, old.prompt, old.lyrics);
END;

CREATE TRIGGER tasks_fts_after_update AFTER UPDATE OF title, prompt, lyrics ON tasks
WHEN old.title IS NOT new.title OR old.prompt IS NOT new.prompt OR old.lyrics IS NOT new.lyrics
BEGIN
  INSERT INTO tasks_fts (tasks_fts, rowid, title, prompt, lyrics)
  VALUES ('delete', old.seq, old.title, old.prompt, old.lyrics);
  INSERT INTO tasks_fts (rowid, title, prompt, lyrics) VALUES (new.seq, new.title, new.prompt, new.lyrics);
END;
`;

/**
 * v2: what each task has cost, kept per group like the other totals: the service's reported
 * `usage.consume` (points of one micro-dollar) once known, the estimate before, and nothing for
 * a task the service never created (cancelled or refused before it had a remote id).
 */
const SPENT_OF_NEW = `CASE
    WHEN new.remote_id IS NULL AND new.state IN ('cancelled', 'failed') THEN 0
    WHEN new.usage_consume IS NOT NULL THEN new.usage_consume
    ELSE coalesce(new.estimate_micros, 0) END`;
const SPENT_OF_OLD = SPENT_OF_NEW.replaceAll('new.', 'old.');

const V2_SPENT = `
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

const V3_ORDERS = `
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

/**
 * v4: inputs kept once per content. A file input is `inputs/<sha256>.<ext>`, shared by every task
 * that uses the same bytes: `task_inputs_by_file` finds the tasks that still refer to one (a
 * file is removed with the last of them). `task_inputs_base64` finds the inputs of older
 * libraries still stored as Base64 text; the engine moves them into files when it opens the
 * library (it writes files, which SQL cannot), and the index stays empty after that. An output
 * the service sent inline (a `data:` URL) no longer keeps its data once saved: the bytes are in
 * its file, and `url` holds the marker SAVED_INLINE_OUTPUT_URL (src/shared/task/task-model.ts).
 */
const V4_SHARED_INPUTS = `
CREATE INDEX task_inputs_by_file ON task_inputs (value) WHERE source = 'file';
CREATE INDEX task_inputs_base64 ON task_inputs (task_id, idx) WHERE source = 'base64';

UPDATE task_outputs SET url = 'inline:saved'
WHERE state = 'saved' AND path IS NOT NULL AND url LIKE 'data:%';
`;

/**
 * v5: lineage and batches. `parent_id` is the task a task was made from and `parent_output` the
 * index of that task's output it used (NULL when it reused the parent's inputs: a re-run or a
 * variation); `batch_id` groups tasks queued together. A re-run's `rerun_of` meant exactly a
 * parent with no output: it is copied into `parent_id` and the column goes. Deleting a task
 * clears the link of the tasks made from it (as `rerun_of`'s ON DELETE SET NULL did), by a
 * trigger so `parent_output` goes with it (v6 replaces that trigger). `tasks_by_parent` finds the tasks made from one;
 * `tasks_by_batch` the tasks of a batch, in the order they were queued.
 */
const V5_LINEAGE = `
ALTER TABLE tasks ADD COLUMN parent_id TEXT;
ALTER TABLE tasks ADD COLUMN parent_output INTEGER CHECK (parent_output IS NULL OR parent_output >= 0);
ALTER TABLE tasks ADD COLUMN batch_id TEXT;

UPDATE tasks SET parent_id = rerun_of WHERE rerun_of IS NOT NULL;
DROP INDEX tasks_by_rerun_of;
ALTER TABLE tasks DROP COLUMN rerun_of;

CREATE INDEX tasks_by_parent ON tasks (parent_id, seq) WHERE parent_id IS NOT NULL;
CREATE INDEX tasks_by_batch ON tasks (batch_id, seq) WHERE batch_id IS NOT NULL;

CREATE TRIGGER tasks_parent_after_delete AFTER DELETE ON tasks
BEGIN
  UPDATE tasks SET parent_id = NULL, parent_output = NULL WHERE parent_id = old.id;
END;
`;

/**
 * v6: a task whose parent is deleted keeps a mark of it. `parent_gone` holds the deleted parent's
 * title; `parent_id` is cleared as before, `parent_output` is kept (which of the parent's outputs
 * was used; NULL for a re-run or a variation). The delete trigger of v5 is replaced.
 *
 * Tasks unlinked before v6 lost both parts of the link. Those made from a result get them back
 * from the note their first (`queued`) event kept: the first `<field>: output <n> of "<title>"
 * sent as the service's URL` or `… sent from the library file (…)` names the result the task
 * used first, which is its parent unless the draft named another (the engine takes the first
 * result used when none is named, and a task that used a result always has a parent). A title
 * holding `" sent as the service's URL` or `" sent from the library file (` is cut there. A
 * re-run or a variation whose parent was deleted before v6 left no such note: it stays NULL.
 */
const V6_PARENT_GONE = `
ALTER TABLE tasks ADD COLUMN parent_gone TEXT;

DROP TRIGGER tasks_parent_after_delete;
CREATE TRIGGER tasks_parent_after_delete AFTER DELETE ON tasks
BEGIN
  UPDATE tasks SET parent_id = NULL, parent_gone = old.title WHERE parent_id = old.id;
END;

WITH first_note AS (
  SELECT e.task_id, e.detail AS note FROM task_events e JOIN tasks t ON t.id = e.task_id
  WHERE t.parent_id IS NULL AND e.from_state IS NULL AND e.to_state = 'queued'
    AND e.detail LIKE '%: output % of "%" sent %'
    AND e.id = (SELECT min(id) FROM task_events f WHERE f.task_id = e.task_id)
),
after_field AS (
  SELECT task_id, substr(note, 1, instr(note, ': output ') - 1) AS field,
    substr(note, instr(note, ': output ') + 9) AS rest
  FROM first_note WHERE instr(note, ': output ') > 1
),
after_index AS (
  SELECT task_id, field, substr(rest, 1, instr(rest, ' of "') - 1) AS idx,
    substr(rest, instr(rest, ' of "') + 5) AS rest
  FROM after_field WHERE instr(rest, ' of "') > 1
),
ends AS (
  SELECT task_id, field, idx, rest,
    instr(rest, '" sent as the service''s URL') AS by_url,
    instr(rest, '" sent from the library file (') AS by_file
  FROM after_index
),
named AS (
  SELECT task_id, field, idx,
    substr(rest, 1, CASE WHEN by_url > 0 AND (by_file = 0 OR by_url < by_file) THEN by_url ELSE by_file END - 1)
      AS title
  FROM ends WHERE by_url > 0 OR by_file > 0
)
UPDATE tasks SET parent_gone = named.title, parent_output = CAST(named.idx AS INTEGER)
FROM named
WHERE tasks.id = named.task_id
  AND named.field <> '' AND named.field NOT GLOB '*[^A-Za-z0-9_.]*'
  AND length(named.idx) BETWEEN 1 AND 3 AND named.idx NOT GLOB '*[^0-9]*';
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial library schema', sql: V1_SCHEMA },
  { version: 2, name: 'what each task cost: reported usage, else the estimate', sql: V2_SPENT },
  { version: 3, name: 'orders by title, cost and length', sql: V3_ORDERS },
  {
    version: 4,
    name: 'inputs kept once per content; saved inline outputs without their data',
    sql: V4_SHARED_INPUTS,
  },
  { version: 5, name: 'lineage (parent task and output) and batches', sql: V5_LINEAGE },
  { version: 6, name: 'a task keeps the title of its deleted parent', sql: V6_PARENT_GONE },
];

/** The states the partial index `tasks_finished_by_model` covers: the service finished the task. */
export const FINISHED_AT_SERVICE_STATES = ['completed', 'downloading', 'saved', 'expired'] as const;

/** The schema version this build writes (migrations run 1, 2, 3… without gaps). */
export const SCHEMA_VERSION = MIGRATIONS.length;
