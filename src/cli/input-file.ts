/**
 * Reads a text file named by a CLI option (--prompt-list, --input-json, --lyrics-file, …), with
 * a reason a person can act on when it cannot: only a regular file (opened non-blocking, so a
 * FIFO cannot hang the command and a device such as /dev/zero is never read), at most
 * MAX_TEXT_FILE_BYTES, and UTF-8 text without NUL bytes (a picture given by mistake is not made
 * into prompts).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './cli-args.ts';

/** Most bytes of a text file given to an option (a task.json is at most 2 MB too). */
export const MAX_TEXT_FILE_BYTES = 2_000_000;

const REASONS: Record<string, string> = {
  ENOENT: 'file not found',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** The file's text, or why it cannot be read (a sentence that follows "cannot read FILE: "). */
function textOf(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    if (!stats.isFile()) throw new UsageError('it is not a regular file (a FIFO, device or socket)');
    if (stats.size > MAX_TEXT_FILE_BYTES) {
      throw new UsageError(
        `it is ${stats.size.toLocaleString('en-US')} bytes; a text file given to an option is at most ${MAX_TEXT_FILE_BYTES.toLocaleString('en-US')}`,
      );
    }
    // one byte more than it said: a file that grew meanwhile is still cut at the limit
    const bytes = Buffer.alloc(stats.size + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < bytes.length; length += n) {
      n = readSync(fd, bytes, length, bytes.length - length, null);
    }
    if (length > MAX_TEXT_FILE_BYTES) throw new UsageError('it grew past the limit while it was read');
    const body = bytes.subarray(0, length);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      throw new UsageError('it is not text (UTF-8)');
    }
    if (text.includes('\0')) throw new UsageError('it is not text (UTF-8): it holds NUL bytes');
    return text;
  } finally {
    closeSync(fd);
  }
}

export function readInputFile(option: string, file: string): string {
  try {
    return textOf(resolve(file));
  } catch (err) {
    const why =
      err instanceof UsageError
        ? err.message
        : (REASONS[(err as NodeJS.ErrnoException).code ?? ''] ??
          ((err as NodeJS.ErrnoException).code || String(err)));
    throw new UsageError(`--${option}: cannot read ${file}: ${why}`);
  }
}
