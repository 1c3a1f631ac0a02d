/**
 * Opens `<library>/library.sqlite` with the settings the store relies on.
 *
 * - `journal_mode=WAL`: readers never block the writer and a second connection (another window,
 *   the CLI) sees every committed change.
 * - `synchronous=NORMAL`: in WAL mode a commit appends to the WAL without an fsync; the WAL is
 *   fsynced before each checkpoint and the database after it. The file can never be corrupted by a
 *   crash or power loss (WAL frames are checksummed; recovery stops at the first incomplete
 *   transaction, so every transaction is all or nothing). What a power loss (not an app crash) can
 *   cost is the last few commits since the previous checkpoint. For the one change where that would
 *   cost money, marking a task `submitting` before the create is sent, use `transition(…, { durable:
 *   true })`, which commits with `synchronous=FULL` (one fsync of the WAL).
 * - checkpoints: see applyPragmas and LibraryStore's idle checkpoint.
 * - `foreign_keys=ON` (inputs and outputs cascade with their task), `busy_timeout` (a second
 *   connection waits for the lock instead of failing at once).
 * - modes: the folder is made 0700 and the database file created 0600 before SQLite opens it;
 *   SQLite gives its WAL and shared-memory files the mode of the database file.
 */
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SqliteFeatureMissingError } from './store-errors.ts';

export const DATABASE_FILE_NAME = 'library.sqlite';
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
export const AUTO_CHECKPOINT_PAGES = 4000;

export interface OpenedDatabase {
  db: DatabaseSync;
  file: string;
}

function assertFeatures(db: DatabaseSync): void {
  const options = db
    .prepare('PRAGMA compile_options')
    .all()
    .map((r) => String(r.compile_options));
  if (!options.includes('ENABLE_FTS5')) {
    throw new SqliteFeatureMissingError(
      'The SQLite built into this runtime has no FTS5 (full-text search); the library needs it.',
    );
  }
  let json: unknown;
  try {
    json = db.prepare("SELECT json_valid('{}') AS ok").get()?.ok;
  } catch {
    json = null;
  }
  if (json !== 1)
    throw new SqliteFeatureMissingError('The SQLite built into this runtime has no JSON functions.');
}

function applyPragmas(db: DatabaseSync, busyTimeoutMs: number): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
  const mode = db.prepare('PRAGMA journal_mode = WAL').get();
  if (!mode || String(mode.journal_mode).toLowerCase() !== 'wal') {
    throw new SqliteFeatureMissingError(
      `Could not switch the library database to WAL (got ${String(mode?.journal_mode)})`,
    );
  }
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA temp_store = MEMORY');
  // A checkpoint (copy the WAL into the database, two fsyncs) takes ~10 ms; the store runs one
  // when writes pause (LibraryStore's idle checkpoint), so SQLite's own, which would land in the
  // middle of a state change, is only a safety net after 4,000 pages (16 MiB) of WAL.
  db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  // Keep the WAL file from staying huge after a burst of writes (64 MiB).
  db.exec('PRAGMA journal_size_limit = 67108864');
}

/** Creates the database file owner-only (0600) when it does not exist yet; an existing one keeps its mode. */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Opens an existing `<library>/library.sqlite` only to read: no pragma that writes (the file is
 * this build's only once its schema is checked). Beside the process that has the library open, WAL
 * lets it read every committed change while that process writes, never blocking it.
 */
function openDatabaseToRead(libraryDir: string, busyTimeoutMs: number): OpenedDatabase {
  const file = resolve(libraryDir, DATABASE_FILE_NAME);
  const db = new DatabaseSync(file, { readOnly: true, timeout: busyTimeoutMs });
  try {
    assertFeatures(db);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, file };
}

/** `readOnly`: an existing database, only to read (see openDatabaseToRead). */
export function openDatabase(
  libraryDir: string,
  busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
  { readOnly = false }: { readOnly?: boolean } = {},
): OpenedDatabase {
  if (readOnly) return openDatabaseToRead(libraryDir, busyTimeoutMs);
  mkdirSync(libraryDir, { recursive: true, mode: 0o700 });
  const file = resolve(libraryDir, DATABASE_FILE_NAME);
  createPrivateFile(file);
  const db = new DatabaseSync(file, { timeout: busyTimeoutMs, enableForeignKeyConstraints: true });
  try {
    assertFeatures(db);
    applyPragmas(db, busyTimeoutMs);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, file };
}
