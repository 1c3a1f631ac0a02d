/**
 * The statements whose SQL never changes, prepared once when the store opens. Each one is served by
 * an index (see the comments), so its cost does not grow with the library.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { INPUT_TABLE, INSERT_INPUT_SQL, INSERT_OUTPUT_SQL, OUTPUT_TABLE } from './input-output-columns.ts';
import { FINISHED_AT_SERVICE_STATES } from './migrations.ts';
import { INSERT_TASK_SQL, TASK_TABLE } from './task-columns.ts';

const TASK_COLUMNS = TASK_TABLE.selectList();
const INPUT_COLUMNS = INPUT_TABLE.selectList();
const OUTPUT_COLUMNS = OUTPUT_TABLE.selectList();
const FINISHED = FINISHED_AT_SERVICE_STATES.map((s) => `'${s}'`).join(', ');

export const FIXED_SQL = {
  begin: 'BEGIN IMMEDIATE',
  beginRead: 'BEGIN DEFERRED',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',
  insertTask: INSERT_TASK_SQL,
  // unique index on seq
  highestSeqIn: 'SELECT max(seq) AS seq FROM tasks WHERE seq >= ? AND seq < ?',
  insertInput: INSERT_INPUT_SQL,
  insertOutput: INSERT_OUTPUT_SQL,
  deleteOutputs: 'DELETE FROM task_outputs WHERE task_id = ?',
  // primary key
  taskById: `SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`,
  // unique index on remote_id
  taskByRemoteId: `SELECT ${TASK_COLUMNS} FROM tasks WHERE remote_id = ?`,
  stateById: 'SELECT state FROM tasks WHERE id = ?',
  taskExists: 'SELECT 1 AS found FROM tasks WHERE id = ?',
  inputsOf: `SELECT ${INPUT_COLUMNS} FROM task_inputs WHERE task_id = ? ORDER BY idx`,
  outputsOf: `SELECT ${OUTPUT_COLUMNS} FROM task_outputs WHERE task_id = ? ORDER BY idx`,
  outputOf: `SELECT ${OUTPUT_COLUMNS} FROM task_outputs WHERE task_id = ? AND idx = ?`,
  // primary key, each id of a JSON array
  deleteTasks: 'DELETE FROM tasks WHERE id IN (SELECT value FROM json_each(?))',
  pollScheduleById: 'SELECT next_poll_at, poll_count FROM tasks WHERE id = ?',
  unreadableById: 'SELECT unreadable_answers, unreadable_since FROM tasks WHERE id = ?',
  setUnreadable: 'UPDATE tasks SET unreadable_answers = $count, unreadable_since = $since WHERE id = $id',
  // partial index task_inputs_by_file
  fileInputUses: "SELECT count(*) AS n FROM task_inputs WHERE source = 'file' AND value = ?",
  fileInputByValue: `SELECT task_id, ${INPUT_COLUMNS} FROM task_inputs WHERE source = 'file' AND value = ? LIMIT 1`,
  // partial index task_inputs_base64
  base64Inputs: `SELECT task_id, idx, ${INPUT_COLUMNS} FROM task_inputs INDEXED BY task_inputs_base64
    WHERE source = 'base64' AND (task_id, idx) > ($task_id, $idx) ORDER BY task_id, idx LIMIT $limit`,
  moveInputToFile: `UPDATE task_inputs SET source = 'file', value = $value, mime = $mime, size = $size,
    sha256 = $sha256, width = $width, height = $height
    WHERE task_id = $task_id AND field = $field AND source = 'base64'`,
  requestOf: 'SELECT request_json FROM tasks WHERE id = ?',
  setRequest:
    'UPDATE tasks SET request_json = $request_json, prompt = $prompt, lyrics = $lyrics WHERE id = $id',
  setFavorite: 'UPDATE tasks SET favorite = $favorite, updated_at = $updated_at WHERE id = $id',
  insertEvent: `INSERT INTO task_events (task_id, at, from_state, to_state, detail)
    VALUES ($task_id, $at, $from_state, $to_state, $detail)`,
  // task_events_by_task
  eventsOf: 'SELECT task_id, at, from_state, to_state, detail FROM task_events WHERE task_id = ? ORDER BY id',
  // tasks_by_state_seq
  nextQueued: `SELECT ${TASK_COLUMNS} FROM tasks WHERE state = 'queued' ORDER BY seq LIMIT $limit`,
  // partial index tasks_due_for_poll (its WHERE is repeated so it applies; INDEXED BY because with
  // statistics the planner may prefer tasks_by_state and sort every active task)
  dueForPoll: `SELECT ${TASK_COLUMNS} FROM tasks INDEXED BY tasks_due_for_poll
    WHERE next_poll_at IS NOT NULL AND state IN ('pending', 'staged', 'processing') AND next_poll_at <= $now
    ORDER BY next_poll_at, seq LIMIT $limit`,
  nextPollDue: `SELECT next_poll_at FROM tasks INDEXED BY tasks_due_for_poll
    WHERE next_poll_at IS NOT NULL AND state IN ('pending', 'staged', 'processing')
    ORDER BY next_poll_at LIMIT 1`,
  // task_totals (a few rows per task type), kept by triggers
  countInStates: `SELECT coalesce(sum(tasks), 0) AS n FROM task_totals
    WHERE trashed = 0 AND state IN (SELECT value FROM json_each($states))`,
  // a task cancelled at the service may still have been billed: its usage counts; so does a task
  // in Recently deleted (the money was spent)
  costSummary: `SELECT
      coalesce(sum(CASE WHEN state <> 'cancelled' THEN tasks ELSE 0 END), 0) AS tasks,
      coalesce(sum(CASE WHEN state <> 'cancelled' THEN estimate_micros ELSE 0 END), 0) AS estimate_micros,
      coalesce(sum(consume), 0) AS consume,
      coalesce(sum(spent_micros), 0) AS spent_micros
    FROM task_totals`,
  // partial index tasks_finished_by_model
  durationHistory: `SELECT id, request_json, coalesce(remote_created_at, submitted_at) AS began_at, ended_at
    FROM tasks INDEXED BY tasks_finished_by_model
    WHERE model = $model AND task_type = $task_type AND ended_at IS NOT NULL AND state IN (${FINISHED})
      AND coalesce(remote_created_at, submitted_at) IS NOT NULL
    ORDER BY ended_at DESC LIMIT $limit`,
  getSetting: 'SELECT value FROM settings WHERE key = ?',
  setSetting: `INSERT INTO settings (key, value) VALUES ($key, $value)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  deleteSetting: 'DELETE FROM settings WHERE key = ?',
  // one step of merging the full-text index's segments, about ? leaf pages (migration 23)
  mergeSearch: "INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('merge', ?)",
  totalChanges: 'SELECT total_changes() AS n',
} as const;

export type FixedStatements = { readonly [K in keyof typeof FIXED_SQL]: StatementSync };

export function prepareFixedStatements(db: DatabaseSync): FixedStatements {
  const entries = Object.entries(FIXED_SQL).map(([name, sql]) => [name, db.prepare(sql)]);
  return Object.fromEntries(entries) as FixedStatements;
}

/** Checks run by integrityCheck beyond SQLite's own. Each returns rows only when something is wrong. */
export const CONSISTENCY_SQL = {
  foreignKeys: 'PRAGMA foreign_key_check',
  totals: `WITH actual AS (
      SELECT family, task_type, state, favorite, deleted_at IS NOT NULL AS trashed, count(*) AS tasks,
        sum(coalesce(estimate_micros, 0)) AS estimate_micros
      FROM tasks GROUP BY family, task_type, state, favorite, deleted_at IS NOT NULL),
    kept AS (
      SELECT family, task_type, state, favorite, trashed, tasks, estimate_micros FROM task_totals
      WHERE tasks <> 0)
    SELECT DISTINCT family, task_type, state, favorite, trashed FROM (
      SELECT * FROM (SELECT * FROM actual EXCEPT SELECT * FROM kept)
      UNION ALL SELECT * FROM (SELECT * FROM kept EXCEPT SELECT * FROM actual))`,
  fts: "INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('integrity-check', 1)",
} as const;
