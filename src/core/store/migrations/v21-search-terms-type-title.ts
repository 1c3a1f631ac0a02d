/**
 * v21: a search's last word and the videos (or any task type) by title, at a million tasks.
 * - `search_terms`: the full-text index's terms (an fts5vocab table over tasks_fts; it stores
 *   nothing). The last word of a search matches as a prefix ('music'*), and FTS5 answers a prefix
 *   by merging the whole list of every matching term before the first row (45 ms for a word in
 *   half of a million tasks). The store reads the few terms the prefix stands for here and
 *   searches for them by name instead, which FTS5 walks newest first and stops after a page.
 * - `tasks_by_type_title`: one task type's tasks in title order (the title index passed most of
 *   the library before the first video: 74 ms at a million).
 * NEVER edit: its SQL is hashed.
 */
export const V21_SEARCH_TERMS_TYPE_TITLE = `
CREATE VIRTUAL TABLE search_terms USING fts5vocab(tasks_fts, instance);
CREATE INDEX tasks_by_type_title ON tasks (task_type, title_key, seq);
`;
