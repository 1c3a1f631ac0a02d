/**
 * The files and folders the window may name, as main handed them out (security review, issue
 * 8, item 4): the page is untrusted, so a path it sends is used only when the user gave it to
 * the app — a file dropped or picked (the preload resolves it with webUtils.getPathForFile and
 * grants it over its own channel, which the page cannot reach), a folder chosen in a native
 * dialog — or when it is inside the library. Anything else is refused before any file call,
 * so the page can neither read a file nor learn whether one exists. A folder is granted for
 * the purpose it was chosen for (issue 17, item 4): an export destination never becomes the
 * library folder, nor the library folder an export destination.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isInsideFolder } from '../../core/library/index.ts';

/** The real path of `path`, or its resolved form when it does not exist (yet). */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** What a folder was chosen for, in the words of the dialog that asked for it. */
export type FolderPurpose = 'library' | 'export';

export const FOLDER_PURPOSE_WORDS: Record<FolderPurpose, string> = {
  library: 'the library folder',
  export: 'an export destination',
};

export class PathGrants {
  readonly #files = new Set<string>();
  /** Each granted folder and what it was chosen for (the same folder may be chosen for both). */
  readonly #folders = new Map<string, Set<FolderPurpose>>();

  /** A file the user dropped on the window or picked in a file chooser. */
  grantFile(path: string): void {
    if (isAbsolute(path)) this.#files.add(resolve(path));
  }

  /** A folder the user chose in a native dialog, for `purpose`. */
  grantFolder(path: string, purpose: FolderPurpose): void {
    if (!isAbsolute(path)) return;
    const folder = resolve(path);
    const purposes = this.#folders.get(folder) ?? new Set<FolderPurpose>();
    purposes.add(purpose);
    this.#folders.set(folder, purposes);
  }

  /** Whether the window may have `path` read: granted, or a file inside the library (links resolved). */
  mayReadFile(path: string, libraryDir: string): boolean {
    if (!isAbsolute(path)) return false;
    if (this.#files.has(resolve(path))) return true;
    return isInsideFolder(realOrResolved(libraryDir), realOrResolved(path));
  }

  /**
   * What the user chose `path` for in a folder dialog (none when they never chose it): the
   * window may use it as a folder for those purposes only.
   */
  folderPurposes(path: string): FolderPurpose[] {
    return isAbsolute(path) ? [...(this.#folders.get(resolve(path)) ?? [])] : [];
  }
}
