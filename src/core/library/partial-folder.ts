/**
 * `<library>/.partial/`: where downloads are written before they are checked and moved into
 * place. The app names its temporary files `<uuid>.part`, and that name is how it recognises
 * them: opening a library removes only those (regular files, never links or folders). Anything
 * else found there was not made by the app (a synced or shared library folder may hold anything)
 * and is left where it is, for the caller to report.
 */
import { randomUUID } from 'node:crypto';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureFolderBelow, openNewFile } from './safe-files.ts';

export const PARTIAL_FOLDER = '.partial';

/** The app's own temporary download files: a random UUID and `.part`. */
const PARTIAL_FILE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

export interface PartialCleanup {
  /** How many of the app's temporary files were removed. */
  removed: number;
  /** Names found that the app did not make; left in place. */
  kept: string[];
}

/** A new temporary file name of the app's own pattern. */
export function partialFileName(): string {
  return `${randomUUID()}.part`;
}

export function isPartialFileName(name: string): boolean {
  return PARTIAL_FILE_NAME.test(name);
}

/** Makes `.partial` (mode 0700) when missing and returns it; refuses a link or a file in its place. */
export async function preparePartialFolder(libraryDir: string): Promise<string> {
  const folder = join(libraryDir, PARTIAL_FOLDER);
  await ensureFolderBelow(libraryDir, folder);
  return folder;
}

/**
 * Creates a new, empty, owner-only temporary file in `.partial` (O_EXCL: never an existing file
 * or a link) and returns its path; the download then writes into it.
 */
export async function createPartialFile(libraryDir: string): Promise<string> {
  const path = join(await preparePartialFolder(libraryDir), partialFileName());
  await (await openNewFile(path)).close();
  return path;
}

/**
 * Removes the app's leftover temporary files from `.partial`. A `.partial` that is a link or a
 * file is not entered; every entry that is not one of the app's files stays and is listed in `kept`.
 */
export async function cleanPartialFolder(libraryDir: string): Promise<PartialCleanup> {
  const folder = join(libraryDir, PARTIAL_FOLDER);
  try {
    const stats = await lstat(folder);
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      return { removed: 0, kept: [`${PARTIAL_FOLDER} itself (a link or a file, not a folder)`] };
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { removed: 0, kept: [] };
    throw err;
  }
  const result: PartialCleanup = { removed: 0, kept: [] };
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isFile() && isPartialFileName(entry.name)) {
      await rm(join(folder, entry.name), { force: true });
      result.removed += 1;
    } else {
      result.kept.push(entry.name);
    }
  }
  return result;
}
