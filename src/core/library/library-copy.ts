/**
 * The library's input files, one per content: `inputs/<sha256>.<ext>` (the SHA-256 of the bytes,
 * the extension sniffed from them), shared by every task that uses the same picture or sound.
 * A validated local file is hashed first (checking it is still what was validated), and copied
 * only when the library does not hold those bytes yet; decoded Base64 is written the same way.
 * A file is written into a temp file in the input folder, flushed to disk, then renamed into
 * place: the name comes from the content, never from the source path or the input field.
 */

import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, lstat, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Base64DecodeError,
  decodeBase64Strict,
  type FileInput,
  IMAGE_HEAD_BYTES,
  inputProblem,
  parseDataUri,
  readAt,
  type SniffedType,
  sniffFileType,
} from '../inputs/index.ts';
import { ensureFolderBelow, openNewFile, writeAll } from './safe-files.ts';

/** The library folder of input files. */
export const INPUTS_FOLDER = 'inputs';

/** The hash and length of an input's bytes. */
export interface ContentHash {
  /** Lower-case hex SHA-256. */
  sha256: string;
  size: number;
}

const COPY_CHUNK_BYTES = 256 * 1024;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const SAFE_EXT = /^[a-z0-9]{1,8}$/;
const CONTENT_INPUT_PATH = /^inputs\/[0-9a-f]{64}\.[a-z0-9]{1,8}$/;

/** The library path (`inputs/<sha256>.<ext>`) of an input of this content. */
export function contentInputPath(sha256: string, ext: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  if (!SAFE_EXT.test(ext)) throw new Error(`unsafe file extension: ${ext}`);
  return `${INPUTS_FOLDER}/${sha256}.${ext}`;
}

/** Whether a stored path is an input file named by its content (nothing else matches, nothing outside `inputs/`). */
export function isContentInputPath(storedPath: string): boolean {
  return CONTENT_INPUT_PATH.test(storedPath);
}

/**
 * Hashes a validated local file. Fails when it no longer matches what was validated (size or
 * type), or is gone.
 */
export async function hashFileInput(input: FileInput): Promise<ContentHash> {
  const source = await openSource(input);
  try {
    return await readHashing(source, input, null);
  } finally {
    await source.close();
  }
}

/**
 * True when the library already holds the input file `storedPath` (a content path) as a regular
 * file of `size` bytes. A link, a folder or a file of another length there is not it, and is
 * replaced when the input is written.
 */
export async function hasInputFile(libraryDir: string, storedPath: string, size: number): Promise<boolean> {
  if (!isContentInputPath(storedPath)) return false;
  try {
    const stats = await lstat(join(libraryDir, ...storedPath.split('/')));
    return stats.isFile() && stats.size === size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Copies a validated local file to the content path `storedPath`. Fails (leaving nothing behind)
 * when the bytes read are not the ones hashed before (`expected`): the file changed meanwhile.
 */
export async function copyFileInput(
  libraryDir: string,
  input: FileInput,
  storedPath: string,
  expected: ContentHash,
): Promise<void> {
  const source = await openSource(input);
  try {
    await writeInputFile(libraryDir, storedPath, async (target) => {
      const copied = await readHashing(source, input, target);
      if (copied.sha256 !== expected.sha256 || copied.size !== expected.size) {
        throw inputProblem(input.field, `file changed since it was checked: ${input.path}`);
      }
    });
  } finally {
    await source.close();
  }
}

/** Writes decoded bytes to the content path `storedPath`. */
export async function writeInputBytes(
  libraryDir: string,
  storedPath: string,
  bytes: Uint8Array,
): Promise<void> {
  await writeInputFile(libraryDir, storedPath, (target) => writeAll(target, bytes));
}

/** Where a kept input lies in the library (its content path) and the hash that names it. */
export interface KeptInput {
  path: string;
  hash: ContentHash;
}

/**
 * Keeps a validated local file as the library file of its content: hashes it, gives its content
 * path to `hold` (before looking, so nothing removes it meanwhile), and copies it only when the
 * library does not hold those bytes yet.
 */
export async function keepFileInput(
  libraryDir: string,
  input: FileInput,
  hold: (storedPath: string) => void,
): Promise<KeptInput> {
  const hash = await hashFileInput(input);
  const path = await keepContent(libraryDir, hash, input.ext, hold, (to) =>
    copyFileInput(libraryDir, input, to, hash),
  );
  return { path, hash };
}

/** Keeps decoded bytes (their sniffed extension `ext`) the same way as `keepFileInput`. */
export async function keepInputBytes(
  libraryDir: string,
  bytes: Uint8Array,
  ext: string,
  hold: (storedPath: string) => void,
): Promise<KeptInput> {
  const hash = hashBytes(bytes);
  const path = await keepContent(libraryDir, hash, ext, hold, (to) => writeInputBytes(libraryDir, to, bytes));
  return { path, hash };
}

/** The content path of `hash`, held by `hold`, then written by `write` unless the library has it. */
async function keepContent(
  libraryDir: string,
  hash: ContentHash,
  ext: string,
  hold: (storedPath: string) => void,
  write: (storedPath: string) => Promise<void>,
): Promise<string> {
  const path = contentInputPath(hash.sha256, ext);
  hold(path);
  if (!(await hasInputFile(libraryDir, path, hash.size))) await write(path);
  return path;
}

/** The bytes of a Base64 input (raw Base64 or a `data:` URI) and their sniffed type. */
export function decodeBase64Input(text: string): { bytes: Uint8Array; type: SniffedType | null } {
  const trimmed = text.trim();
  const base64 = /^data:/i.test(trimmed) ? parseDataUri(trimmed).base64 : trimmed;
  const bytes = decodeBase64Strict(base64);
  if (bytes.length === 0) throw new Base64DecodeError('the Base64 data is empty');
  return { bytes, type: sniffFileType(bytes.subarray(0, IMAGE_HEAD_BYTES)) };
}

/** SHA-256 of bytes in memory. */
export function hashBytes(bytes: Uint8Array): ContentHash {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/**
 * Makes the input folder (mode 0700, no planted link followed), fills a new temp file there
 * (0600, never an existing file or link), flushes it, and renames it onto `storedPath`.
 */
async function writeInputFile(
  libraryDir: string,
  storedPath: string,
  fill: (target: FileHandle) => Promise<void>,
): Promise<void> {
  if (!isContentInputPath(storedPath)) throw new Error(`not an input content path: ${storedPath}`);
  const folder = join(libraryDir, INPUTS_FOLDER);
  await ensureFolderBelow(libraryDir, folder);
  const finalPath = join(libraryDir, ...storedPath.split('/'));
  const tempPath = join(folder, `.${randomUUID()}.partial`);
  try {
    const target = await openNewFile(tempPath);
    try {
      await fill(target);
      await target.sync();
    } finally {
      await target.close();
    }
    await rename(tempPath, finalPath);
    await syncDirectory(folder);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}

async function openSource(input: FileInput): Promise<FileHandle> {
  try {
    return await open(input.path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw inputProblem(input.field, `file not found: ${input.path}`);
    throw error;
  }
}

/** Reads the whole source, hashing it (and writing it to `target` when given). */
async function readHashing(
  source: FileHandle,
  input: FileInput,
  target: FileHandle | null,
): Promise<ContentHash> {
  const hash = createHash('sha256');
  let size = 0;
  for (;;) {
    const chunk = await readAt(source, size, COPY_CHUNK_BYTES);
    if (chunk.length === 0) break;
    if (size === 0) checkStillSameType(chunk, input);
    hash.update(chunk);
    if (target) await writeAll(target, chunk);
    size += chunk.length;
  }
  if (size !== input.size) {
    throw inputProblem(input.field, `file changed since it was checked: ${input.path}`);
  }
  return { sha256: hash.digest('hex'), size };
}

function checkStillSameType(head: Uint8Array, input: FileInput): void {
  if (sniffFileType(head)?.mime !== input.mime) {
    throw inputProblem(input.field, `file changed since it was checked: ${input.path}`);
  }
}

/** Makes the rename durable. Not every platform can open a folder (Windows cannot): best effort. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // durability of the rename is best effort
  } finally {
    await handle?.close();
  }
}
