/**
 * v8: answers that could not be read. The engine counts a task's status answers that could not
 * be read in a row (`unreadable_answers`) and keeps when the first of them came
 * (`unreadable_since`, epoch ms); a readable answer sets them back to 0 and NULL. They are kept
 * in the row so the count outlives a restart (the engine gives up on a task whose answers stay
 * unreadable: see failure-outcomes.ts). Engine bookkeeping, like next_poll_at: no part of a Task.
 * NEVER edit: its SQL is hashed.
 */
export const V8_UNREADABLE_ANSWERS = `
ALTER TABLE tasks ADD COLUMN unreadable_answers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN unreadable_since INTEGER;
`;
