/**
 * Maps the path part of a media URL (`studio-media://library/<path>` in the app, an HTTP path
 * in the browser harness) to a file under the library folder, and refuses everything else:
 * undecodable escapes, NUL, backslashes, `.` and `..` segments, absolute or drive paths, files
 * that are not media (the database, the lock file), and symlinks whose target leaves the library.
 * The containment rule itself (realpath on both sides) is the one every stored library path goes
 * through: `resolveLibraryFile` in library-paths.ts.
 */
import { extname } from 'node:path';
import { MEDIA_KIND_TABLE, MEDIA_KINDS } from '../../shared/media/index.ts';
import { resolveLibraryFile } from './library-paths.ts';

/**
 * The media types the library holds, by extension (the only files ever served): every format of
 * the media table's kinds (src/shared/media), a plain file's `.bin` never.
 */
export const MEDIA_TYPES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    MEDIA_KINDS.flatMap((kind) =>
      kind === 'file'
        ? []
        : MEDIA_KIND_TABLE[kind].formats.flatMap((f) =>
            [f.ext, ...(f.otherExts ?? [])].map((ext) => [ext, f.mime]),
          ),
    ),
  ),
);

/** The media type of a file by its extension; null when it is not a media file. */
export function mediaTypeOf(path: string): string | null {
  const ext = extname(path).slice(1).toLowerCase();
  return Object.hasOwn(MEDIA_TYPES, ext) ? (MEDIA_TYPES[ext] ?? null) : null;
}

/** The library-relative path of a URL path, or null when it is not a plain relative path. */
export function libraryRelativePath(urlPath: string): string | null {
  if (typeof urlPath !== 'string' || urlPath.length === 0 || urlPath.length > 4096) return null;
  const trimmed = urlPath.startsWith('/') ? urlPath.slice(1) : urlPath;
  if (trimmed === '') return null;
  const segments: string[] = [];
  for (const raw of trimmed.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..') return null;
    if (segment.includes('\0') || segment.includes('/') || segment.includes('\\')) return null;
    if (/^[A-Za-z]:/.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join('/');
}

/** The real absolute path of a media file under `libraryDir`, or null. */
export function resolveLibraryMediaPath(libraryDir: string, urlPath: string): string | null {
  const relative = libraryRelativePath(urlPath);
  if (relative === null || mediaTypeOf(relative) === null) return null;
  const realFile = resolveLibraryFile(libraryDir, relative);
  return realFile !== null && mediaTypeOf(realFile) !== null ? realFile : null;
}
