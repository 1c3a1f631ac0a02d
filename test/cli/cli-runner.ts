/**
 * Runs `media-task` as a user would: a child process in `cwd`, with no key from the environment
 * (`runCli`); or its `main` called in this process (`callCliMain`), through the same parts (the
 * real sandbox over HTTP, the real library files); and the working folder and real sandbox a
 * CLI test file runs it against.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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

/** What one `callCliMain` call has printed so far. */
interface Printed {
  stdout: string;
  stderr: string;
}

/** The call whose code is running: its writes to stdout and stderr are its own, whatever else runs meanwhile. */
const printedHere = new AsyncLocalStorage<Printed>();

/** Sends what a call's code writes to stdout or stderr into the call's `Printed`; other writes pass. */
function catchPrinting(): void {
  for (const [stream, key] of [
    [process.stdout, 'stdout'],
    [process.stderr, 'stderr'],
  ] as const) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const printed = printedHere.getStore();
      if (!printed) return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      printed[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof stream.write;
  }
}
let catching = false;

/** The working folder the running calls share, how many they are, and when the last has ended. */
let folder: { cwd: string; before: string; calls: number; left: Promise<void>; leave: () => void } | null =
  null;

/** Makes `cwd` the working folder for one more call, once calls in another folder have ended. */
async function enterFolder(cwd: string): Promise<void> {
  while (folder && folder.cwd !== cwd) await folder.left;
  if (!folder) {
    let leave = () => {};
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    folder = { cwd, before: process.cwd(), calls: 0, left, leave };
    process.chdir(cwd);
  }
  folder.calls++;
}

function leaveFolder(): void {
  if (!folder || --folder.calls > 0) return;
  const { before, leave } = folder;
  folder = null;
  process.chdir(before);
  leave();
}

/**
 * `media-task args` without a process: `main` called here with `cwd` as the working folder and the
 * environment `runCli` gives, what it prints to stdout and stderr caught (by its async context, so
 * calls may run at once, and the test's own output is not mixed in), and a thrown error printed
 * and turned into the exit code as `src/cli/media-task.ts` does. A launch costs 250-550 ms of
 * CPU; this, a few ms. What depends on being a process (the executable itself, its exit, a lock
 * held by another process, signals) keeps `runCli`. Calls in another working folder wait.
 */
export async function callCliMain(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  if (!catching) {
    catchPrinting();
    catching = true;
  }
  const printed: Printed = { stdout: '', stderr: '' };
  await enterFolder(cwd);
  try {
    const code = await printedHere.run(printed, async () => {
      try {
        return await main(args, commandEnv(env));
      } catch (error) {
        // as src/cli/media-task.ts does
        const exitCode = exitCodeOf(error);
        const message = messageOf(error);
        printErr(
          args.includes('--json')
            ? `${terminalJson({ error: { message, exitCode } })}\n`
            : `media-task: ${message}\n`,
        );
        return exitCode;
      }
    });
    return { code, ...printed };
  } finally {
    leaveFolder();
  }
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
