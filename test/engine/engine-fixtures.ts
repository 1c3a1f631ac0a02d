/**
 * Shared set-up for engine tests: a temporary library, the real sandbox on a free port, an
 * engine tuned to poll fast, what a stand-in service answers (a song's record and file), and a
 * way to wait for states (pictures: test/support/pictures.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type EngineOptions, TaskEngine } from '../../src/core/engine/index.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.ts';
import { encodeWav16 } from '../../src/sandbox/media/wav-encode.ts';
import type { Task, TaskState } from '../../src/shared/index.ts';
import type { RawServer } from '../service/raw-http-server.ts';
import { waitUntil } from '../support/wait-until.ts';

export const API_KEY = 'engine-test-key';

export const FAST_POLLING = {
  minIntervalMs: 40,
  maxIntervalMs: 400,
  elapsedFraction: 0.05,
  firstFetchNoHistoryMs: 40,
  jitter: 0.1,
};

export async function tempDir(prefix = 'mts-engine-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** What an engine test against the real sandbox has open: its folder, the library in it, the sandbox and the engine. */
export interface SandboxRun {
  dir: string;
  lib: string;
  sb: Sandbox | null;
  engine: TaskEngine | null;
}

/**
 * A fresh temporary folder for one test (`lib` is `libPath` inside it), nothing open yet.
 * For a beforeEach: `({ dir, lib, sb, engine } = await freshRun('mts-x-'))`.
 */
export async function freshRun(prefix?: string, ...libPath: string[]): Promise<SandboxRun> {
  const dir = await tempDir(prefix);
  return { dir, lib: join(dir, ...(libPath.length ? libPath : ['lib'])), sb: null, engine: null };
}

/** Closes what a test opened (the engine, then the sandbox) and removes its folder. For an afterEach. */
export async function closeRun({ engine, sb, dir }: Omit<SandboxRun, 'lib'>): Promise<void> {
  await engine?.close();
  await sb?.stop();
  await removeDir(dir);
}

/** What an engine test against a local stand-in service (a raw HTTP server) has open. */
export interface StandIn {
  engine: TaskEngine | null;
  server: RawServer | null;
  dir: string;
}

/**
 * Nothing open yet, and an afterEach that closes what the test set here (the engine, then the
 * stand-in server) and removes the library folder. Call at the top level of a test file.
 */
export function standInClosedAfterEach(): StandIn {
  const open: StandIn = { engine: null, server: null, dir: '' };
  afterEach(async () => {
    await open.engine?.close();
    await open.server?.close();
    if (open.dir) await removeDir(open.dir);
    open.engine = null;
    open.server = null;
  });
  return open;
}

/** The song a stand-in test queues. */
export const SONG = {
  model: 'ace-step',
  taskType: 'txt2audio',
  input: { style_prompt: 'lofi', duration: 5 },
};

/** A one-second 8 kHz tone, the song file a stand-in service serves. */
export const WAV = encodeWav16(
  new Int16Array(8000).map((_, i) => Math.round(Math.sin(i / 8) * 8000)),
  8000,
);

/**
 * A song task's record as the hosted service answers a create or a fetch: the code/message
 * envelope, the ace-step model and task type, null detail, logs and error; `fields` are the
 * rest of the record (config, input, output, meta), in the order given.
 */
export function songRecord(taskId: string, status: string, fields: Record<string, unknown>) {
  return {
    code: 200,
    message: 'success',
    data: {
      task_id: taskId,
      model: 'Qubico/ace-step',
      task_type: 'txt2audio',
      status,
      ...fields,
      detail: null,
      logs: null,
      error: null,
    },
  };
}

export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ apiKey: API_KEY, timeScale: 0.01, ...options });
}

export async function openEngine(libraryDir: string, sb: Sandbox | null, extra: Partial<EngineOptions> = {}) {
  return TaskEngine.open({
    libraryDir,
    service: sb ? { baseUrl: sb.url, apiKey: API_KEY } : null,
    polling: FAST_POLLING,
    fetchesPerSecond: 200,
    offlineBackoff: { baseMs: 50, maxMs: 200 },
    clientRetry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
    ...extra,
  });
}

export function waitForState(
  engine: TaskEngine,
  id: string,
  states: TaskState[],
  timeoutMs = 15_000,
): Promise<Task> {
  return waitUntil(
    () => {
      const t = engine.store.getTask(id);
      return t && states.includes(t.state) ? t : null;
    },
    `task ${id} to reach ${states.join('/')} (now ${engine.store.getTask(id)?.state})`,
    timeoutMs,
    20,
  );
}

export { waitUntil };
