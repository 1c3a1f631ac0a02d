/** v1: the initial library schema (design notes in ../migrations.ts). NEVER edit: its SQL is hashed. */

export const V1_SCHEMA = `
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
