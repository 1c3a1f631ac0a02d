/**
 * Runs `media-task` as a user would: a child process in `cwd`, with no key from the environment
 * (`runCli`); or its `main` called in this process (`callCliMain`), through the same parts (the
 * real sandbox over HTTP, the real library files); and the working folder and real sandbox a
 * CLI test file runs it against.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { exitCodeOf, main, messageOf } from '../../src/cli/main.ts';
import { printErr, terminalJson } from '../../src/cli/terminal-output.ts';
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
      env: commandEnv(env),
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

/** The environment a command gets: this process's, with no key or service address of its own. */
function commandEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, MEDIA_TASK_API_KEY: '', MEDIA_TASK_BASE_URL: '', ...env };
}

/** The call of `callCliMain` running now: they take turns, as each holds stdout, stderr and the working folder. */
let turn: Promise<unknown> = Promise.resolve();

/**
 * `media-task args` without a process: `main` called here with `cwd` as the working folder and the
 * environment `runCli` gives, stdout and stderr caught while it runs, and a thrown error printed
 * and turned into the exit code as `src/cli/media-task.ts` does. A launch costs about 250-550 ms
 * of CPU; this, a few ms. What depends on being a process (the executable itself, its exit, a
 * lock held by another process, signals) keeps `runCli`. Calls take turns; the test's own output
 * (an engine's log) written while one runs would be caught with it, so nothing else of the test
 * may run meanwhile.
 */
export function callCliMain(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const call = turn.then(() => callMainNow(cwd, args, env));
  turn = call.catch(() => undefined);
  return call;
}

async function callMainNow(cwd: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const { stdout: out, stderr: err } = process;
  const writeOut = out.write;
  const writeErr = err.write;
  const folder = process.cwd();
  out.write = ((chunk: string | Uint8Array) => {
    stdout += chunk;
    return true;
  }) as typeof out.write;
  err.write = ((chunk: string | Uint8Array) => {
    stderr += chunk;
    return true;
  }) as typeof err.write;
  let code: number;
  try {
    process.chdir(cwd);
    code = await main(args, commandEnv(env));
  } catch (error) {
    // as src/cli/media-task.ts does
    code = exitCodeOf(error);
    const message = messageOf(error);
    printErr(
      args.includes('--json')
        ? `${terminalJson({ error: { message, exitCode: code } })}\n`
        : `media-task: ${message}\n`,
    );
  } finally {
    process.chdir(folder);
    out.write = writeOut;
    err.write = writeErr;
  }
  return { code, stdout, stderr };
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
