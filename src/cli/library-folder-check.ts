/**
 * Checks the library folder before the engine opens it, so a file in its place or a folder
 * that cannot be written gives a clear usage error (exit 2) instead of a raw system error. A
 * network (UNC) or device path is refused before anything touches it (local-path-rules.ts).
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { localPathProblem } from '../core/inputs/index.ts';
import { UsageError } from './cli-args.ts';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a parent of it is a file, not a folder',
};

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return REASONS[code] ?? code ?? String(err);
}

export function checkLibraryFolder(dir: string): void {
  const problem = localPathProblem(dir);
  if (problem !== null) throw new UsageError(`library folder ${dir} ${problem}`);
  let isDirectory: boolean | null = null;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new UsageError(`library folder ${dir}: ${reasonOf(err)}`);
    }
  }
  if (isDirectory === false) throw new UsageError(`library folder ${dir} is a file, not a folder`);
  try {
    if (isDirectory === null) {
      accessSync(nearestExisting(dir), constants.W_OK);
      mkdirSync(dir, { recursive: true });
    }
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new UsageError(`library folder ${dir} cannot be written: ${reasonOf(err)}`);
  }
}

function nearestExisting(dir: string): string {
  let current = dirname(dir);
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}
