/** Reads a text file named by a CLI option, with a reason a person can act on when it cannot. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './cli-args.ts';

const REASONS: Record<string, string> = {
  ENOENT: 'file not found',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

export function readInputFile(option: string, file: string): string {
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`--${option}: cannot read ${file}: ${REASONS[code] ?? (code || String(err))}`);
  }
}
