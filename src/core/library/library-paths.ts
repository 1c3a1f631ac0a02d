/**
 * The one rule for a path the library database records (an input copy, an output, a thumbnail):
 * `stored library-relative path -> absolute path inside the library, or a refusal`.
 *
 * The database may have been written by someone else (a synced or shared library folder), so a
 * stored path is never trusted: it must be a plain relative path (`/`-separated segments; no
 * `.`/`..`, empty segment, backslash, colon, NUL or control character; not absolute), and its
 * real path (symlinks resolved with realpath on both the library folder and the file) must be a
 * regular file inside the real library folder that is not the library's own database or lock
 * file. Everything that reads, sends, exports or serves a stored path goes through here; a bad one
 * is refused with a message that names it, and is never followed.
 */
import { realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { TaskInput } from '../../shared/index.ts';
import { UnsafePathError } from '../inputs/index.ts';

/** Files of the library itself that no stored path may name. */
const LIBRARY_OWN_FILES = new Set([
  'library.sqlite',
  'library.sqlite-wal',
  'library.sqlite-shm',
  'library.sqlite-journal',
  'engine.lock',
]);

const MAX_STORED_PATH_CHARS = 4096;

/** A stored path the library refuses to use; the message names what and where, and why. */
export class LibraryPathError extends UnsafePathError {
  override name = 'LibraryPathError';
  readonly storedPath: string;
  /** What is wrong with it: `is missing from the library folder`, `leads outside the library folder`, … */
  readonly reason: string;
  constructor(what: string, storedPath: string, reason: string) {
    super(
      `the library records ${what} at ${JSON.stringify(storedPath.slice(0, 300))}, which ${reason}; it was not used`,
    );
    this.storedPath = storedPath;
    this.reason = reason;
  }
}

/** Control characters (NUL included), backslashes (a separator on Windows), colons (drives, streams). */
function hasUnsafeCharacter(segment: string): boolean {
  for (const ch of segment) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || ch === '\\' || ch === ':') return true;
  }
  return false;
}

function unsafeSegment(segment: string): boolean {
  return segment === '' || segment === '.' || segment === '..' || hasUnsafeCharacter(segment);
}

/** The segments of a stored path when it is a plain relative path; null when it is not. */
export function storedPathSegments(storedPath: string): string[] | null {
  if (typeof storedPath !== 'string' || storedPath.length === 0) return null;
  if (storedPath.length > MAX_STORED_PATH_CHARS) return null;
  const segments = storedPath.split('/');
  return segments.some(unsafeSegment) ? null : segments;
}

/** Whether `candidate` lies strictly below `root` (both absolute, both real paths). */
export function isInsideFolder(root: string, candidate: string): boolean {
  const base = root.endsWith(sep) ? root : root + sep;
  return candidate.startsWith(base);
}

/** realpath, or null when the path does not exist (or cannot be resolved). */
function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The real absolute path of the file a stored path names, inside the library; throws
 * LibraryPathError (naming `what`, e.g. `input "target_image"`) for a path that is not a plain
 * relative path, leads outside the library (`..`, a link), is missing, is not a regular file, or
 * is the library's database or lock file.
 */
export function libraryFileOf(libraryDir: string, storedPath: string, what = 'a file'): string {
  const segments = storedPathSegments(storedPath);
  if (segments === null)
    throw new LibraryPathError(what, String(storedPath), 'is not a plain path inside the library');
  const realRoot = realpathOrNull(libraryDir);
  if (realRoot === null)
    throw new LibraryPathError(what, storedPath, 'is in a library folder that is missing');
  const realFile = realpathOrNull(join(realRoot, ...segments));
  if (realFile === null) throw new LibraryPathError(what, storedPath, 'is missing from the library folder');
  if (!isInsideFolder(realRoot, realFile)) {
    throw new LibraryPathError(what, storedPath, 'leads outside the library folder');
  }
  if (LIBRARY_OWN_FILES.has(relative(realRoot, realFile))) {
    throw new LibraryPathError(what, storedPath, 'is the library’s own database or lock file');
  }
  if (!statSync(realFile, { throwIfNoEntry: false })?.isFile())
    throw new LibraryPathError(what, storedPath, 'is not a regular file');
  return realFile;
}

/** Like libraryFileOf, with null instead of a refusal (for callers that answer "not found"). */
export function resolveLibraryFile(libraryDir: string, storedPath: string): string | null {
  try {
    return libraryFileOf(libraryDir, storedPath);
  } catch (err) {
    if (err instanceof LibraryPathError) return null;
    throw err;
  }
}

/** Field -> real absolute path of every local file input of a task; throws LibraryPathError for a bad one. */
export function storedInputFiles(libraryDir: string, inputs: readonly TaskInput[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const input of inputs) {
    if (input.source !== 'file') continue;
    files[input.field] = libraryFileOf(libraryDir, input.value, `input ${JSON.stringify(input.field)}`);
  }
  return files;
}
