/**
 * v23: the full-text index merges its segments only in the store's own steps (LibraryStore's
 * mergeSearchIndex, when writes pause and between the batches of Recently deleted's purge), never
 * inside a write. With FTS5's automerge (4), every 64 leaf pages written made the write that
 * crossed them merge 64 pages per level of the index: at a million tasks (5 levels) a delete
 * took 20-30 ms of CPU every 64 deleted tasks (each delete its own segment), 12 ms at 10,000 (2
 * levels). A level with crisismerge's 16 segments is still merged in one go by the write that
 * makes it (a burst of writes with no pause between: small segments, so a small merge).
 * NEVER edit: its SQL is hashed.
 */
export const V23_SEARCH_MERGE_STEPS = `
INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('automerge', 0);
`;
