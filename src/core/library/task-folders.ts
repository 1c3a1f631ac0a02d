/**
 * The folders that belong to one task, and their removal when the task is deleted: its output
 * folder `<yyyy>/<mm>/<task id>` and the input folder `inputs/<task id>` older libraries have,
 * and nothing else (input files named by their content are input-files.ts's).
 * The folders are named from the task's id and creation time, never taken from the paths the
 * database records (a database written by someone else could name any folder, or a parent);
 * every folder on the way is checked with lstat, so a link planted in a shared library is not
 * followed; and `rm` removes links inside the folder without following them.
 */
import { realpath, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Task } from '../../shared/index.ts';
import { UnsafePathError } from '../inputs/index.ts';
import { storedPathSegments } from './library-paths.ts';
import { refuseLinksBelow } from './safe-files.ts';

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The folder of a task's files, refusing any id that could escape the library. */
export function taskFolder(libraryDir: string, taskId: string, createdAt: string): string {
  if (!SAFE_ID.test(taskId)) throw new Error(`unsafe task id for a folder name: ${JSON.stringify(taskId)}`);
  const d = new Date(createdAt);
  const year = Number.isNaN(d.getTime()) ? '0000' : String(d.getUTCFullYear()).padStart(4, '0');
  const month = Number.isNaN(d.getTime()) ? '00' : String(d.getUTCMonth() + 1).padStart(2, '0');
  const folder = resolve(libraryDir, year, month, taskId);
  const root = resolve(libraryDir);
  if (!folder.startsWith(root + sep)) throw new Error('task folder escapes the library');
  return folder;
}

type TaskFiles = Pick<Task, 'id' | 'createdAt'> & {
  outputs: readonly { index: number; path: string | null; thumbPath: string | null }[];
};

/** The task's own folders (absolute, under the real library folder); throws for an id that cannot name one. */
export function ownFoldersOf(realLibraryDir: string, task: Pick<Task, 'id' | 'createdAt'>): string[] {
  const outputFolder = taskFolder(realLibraryDir, task.id, task.createdAt); // refuses an unsafe id
  return [outputFolder, join(realLibraryDir, 'inputs', task.id)];
}

/** The `<yyyy>/<mm>/<task id>` folder a stored output path lies in, or null when it lies anywhere else. */
function ownOutputFolderOf(storedPath: string, taskId: string): string[] | null {
  const segments = storedPathSegments(storedPath);
  if (segments === null || segments.length !== 4) return null;
  const [year, month, id] = segments as [string, string, string, string];
  return /^\d{4}$/.test(year) && /^\d{2}$/.test(month) && id === taskId ? [year, month, id] : null;
}

/** Removes one of the task's folders; returns why it was left, or null (removed, or there was none). */
async function removeOwnFolder(realLibraryDir: string, folder: string): Promise<string | null> {
  try {
    await refuseLinksBelow(realLibraryDir, folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (err instanceof UnsafePathError) return `left ${folder}: ${err.message}`;
    throw err;
  }
  await rm(folder, { recursive: true, force: true });
  return null;
}

/**
 * Removes the files of a deleted task: its own folders only (also an output folder of another
 * month its outputs were recorded in). Returns one line per thing it did not touch (a folder
 * behind a link, a stored path outside the task's folders), for the log.
 */
export async function removeTaskFolders(libraryDir: string, task: TaskFiles): Promise<string[]> {
  const notes: string[] = [];
  let realRoot: string;
  const folders = new Set<string>();
  try {
    realRoot = await realpath(libraryDir);
    for (const folder of ownFoldersOf(realRoot, task)) folders.add(folder);
  } catch (err) {
    return [`no files were removed: ${(err as Error).message}`];
  }
  for (const output of task.outputs) {
    for (const stored of [output.path, output.thumbPath]) {
      if (stored === null) continue;
      const own = ownOutputFolderOf(stored, task.id);
      if (own) folders.add(join(realRoot, ...own));
      else
        notes.push(
          `the library recorded output ${output.index} at ${JSON.stringify(stored.slice(0, 300))}, outside the task’s own folder; it was not touched`,
        );
    }
  }
  for (const folder of folders) {
    const note = await removeOwnFolder(realRoot, folder);
    if (note !== null) notes.push(note);
  }
  return notes;
}
