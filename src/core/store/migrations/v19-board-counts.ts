/**
 * v19: each board keeps how many of its tasks are not in Recently deleted (`boards.tasks`), by
 * triggers in the same transaction as each change, so the boards' list (the sidebar) is one read
 * of the boards whatever their size: counting a board of 100,000 tasks of a library of a million
 * took some 200 ms each time the list was read.
 * - a task put on or taken off a board counts when it is not in Recently deleted;
 * - a task moved to Recently deleted and back counts off and on again on each of its boards;
 * - a task deleted forever while not in Recently deleted counts off before it goes (its rows in
 *   board_tasks then go by cascade with the task already gone, which counts nothing).
 * NEVER edit: its SQL is hashed.
 */
export const V19_BOARD_COUNTS = `
ALTER TABLE boards ADD COLUMN tasks INTEGER NOT NULL DEFAULT 0;

UPDATE boards SET tasks = (SELECT count(*) FROM board_tasks AS bt JOIN tasks AS t ON t.id = bt.task_id
  WHERE bt.board_id = boards.id AND t.deleted_at IS NULL);

CREATE TRIGGER board_tasks_count_after_insert AFTER INSERT ON board_tasks
BEGIN
  UPDATE boards SET tasks = tasks + 1 WHERE id = new.board_id
    AND EXISTS (SELECT 1 FROM tasks WHERE id = new.task_id AND deleted_at IS NULL);
END;

CREATE TRIGGER board_tasks_count_after_delete AFTER DELETE ON board_tasks
BEGIN
  UPDATE boards SET tasks = tasks - 1 WHERE id = old.board_id
    AND EXISTS (SELECT 1 FROM tasks WHERE id = old.task_id AND deleted_at IS NULL);
END;

CREATE TRIGGER tasks_board_count_before_delete BEFORE DELETE ON tasks
WHEN old.deleted_at IS NULL
BEGIN
  UPDATE boards SET tasks = tasks - 1 WHERE id IN (SELECT board_id FROM board_tasks WHERE task_id = old.id);
END;

CREATE TRIGGER tasks_board_count_after_trash AFTER UPDATE OF deleted_at ON tasks
WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL)
BEGIN
  UPDATE boards SET tasks = tasks + (CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
  WHERE id IN (SELECT board_id FROM board_tasks WHERE task_id = new.id);
END;
`;
