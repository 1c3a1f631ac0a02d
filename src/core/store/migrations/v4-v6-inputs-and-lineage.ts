/** v4 to v6: inputs stored once per content, lineage and batches, a deleted parent's title. NEVER edit: their SQL is hashed. */

/**
 * v4: inputs kept once per content. A file input is `inputs/<sha256>.<ext>`, shared by every task
 * that uses the same bytes: `task_inputs_by_file` finds the tasks that still refer to one (a
 * file is removed with the last of them). `task_inputs_base64` finds the inputs of older
 * libraries still stored as Base64 text; the engine moves them into files when it opens the
 * library (it writes files, which SQL cannot), and the index stays empty after that. An output
 * the service sent inline (a `data:` URL) no longer keeps its data once saved: the bytes are in
 * its file, and `url` holds the marker SAVED_INLINE_OUTPUT_URL (src/shared/task/task-model.ts).
 */
export const V4_SHARED_INPUTS = `
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
export const V5_LINEAGE = `
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
export const V6_PARENT_GONE = `
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
