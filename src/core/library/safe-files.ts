/**
 * File operations for places someone else may have written (a synced or shared library folder,
 * an export folder): folders are made one level at a time and checked with lstat, so no link on
 * the way is followed; files are only ever created new (O_EXCL: an existing file or a planted
 * link makes the open fail instead of being written through); sources are opened without
 * following a final link and used only when they are regular files (a FIFO or a device would
 * block or never end). The app's own files and folders get owner-only modes where the OS has them.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { readAt, UnsafePathError } from '../inputs/index.ts';

/** Mode of the app's files in the library and its user-data folder: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of the folders the app makes in the library: owner only. */
export const PRIVATE_FOLDER_MODE = 0o700;

const COPY_CHUNK_BYTES = 256 * 1024;
const MAX_NAME_ATTEMPTS = 1000;

/** O_NOFOLLOW and O_NONBLOCK where the platform has them (Windows has neither). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** The segments from `root` down to `target`; refuses a target that is not below `root`. */
function segmentsBelow(root: string, target: string): string[] {
  const rel = relative(root, target);
  if (rel === '') return [];
  if (isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) {
    throw new UnsafePathError(`${target} is not inside ${root}`);
  }
  return rel.split(sep);
}

/** Refuses a link, or anything that is not a folder, on the way; what it refuses says which. */
function checkFolderStats(path: string, stats: Stats): void {
  if (stats.isSymbolicLink()) {
    throw new UnsafePathError(`${path} is a symbolic link; the app does not follow links here`);
  }
  if (!stats.isDirectory()) throw new UnsafePathError(`${path} is not a folder`);
}

/**
 * Checks with lstat that every folder from `root` (exclusive) down to `target` is a real folder,
 * not a link. A missing one throws the file system's ENOENT.
 */
export async function refuseLinksBelow(root: string, target: string): Promise<void> {
  let current = root;
  for (const segment of segmentsBelow(root, target)) {
    current = join(current, segment);
    checkFolderStats(current, await lstat(current));
  }
}

/**
 * Makes `target` and the folders above it, below `root`, one level at a time (mode 0700), and
 * refuses a link or a file met on the way: nothing is ever created through a planted link.
 */
export async function ensureFolderBelow(root: string, target: string): Promise<void> {
  let current = root;
  for (const segment of segmentsBelow(root, target)) {
    current = join(current, segment);
    try {
      await mkdir(current, { mode: PRIVATE_FOLDER_MODE });
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw err;
    }
    checkFolderStats(current, await lstat(current));
  }
}

/** Creates a file that must not exist yet (O_EXCL; never writes through a link), owner-only by default. */
export function openNewFile(path: string, mode: number = PRIVATE_FILE_MODE): Promise<FileHandle> {
  return open(path, 'wx', mode);
}

/**
 * Opens a file for reading only when it is a regular file: a final link is not followed and a
 * FIFO, device or socket is refused with a clear message (opened non-blocking, so none can hang).
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (err) {
    if (errnoOf(err) === 'ELOOP')
      throw new UnsafePathError(`${path} is a symbolic link; it was not followed`);
    throw err;
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new UnsafePathError(`${path} is not a regular file (a folder, FIFO, device or socket)`);
  }
  return handle;
}

/** `name`, then `name (2).ext`, `name (3).ext`, …: the candidates for a name that is taken. */
export function numberedName(name: string, attempt: number): string {
  if (attempt <= 1) return name;
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)} (${attempt})${ext}`;
}

/** Creates a new file in `folder` named `name`, or `name (2).ext`… when taken: never overwrites. */
export async function createUniqueFile(
  folder: string,
  name: string,
  mode?: number,
): Promise<{ handle: FileHandle; name: string }> {
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const candidate = numberedName(name, attempt);
    try {
      return { handle: await openNewFile(join(folder, candidate), mode), name: candidate };
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw err;
    }
  }
  throw new UnsafePathError(`${folder} already holds ${MAX_NAME_ATTEMPTS} files named like ${name}`);
}

/** Creates a new folder in `parent` named `name`, or `name (2)`… when taken: never reuses one. */
export async function createUniqueFolder(parent: string, name: string): Promise<string> {
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const candidate = join(parent, attempt <= 1 ? name : `${name} (${attempt})`);
    try {
      await mkdir(candidate);
      return candidate;
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw err;
    }
  }
  throw new UnsafePathError(`${parent} already holds ${MAX_NAME_ATTEMPTS} folders named like ${name}`);
}

/** Writes every byte of `bytes`, however many writes it takes. */
export async function writeAll(target: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await target.write(bytes, written, bytes.length - written);
    written += bytesWritten;
  }
}

/** Copies the whole of `source` into `target` from their starts; returns the bytes copied. */
export async function copyOpenFile(source: FileHandle, target: FileHandle): Promise<number> {
  let size = 0;
  for (;;) {
    const chunk = await readAt(source, size, COPY_CHUNK_BYTES);
    if (chunk.length === 0) return size;
    await writeAll(target, chunk);
    size += chunk.length;
  }
}
