/**
 * v17: saved outputs found by their file's SHA-256 (issue 22, item 2): a file dropped on the
 * composer, or given to `media-task recall`, that carries no parameters of its own is looked up
 * by its checksum among the library's results, so even a million tasks answer at once.
 * NEVER edit: its SQL is hashed.
 */
export const V17_OUTPUTS_BY_CHECKSUM = `
CREATE INDEX task_outputs_by_sha256 ON task_outputs (sha256) WHERE sha256 IS NOT NULL;
`;
