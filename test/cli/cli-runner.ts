/** Runs `media-task` as a user would: a child process in `cwd`, with no key from the environment. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

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
