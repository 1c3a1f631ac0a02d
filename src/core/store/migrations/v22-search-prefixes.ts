/**
 * v22: prefix indexes of one, two and three characters on the full-text index, so a search's last
 * word of up to three letters (each key typed) is one list FTS5 walks newest first and stops
 * after a page, not every matching term's list merged first ('m': 124 ms CPU at a million tasks;
 * a longer last word is named by its terms, migration 21). `prefix` is fixed when an FTS5 table
 * is made: tasks_fts is made again with v1's columns and options and rebuilt from tasks (17 s at a
 * million tasks, its index 107 MB → 353 MB). The triggers that keep it in sync are on `tasks` and
 * name it only in their bodies: dropping it drops none of them. search_terms reads tasks_fts and
 * is made again after it.
 * NEVER edit: its SQL is hashed.
 */
export const V22_SEARCH_PREFIXES = `
DROP TABLE search_terms;
DROP TABLE tasks_fts;
CREATE VIRTUAL TABLE tasks_fts USING fts5 (
  title, prompt, lyrics,
  content = 'tasks', content_rowid = 'seq',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2 3'
);
INSERT INTO tasks_fts (tasks_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE search_terms USING fts5vocab(tasks_fts, instance);
`;
