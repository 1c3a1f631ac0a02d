/**
 * v16: a task's place in its batch (issue 21, item 10): `batch_index` from 1 to `batch_count`, in
 * the order the batch was queued, written with the task, so the cards of one batch ("2 of 4") can
 * be told apart. Tasks recorded earlier, and tasks queued alone, have none.
 * NEVER edit: its SQL is hashed.
 */
export const V16_BATCH_PLACE = `
ALTER TABLE tasks ADD COLUMN batch_index INTEGER;
ALTER TABLE tasks ADD COLUMN batch_count INTEGER;
`;
