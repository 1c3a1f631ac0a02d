/**
 * One engine per library folder. A lock file holds the owner's pid; a lock whose process is
 * gone is taken over, a live one is refused with a clear message.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class LibraryBusyError extends Error {
  readonly pid: number;
  constructor(libraryDir: string, pid: number) {
    super(`the library ${libraryDir} is already open in another process (pid ${pid}); close it first`);
    this.name = 'LibraryBusyError';
    this.pid = pid;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files held by this process, so a second engine in the same process is refused too. */
const heldHere = new Set<string>();

export interface LibraryLock {
  release(): void;
}

export function acquireLibraryLock(libraryDir: string): LibraryLock {
  const path = join(libraryDir, 'engine.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(path);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(path);
          rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      } catch {
        // vanished between open and read: try again
      }
      const ownedHere = pid === process.pid && heldHere.has(path);
      if (ownedHere || (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processIsAlive(pid))) {
        throw new LibraryBusyError(libraryDir, pid);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock the library ${libraryDir}`);
}
