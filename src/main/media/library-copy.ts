/**
 * Copies a validated local file into the library when its task is queued, so the queue survives
 * the original being moved or deleted. The copy is streamed through a SHA-256 hash into a temp
 * file in the destination folder, flushed to disk, then renamed into place as `<field>.<ext>`:
 * the name comes from the input field and the sniffed extension, never from the source path.
 */

import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sniffFileType } from './file-type-sniffing.ts';
import type { FileInput } from './input-validation.ts';
import { inputProblem } from './input-validation-error.ts';
import { readAt } from './positional-read.ts';
import { openNewFile, PRIVATE_FOLDER_MODE, writeAll } from './safe-files.ts';

export interface LibraryCopy {
  /** Absolute path of the copy. */
  path: string;
  /** Lower-case hex SHA-256 of the copied bytes. */
  sha256: string;
  size: number;
}

const COPY_CHUNK_BYTES = 256 * 1024;
const SAFE_FIELD = /^[A-Za-z0-9_-]{1,64}$/;
const SAFE_EXT = /^[a-z0-9]{1,8}$/;

/**
 * `destDir` is the task's own folder (created when missing); an earlier copy of the same field
 * there is replaced. Fails when the source no longer matches what was validated (size or type).
 */
export async function copyIntoLibrary(input: FileInput, destDir: string): Promise<LibraryCopy> {
  if (!SAFE_FIELD.test(input.field)) throw new Error(`unsafe input field name for a file: ${input.field}`);
  if (!SAFE_EXT.test(input.ext)) throw new Error(`unsafe file extension: ${input.ext}`);
  await mkdir(destDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const finalPath = join(destDir, `${input.field}.${input.ext}`);
  const tempPath = join(destDir, `.${input.field}.${randomUUID()}.partial`);
  try {
    const { sha256, size } = await copyToNewFile(input, tempPath);
    await rename(tempPath, finalPath);
    await syncDirectory(destDir);
    return { path: finalPath, sha256, size };
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}

async function copyToNewFile(input: FileInput, tempPath: string): Promise<{ sha256: string; size: number }> {
  const source = await openSource(input);
  try {
    const target = await openNewFile(tempPath); // owner-only (0600), never over an existing file
    try {
      const result = await copyHashing(source, target, input);
      await target.sync();
      return result;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
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

async function copyHashing(
  source: FileHandle,
  target: FileHandle,
  input: FileInput,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for (;;) {
    const chunk = await readAt(source, size, COPY_CHUNK_BYTES);
    if (chunk.length === 0) break;
    if (size === 0) checkStillSameType(chunk, input);
    hash.update(chunk);
    await writeAll(target, chunk);
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
