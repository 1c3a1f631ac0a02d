/**
 * A copy of a file with a few byte edits: the way an export writes a result with its task's
 * parameters inside (embedded-params.ts) without ever touching the library's own file. An edit
 * replaces `remove` bytes at `at` with `insert` (a same-length patch of a size field, or an
 * insertion with `remove` 0). The source is read in chunks by position, never whole.
 */
import type { FileHandle } from 'node:fs/promises';
import type { ReadBytesAt } from '../inputs/mp4-facts.ts';
import { readAt } from '../inputs/positional-read.ts';
import { writeAll } from '../library/safe-files.ts';

export interface ByteEdit {
  /** Where in the source the edit is. */
  at: number;
  /** Source bytes it replaces (0: an insertion). */
  remove: number;
  insert: Uint8Array;
}

export type { ReadBytesAt };

const CHUNK_BYTES = 256 * 1024;

/** Edits in source order that do not overlap; throws otherwise (a bug of the planner, not the file). */
function ordered(edits: readonly ByteEdit[], size: number): ByteEdit[] {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  let end = 0;
  for (const edit of sorted) {
    if (edit.at < end || edit.at + edit.remove > size)
      throw new Error('byte edits overlap or run past the file');
    end = edit.at + edit.remove;
  }
  return sorted;
}

/** Copies `size` bytes of `source` into `target` with `edits` applied; returns the bytes written. */
export async function copyWithEdits(
  source: FileHandle,
  size: number,
  target: FileHandle,
  edits: readonly ByteEdit[],
): Promise<number> {
  let written = 0;
  let at = 0;
  const copyUpTo = async (end: number) => {
    while (at < end) {
      const chunk = await readAt(source, at, Math.min(CHUNK_BYTES, end - at));
      if (chunk.length === 0) throw new Error('the file got shorter while it was copied');
      await writeAll(target, chunk);
      at += chunk.length;
      written += chunk.length;
    }
  };
  for (const edit of ordered(edits, size)) {
    await copyUpTo(edit.at);
    await writeAll(target, edit.insert);
    written += edit.insert.length;
    at += edit.remove;
  }
  await copyUpTo(size);
  return written;
}

/** Bytes in memory with `edits` applied (tests, and small files). */
export function applyEdits(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const edit of ordered(edits, bytes.length)) {
    parts.push(bytes.subarray(at, edit.at), edit.insert);
    at = edit.at + edit.remove;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

/** A source over bytes in memory. */
export function bytesSource(bytes: Uint8Array): ReadBytesAt {
  return async (position, length) => bytes.subarray(position, position + length);
}

/** A source over an open file. */
export function fileSource(handle: FileHandle): ReadBytesAt {
  return (position, length) => readAt(handle, position, length);
}

export function uint32beBytes(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

export function uint32leBytes(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}
