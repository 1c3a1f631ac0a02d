/**
 * One engine per library folder, enforced by the operating system. The lock is SQLite's own file
 * lock (fcntl on POSIX, LockFileEx on Windows) on a small database, `engine-lock.sqlite`, held
 * in an open `BEGIN EXCLUSIVE` transaction for the engine's lifetime. A second opener gets
 * SQLITE_BUSY at once and is refused; the OS drops the lock when the holder's process ends, crash
 * or not, so there is no stale lock to take over and no race between two takers.
 *
 * `engine-lock.pid` only names the holder in the refusal's message; it plays no part in locking.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const LOCK_FILE_NAME = 'engine-lock.sqlite';
export const LOCK_OWNER_FILE_NAME = 'engine-lock.pid';

export class LibraryBusyError extends Error {
  /** The process holding the library, when it could be told; null otherwise. */
  readonly pid: number | null;
  constructor(libraryDir: string, pid: number | null) {
    const holder = pid === null ? '' : ` (pid ${pid})`;
    super(`the library ${libraryDir} is already open in another process${holder}; close it first`);
    this.name = 'LibraryBusyError';
    this.pid = pid;
  }
}

export interface LibraryLock {
  release(): void;
}

/** Lock files held by this process, so a second engine in the same process is refused too. */
const heldHere = new Set<string>();

/** SQLite's "database is locked" (SQLITE_BUSY, 5) or "table is locked" (SQLITE_LOCKED, 6). */
function isBusyError(err: unknown): boolean {
  const code = (err as { errcode?: unknown }).errcode;
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder's pid from its note, when the note names a live process other than this one. */
function holderPid(libraryDir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(join(libraryDir, LOCK_OWNER_FILE_NAME), 'utf8').trim(), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  return processIsAlive(pid) ? pid : null;
}

/** Writes the holder note; a note that cannot be written (disk full) only costs the pid in messages. */
function writeOwnerNote(libraryDir: string): void {
  try {
    writeFileSync(join(libraryDir, LOCK_OWNER_FILE_NAME), String(process.pid), { mode: 0o600 });
  } catch {
    // the lock itself is held; the note is only for messages
  }
}

/** Opens the lock database and takes its exclusive lock, or throws LibraryBusyError at once. */
function lockDatabase(libraryDir: string, path: string): DatabaseSync {
  closeSync(openSync(path, 'a', 0o600)); // owner-only when new; SQLite would make it 0644
  const db = new DatabaseSync(path, { timeout: 0 });
  try {
    db.exec('PRAGMA busy_timeout = 0');
    // nothing is ever committed: the journal stays in memory, so the lock writes no file, and
    // the database file stays empty
    db.exec('PRAGMA journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db.close();
    if (isBusyError(err)) throw new LibraryBusyError(libraryDir, holderPid(libraryDir));
    throw err;
  }
}

/**
 * Takes the library's lock for this process, or throws LibraryBusyError when another engine
 * (in this process or another) holds it. The lock lasts until `release()` or the process's end.
 */
export function acquireLibraryLock(libraryDir: string): LibraryLock {
  const path = join(libraryDir, LOCK_FILE_NAME);
  if (heldHere.has(path)) throw new LibraryBusyError(libraryDir, process.pid);
  const db = lockDatabase(libraryDir, path);
  heldHere.add(path);
  writeOwnerNote(libraryDir);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // the note goes before the lock, so it never removes the next holder's
      try {
        rmSync(join(libraryDir, LOCK_OWNER_FILE_NAME), { force: true });
      } catch {
        // only the note: the lock goes below all the same
      }
      heldHere.delete(path);
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
