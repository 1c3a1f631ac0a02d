/**
 * Runs `media-task` as a user would: a child process in `cwd`, with no key from the environment;
 * and the working folder and real sandbox a CLI test file runs it against.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.ts';
import { removeDir, sandbox, tempDir } from '../engine/engine-fixtures.ts';

const CLI = join(import.meta.dirname, '../../src/cli/media-task.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, MEDIA_TASK_API_KEY: '', MEDIA_TASK_BASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** What a CLI test file has open for all its tests: its working folder and the sandbox its commands reach. */
export interface CliRig {
  dir: string;
  sb: Sandbox;
}

/**
 * A temporary working folder, then the real sandbox (engine-fixtures' `sandbox`, with `options`;
 * the folder is removed again if the sandbox does not start). For a beforeAll:
 * `({ dir, sb } = await openCliRig('mts-cli-x-'))`.
 */
export async function openCliRig(prefix: string, options: SandboxOptions = {}): Promise<CliRig> {
  const dir = await tempDir(prefix);
  try {
    return { dir, sb: await sandbox(options) };
  } catch (err) {
    await removeDir(dir);
    throw err;
  }
}

/** Stops the sandbox and removes the folder. For an afterAll. */
export async function closeCliRig({ dir, sb }: CliRig): Promise<void> {
  await sb?.stop();
  await removeDir(dir);
}
