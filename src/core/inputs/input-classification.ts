/**
 * Decides what an input value is: an http(s) URL, a `data:` URI, raw Base64, or a local file
 * path (absolute, or a `file:` URL as some drag sources give). Raw Base64 of a JPEG starts with
 * "/9j/", which is also an absolute POSIX path: such a value is a file only when that file exists.
 * A network (UNC) or device path is refused before anything touches it (local-path-rules.ts): on
 * Windows even a stat() of `\\server\share\x.png` would send the user's NTLM hash to that server.
 */

import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHttpUrl } from '../../shared/catalog/index.ts';
import { type InputMediaKind, mediaKind, sniffFileType } from '../../shared/media/index.ts';
import { countNonWhitespace, hasOnlyBase64Characters } from './base64-strict.ts';
import { localPathProblem } from './local-path-rules.ts';

export type ClassifiedValue =
  | { kind: 'url'; url: string }
  | { kind: 'data-uri'; value: string }
  | { kind: 'base64'; value: string }
  | { kind: 'file'; path: string }
  /** Not usable; `problem` says why (without the field prefix). */
  | { kind: 'refused'; problem: string };

/** Fewest Base64 characters taken as Base64 (12 bytes: shorter than any media header). */
const MIN_BASE64_CHARS = 16;
/** A value this long that is nothing else is taken as (possibly broken) Base64, to name the bad character. */
const LONG_VALUE_CHARS = 256;
/** Longer values are never stat()ed as paths. */
const MAX_PATH_CHARS = 4096;

export async function classifyInputValue(value: string, kind: InputMediaKind): Promise<ClassifiedValue> {
  if (value.trim() === '') return { kind: 'refused', problem: 'no value given' };
  if (/^data:/i.test(value)) return { kind: 'data-uri', value };
  if (/^file:/i.test(value)) return fileUrl(value);
  if (isAbsolute(value)) return absolutePathOrBase64(value);
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return schemeValue(value.trim());
  if (looksLikeBase64(value) || value.length >= LONG_VALUE_CHARS) return { kind: 'base64', value };
  if (/[/\\]/.test(value)) return { kind: 'refused', problem: `file path must be absolute: ${value}` };
  return { kind: 'refused', problem: `not a URL, ${mediaKind(kind).words.base64} or a file path` };
}

function looksLikeBase64(value: string): boolean {
  return hasOnlyBase64Characters(value) && countNonWhitespace(value) >= MIN_BASE64_CHARS;
}

function fileUrl(value: string): ClassifiedValue {
  let path: string;
  try {
    path = fileURLToPath(value);
  } catch {
    return { kind: 'refused', problem: `not a usable local file URL: ${value}` };
  }
  return localFile(path);
}

/** A file path, unless it is a network or device path (refused without touching it). */
function localFile(path: string): ClassifiedValue {
  const problem = localPathProblem(path);
  return problem === null ? { kind: 'file', path } : { kind: 'refused', problem: `${path} ${problem}` };
}

async function absolutePathOrBase64(value: string): Promise<ClassifiedValue> {
  if (!looksLikeBase64(value)) return localFile(value);
  // Base64 of an MP3 starts with "//": never stat() such a value as a (network) path
  if (localPathProblem(value) !== null)
    return startsLikeMedia(value) ? { kind: 'base64', value } : localFile(value);
  if (value.length <= MAX_PATH_CHARS && (await pathExists(value))) return { kind: 'file', path: value };
  return startsLikeMedia(value) ? { kind: 'base64', value } : localFile(value);
}

/**
 * The local file a value would be read from, decided without touching the disk: a `file:` URL
 * or an absolute path, unless it is Base64 of a media file (which can look like a path, e.g.
 * "/9j/" for a JPEG). Null for URLs, data URIs, Base64 and anything else. Callers that must
 * not let an untrusted caller name files (the window) check this before any file call.
 */
export function localPathCandidate(value: string): string | null {
  if (/^file:/i.test(value)) {
    try {
      return fileURLToPath(value);
    } catch {
      return null;
    }
  }
  if (!isAbsolute(value)) return null;
  return looksLikeBase64(value) && startsLikeMedia(value) ? null : value;
}

/**
 * Whether a value carries its media in itself (a `data:` URI, or Base64 whose first bytes are a
 * known media signature), decided without touching the disk: such a value names no file.
 */
export function isInlineMedia(value: string): boolean {
  return /^data:/i.test(value) || (looksLikeBase64(value) && startsLikeMedia(value));
}

/** Whether the first Base64 characters decode to a known media signature. */
function startsLikeMedia(value: string): boolean {
  const start = value.slice(0, 256).replace(/\s/g, '').slice(0, 64);
  return sniffFileType(Buffer.from(start.slice(0, start.length - (start.length % 4)), 'base64')) !== null;
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function schemeValue(value: string): ClassifiedValue {
  if (/^https?:\/\//i.test(value) && isHttpUrl(value)) return { kind: 'url', url: value };
  if (/^https?:/i.test(value)) return { kind: 'refused', problem: `not a valid URL: ${value}` };
  return { kind: 'refused', problem: 'only http and https URLs are accepted' };
}
