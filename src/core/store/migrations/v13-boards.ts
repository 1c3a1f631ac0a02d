/**
 * v13: boards (issue 22, item 1), named collections of tasks. A task may be on several boards
 * (`board_tasks`, one row per board and task); deleting a board takes its rows with it, never a
 * task; deleting a task forever takes it off every board (cascade). A board's name is unique
 * without regard to case. `board_tasks_by_task` serves the cascade and "which boards is this
 * task on"; the primary key walks one board's tasks.
 * NEVER edit: its SQL is hashed.
 */
export const V13_BOARDS = `
CREATE TABLE boards (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX boards_by_name ON boards (name COLLATE NOCASE);
CREATE TABLE board_tasks (
  board_id INTEGER NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
  task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (board_id, task_id)
) WITHOUT ROWID;
CREATE INDEX board_tasks_by_task ON board_tasks (task_id, board_id);
`;
