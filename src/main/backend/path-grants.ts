/**
 * The files and folders the window may name, as main handed them out (security review, issue
 * 8, item 4): the page is untrusted, so a path it sends is used only when the user gave it to
 * the app — a file dropped or picked (the preload resolves it with webUtils.getPathForFile and
 * grants it over its own channel, which the page cannot reach), a folder chosen in a native
 * dialog — or when it is inside the library. Anything else is refused before any file call,
 * so the page can neither read a file nor learn whether one exists.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isInsideFolder } from '../library/index.ts';

/** The real path of `path`, or its resolved form when it does not exist (yet). */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export class PathGrants {
  readonly #files = new Set<string>();
  readonly #folders = new Set<string>();

  /** A file the user dropped on the window or picked in a file chooser. */
  grantFile(path: string): void {
    if (isAbsolute(path)) this.#files.add(resolve(path));
  }

  /** A folder the user chose in a native dialog. */
  grantFolder(path: string): void {
    if (isAbsolute(path)) this.#folders.add(resolve(path));
  }

  /** Whether the window may have `path` read: granted, or a file inside the library (links resolved). */
  mayReadFile(path: string, libraryDir: string): boolean {
    if (!isAbsolute(path)) return false;
    if (this.#files.has(resolve(path))) return true;
    return isInsideFolder(realOrResolved(libraryDir), realOrResolved(path));
  }

  /** Whether the window may use `path` as a folder (library, export destination): chosen in a dialog. */
  mayUseFolder(path: string): boolean {
    return isAbsolute(path) && this.#folders.has(resolve(path));
  }
}
