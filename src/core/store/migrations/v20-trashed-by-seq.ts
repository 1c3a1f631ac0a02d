/**
 * v20: Recently deleted in list order. Its view is the library's list with `deleted_at IS NOT
 * NULL`, newest (or oldest) first; `tasks_trashed (deleted_at, seq)` finds the tasks of one
 * delete (Undo, the purge) but cannot give them in seq order, so every page sorted every task in
 * Recently deleted, whole rows (43 ms for 10,000 of a million). A partial index on seq of those
 * tasks alone walks a page and stops.
 * NEVER edit: its SQL is hashed.
 */
export const V20_TRASHED_BY_SEQ = `
CREATE INDEX tasks_trashed_by_seq ON tasks (seq) WHERE deleted_at IS NOT NULL;
`;
