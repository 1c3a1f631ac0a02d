/**
 * v15: each file input keeps the name of the file the user gave (`party.jpg`, issue 21 item 10):
 * the library copy is named by its content hash (`inputs/<sha256>.<ext>`, shared by every task
 * with those bytes), so the name is kept per task input. Inputs recorded earlier have none.
 * NEVER edit: its SQL is hashed.
 */
export const V15_INPUT_NAMES = `
ALTER TABLE task_inputs ADD COLUMN name TEXT;
`;
