/**
 * v18: the library's size on disk by kind (issue 22, item 4): `output_sizes` holds, per output kind,
 * how many saved results there are and the bytes of their files (`task_outputs.size`, recorded
 * when each was saved), kept by triggers in the same transaction as each change to an output, so
 * the library's size by kind is one read of at most five rows whatever its number of tasks.
 * Outputs saved without a recorded size are not counted. Recently deleted is part of it (its
 * files are on disk until they go for good).
 * NEVER edit: its SQL is hashed.
 */
const SAVED_NEW = "new.state = 'saved' AND new.size IS NOT NULL";
const SAVED_OLD = "old.state = 'saved' AND old.size IS NOT NULL";

export const V18_OUTPUT_SIZES = `
CREATE TABLE output_sizes (
  kind TEXT PRIMARY KEY,
  files INTEGER NOT NULL,
  bytes INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO output_sizes (kind, files, bytes)
SELECT kind, count(*), sum(size) FROM task_outputs
WHERE state = 'saved' AND size IS NOT NULL GROUP BY kind;

CREATE TRIGGER output_sizes_after_insert AFTER INSERT ON task_outputs
WHEN ${SAVED_NEW}
BEGIN
  INSERT INTO output_sizes (kind, files, bytes) VALUES (new.kind, 1, new.size)
  ON CONFLICT (kind) DO UPDATE SET files = files + 1, bytes = bytes + excluded.bytes;
END;

CREATE TRIGGER output_sizes_after_delete AFTER DELETE ON task_outputs
WHEN ${SAVED_OLD}
BEGIN
  UPDATE output_sizes SET files = files - 1, bytes = bytes - old.size WHERE kind = old.kind;
END;

CREATE TRIGGER output_sizes_after_update AFTER UPDATE OF state, size, kind ON task_outputs
WHEN (${SAVED_OLD}) OR (${SAVED_NEW})
BEGIN
  UPDATE output_sizes SET files = files - 1, bytes = bytes - old.size
  WHERE kind = old.kind AND ${SAVED_OLD};
  INSERT INTO output_sizes (kind, files, bytes) SELECT new.kind, 1, new.size WHERE ${SAVED_NEW}
  ON CONFLICT (kind) DO UPDATE SET files = files + 1, bytes = bytes + excluded.bytes;
END;
`;
