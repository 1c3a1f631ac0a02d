/**
 * The test's side of the stand-in: builds the app with electron-vite's own `build` API (main,
 * preload and renderer, about 2 s, into a folder of its own under out/ so the bundle resolves
 * the repository's node_modules), and runs the built main file in a child `node` through
 * run-app.ts, talking to it over the IPC channel. Every wait is bounded.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StandInRecord } from './runtime.ts';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const RUN_APP = join(import.meta.dirname, 'run-app.ts');

/** The built app: main, preload and renderer folders as electron-vite lays them out. */
export interface BuiltApp {
  outDir: string;
  mainFile: string;
  preloadFile: string;
  rendererDir: string;
}

/** Builds the app into a new folder under out/ (removed by `removeBuild`). */
export async function buildApp(timeoutMs = 90_000): Promise<BuiltApp> {
  const outDir = await mkdtemp(join(REPO_ROOT, 'out', 'stand-in-build-'));
  // a child process: electron-vite sets NODE_ENV and other process-wide state while it builds
  const script = [
    "import { build } from 'electron-vite';",
    `await build({ configFile: ${JSON.stringify(join(REPO_ROOT, 'electron.vite.config.ts'))},`,
    `  build: { outDir: ${JSON.stringify(outDir)} }, logLevel: 'warn' });`,
  ].join('\n');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: REPO_ROOT, timeout: timeoutMs, maxBuffer: 10 * 1024 * 1024 },
      (err, _stdout, stderr) =>
        err ? reject(new Error(`electron-vite build failed: ${err.message}\n${stderr}`)) : resolve(),
    );
  });
  return {
    outDir,
    mainFile: join(outDir, 'main', 'index.js'),
    preloadFile: join(outDir, 'preload', 'index.cjs'),
    rendererDir: join(outDir, 'renderer'),
  };
}

export async function removeBuild(built: BuiltApp | undefined): Promise<void> {
  if (built) await rm(built.outDir, { recursive: true, force: true });
}

/** One record of the stand-in, as runtime.ts keeps it. */
export type { StandInRecord };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process ended. */
  at: number;
}

export interface StartOptions {
  built: BuiltApp;
  userDataDir: string;
  /** STAND_IN_* settings (see runtime.ts), e.g. STAND_IN_PLATFORM: 'win32'. */
  env?: Record<string, string>;
  logFile?: string;
}

type Reply = { type: 'reply'; id: number; ok: boolean; value?: unknown; error?: string };
type Notice = { type: 'event'; name: string; detail: unknown };

/** A running app in a child process. */
export class AppProcess {
  readonly child: ChildProcess;
  /** Milestones the stand-in announced (`ready`, `quit`, …), in order. */
  readonly notices: string[] = [];
  output = '';
  readonly exited: Promise<Exit>;
  #nextId = 1;
  readonly #pending = new Map<number, (reply: Reply) => void>();
  /** Woken by every notice, every chunk of output and the exit. */
  readonly #waiters = new Set<() => void>();
  #exit: Exit | null = null;

  constructor(options: StartOptions) {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const name of [
      'ELECTRON_RENDERER_URL',
      'ELECTRON_RUN_AS_NODE',
      'ELECTRON_FORCE_IS_PACKAGED',
      'NODE_OPTIONS',
    ]) {
      if (!options.env?.[name]) delete env[name];
    }
    if (options.logFile) env.STAND_IN_LOG = options.logFile;
    const args = [RUN_APP, REPO_ROOT, options.built.mainFile, `--user-data-dir=${options.userDataDir}`];
    this.child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.#collect(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => this.#collect(chunk));
    this.child.on('message', (message: Reply | Notice) => this.#receive(message));
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.#exit = { code, signal, at: performance.now() };
        for (const settle of this.#pending.values())
          settle({ type: 'reply', id: 0, ok: false, error: 'the app exited' });
        this.#pending.clear();
        for (const wake of this.#waiters) wake();
        resolve(this.#exit);
      });
    });
  }

  #collect(chunk: Buffer): void {
    // keep the end: it holds what went wrong
    this.output = (this.output + chunk.toString('utf8')).slice(-20_000);
    for (const wake of this.#waiters) wake();
  }

  #receive(message: Reply | Notice): void {
    if (message.type === 'event') {
      this.notices.push(message.name);
      for (const wake of this.#waiters) wake();
      return;
    }
    this.#pending.get(message.id)?.(message);
    this.#pending.delete(message.id);
  }

  /** Sends a driver command (driver.ts) and waits for its answer. */
  async command<T = unknown>(
    command: string,
    params: Record<string, unknown> = {},
    timeoutMs = 10_000,
  ): Promise<T> {
    if (this.#exit) throw new Error(`the app has exited (code ${this.#exit.code}); output:\n${this.output}`);
    const id = this.#nextId++;
    const reply = await new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve({ type: 'reply', id, ok: false, error: `no answer to ${command} within ${timeoutMs} ms` });
      }, timeoutMs);
      this.#pending.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.child.send({ id, command, params });
    });
    if (!reply.ok) throw new Error(`${command}: ${reply.error}\noutput:\n${this.output}`);
    return reply.value as T;
  }

  /** Waits until the stand-in has announced `name` (bounded). */
  waitForNotice(name: string, timeoutMs = 15_000): Promise<void> {
    return this.#waitUntil(() => this.notices.includes(name), name, timeoutMs);
  }

  /**
   * Waits until the app's output (stdout and stderr) holds `text` (bounded). The output comes
   * on pipes of its own, so a line the app wrote before answering a command may arrive after
   * the answer, which comes over the IPC channel.
   */
  waitForOutput(text: string, timeoutMs = 15_000): Promise<void> {
    return this.#waitUntil(() => this.output.includes(text), `output "${text}"`, timeoutMs);
  }

  async #waitUntil(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!done()) {
      if (this.#exit)
        throw new Error(`the app exited (code ${this.#exit.code}) before ${what}; output:\n${this.output}`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; output:\n${this.output}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  /** Waits for the process to end (bounded); kills it when it does not. */
  async waitForExit(timeoutMs: number): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const exit = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (exit) return exit;
    this.kill();
    throw new Error(`the app did not exit within ${timeoutMs} ms; output:\n${this.output}`);
  }

  /** Ends the child at once (cleanup after a failed test). */
  kill(): void {
    if (!this.#exit && this.child.pid !== undefined) this.child.kill('SIGKILL');
  }
}

/** The stand-in's record (window options, calls, events) as of now. */
export interface Snapshot {
  records: StandInRecord[];
  privilegedSchemes: { scheme: string; privileges?: Record<string, boolean> }[][];
  ipcChannels: string[];
  handledSchemes: string[];
  windows: {
    id: number;
    options: Record<string, unknown> & { webPreferences?: Record<string, unknown> };
    url: string;
    visible: boolean;
    preloadError: string | null;
    exposed: string[];
  }[];
  menu: unknown;
}
