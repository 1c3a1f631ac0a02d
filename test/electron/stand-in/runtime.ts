/**
 * The stand-in's shared state: what the app did (the record), whether the app is ready, the
 * settings the test chose (platform, packaged, lock, keychain), the "message loop" that keeps
 * the process alive like Electron's does, and the way out (`finish`). Every other stand-in
 * module imports this one; nothing here imports electron.
 */
import { writeFileSync } from 'node:fs';

/** One thing that happened: an API call by the app, an event emitted, or a driver action. */
export interface StandInRecord {
  seq: number;
  /** Milliseconds since the stand-in was loaded. */
  at: number;
  kind: 'call' | 'event' | 'action' | 'note';
  name: string;
  detail: unknown;
  /** Whether the app had emitted `ready` when this happened. */
  ready: boolean;
}

export interface StandInConfig {
  /** The folder of the app's package.json (what `electron <folder>` is given). */
  appDir: string;
  /** The app's main file (the built bundle). */
  mainFile: string;
  /** From `--user-data-dir=` (Chromium's switch), else null. */
  userDataDir: string | null;
  /** The platform the app's own code sees (`STAND_IN_PLATFORM`, default the real one). */
  platform: NodeJS.Platform;
  /** `app.isPackaged`: true when ELECTRON_FORCE_IS_PACKAGED is set, as in Electron. */
  packaged: boolean;
  /** Whether `requestSingleInstanceLock` finds another instance (`STAND_IN_SINGLE_INSTANCE=taken`). */
  lockTaken: boolean;
  /** What `safeStorage.getSelectedStorageBackend()` reports on Linux (`STAND_IN_KEYCHAIN`). */
  keychain: 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unavailable';
  /** Where the record goes as JSON when the process ends (`STAND_IN_LOG`), or null. */
  logFile: string | null;
}

const KEYCHAINS = new Set([
  'basic_text',
  'gnome_libsecret',
  'kwallet',
  'kwallet5',
  'kwallet6',
  'unavailable',
]);

/** The settings from the child's environment and arguments (read once by run-app.ts). */
export function configFrom(env: NodeJS.ProcessEnv, appDir: string, mainFile: string, argv: string[]) {
  const dataSwitch = argv.find((a) => a.startsWith('--user-data-dir='));
  const keychain = env.STAND_IN_KEYCHAIN ?? 'gnome_libsecret';
  if (!KEYCHAINS.has(keychain)) throw new Error(`STAND_IN_KEYCHAIN: unknown backend ${keychain}`);
  return {
    appDir,
    mainFile,
    userDataDir: dataSwitch ? dataSwitch.slice('--user-data-dir='.length) : null,
    platform: (env.STAND_IN_PLATFORM as NodeJS.Platform | undefined) ?? process.platform,
    packaged: env.ELECTRON_FORCE_IS_PACKAGED !== undefined,
    lockTaken: env.STAND_IN_SINGLE_INSTANCE === 'taken',
    keychain: keychain as StandInConfig['keychain'],
    logFile: env.STAND_IN_LOG ?? null,
  } satisfies StandInConfig;
}

let current: StandInConfig | null = null;

export function configure(next: StandInConfig): void {
  current = next;
}

export function config(): StandInConfig {
  if (!current) throw new Error('the electron stand-in was loaded outside run-app.ts');
  return current;
}

// ---------- the record ----------

const started = performance.now();
const records: StandInRecord[] = [];
let ready = false;

/** Marks objects that describe themselves in the record (windows, web contents, menus). */
export const DESCRIBE = Symbol('stand-in describe');

/** A JSON-safe copy of a value for the record: functions, buffers and stand-in objects by name. */
export function describe(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value !== 'object') return typeof value === 'bigint' ? String(value) : value;
  const own = (value as { [DESCRIBE]?: () => unknown })[DESCRIBE];
  if (typeof own === 'function') return own.call(value);
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
  if (value instanceof Error) return { error: value.message };
  if (depth > 6) return '[deep]';
  if (Array.isArray(value)) return value.map((v) => describe(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = describe(v, depth + 1);
  return out;
}

export function record(kind: StandInRecord['kind'], name: string, detail: unknown = null): void {
  const at = Math.round((performance.now() - started) * 10) / 10;
  records.push({ seq: records.length + 1, at, kind, name, detail: describe(detail), ready });
}

export function recordsSoFar(): StandInRecord[] {
  return records.slice();
}

export function isReady(): boolean {
  return ready;
}

export function markReady(): void {
  ready = true;
}

// ---------- talking to the test ----------

/** Tells the test (the parent process, over the IPC channel) that something happened. */
export function notify(name: string, detail: unknown = null): void {
  if (process.connected) process.send?.({ type: 'event', name, detail: describe(detail) });
}

// ---------- the message loop and the way out ----------

/** Node's own exit, kept before run-app.ts maps process.exit to app.exit as Electron does. */
const nodeExit = process.exit.bind(process);
let loop: NodeJS.Timeout | null = null;

/**
 * Electron's process lives as long as its message loop, not as long as Node has work: an app
 * with nothing to do keeps running until it quits. A long timer stands for that loop.
 */
export function startMessageLoop(): void {
  loop ??= setInterval(() => {}, 1 << 30);
}

/** Writes the record to STAND_IN_LOG (if set). */
export function writeLog(exitCode: number): void {
  const file = current?.logFile;
  if (!file) return;
  const handles = process.getActiveResourcesInfo().filter((h) => h !== 'TTYWrap');
  writeFileSync(file, JSON.stringify({ exitCode, records, activeHandlesAtExit: handles }, null, 1));
}

let finished = false;

/** The end of the process, as when Electron's message loop quits: whatever Node still has open. */
export function finish(exitCode: number): void {
  if (finished) return;
  finished = true;
  record('note', 'process-exit', { exitCode });
  if (loop) clearInterval(loop);
  writeLog(exitCode);
  nodeExit(exitCode);
}
