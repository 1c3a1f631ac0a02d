/**
 * v11: the library's Makes and Model filters find tasks by the catalog entry they stored: an
 * index on (entry_id, seq) walks one entry's tasks in list order, so each filter is one short
 * walk per entry it stands for (see list-query.ts).
 * NEVER edit: its SQL is hashed.
 */
export const V11_ENTRY_INDEX = `
CREATE INDEX tasks_by_entry ON tasks (entry_id, seq) WHERE entry_id IS NOT NULL;
`;
