/**
 * Shared set-up for backend tests: a temporary user-data folder, the Node adapters, a backend
 * tuned to poll fast with a fast sandbox, pictures made with sharp, and waiting helpers (for a
 * condition, for a task to be saved).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import sharp from 'sharp';
import { expect } from 'vitest';
import {
  createStudioBackend,
  type StudioBackend,
  type StudioBackendOptions,
} from '../../src/main/backend/index.ts';
import { createStudioBridge } from '../../src/preload/studio-bridge.ts';
import type {
  StudioBridge,
  StudioEventName,
  StudioEvents,
  StudioResult,
  Task,
} from '../../src/shared/index.ts';
import { FAST_POLLING } from '../support/fast-polling.ts';
import { FileKeyVault, RecordingShell, ScriptedDialogs } from '../support/node-adapters.ts';
import { createNodeSettingsFile } from '../support/node-settings-file.ts';
import { waitUntil } from '../support/wait-until.ts';

export const FAST_ENGINE = {
  polling: FAST_POLLING,
  fetchesPerSecond: 200,
  offlineBackoff: { baseMs: 50, maxMs: 200 },
  clientRetry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
};

export async function tempDir(prefix = 'mts-backend-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface Harness {
  backend: StudioBackend;
  userDataDir: string;
  dialogs: ScriptedDialogs;
  shell: RecordingShell;
  secrets: FileKeyVault;
  events: { event: StudioEventName; payload: unknown }[];
  results: unknown[];
  logs: string[];
  call<T = unknown>(name: string, args?: unknown): Promise<StudioResult<T>>;
  /** The value of a call that must succeed. */
  ok<T = unknown>(name: string, args?: unknown): Promise<T>;
}

export async function openBackend(
  userDataDir: string,
  extra: Partial<StudioBackendOptions> = {},
): Promise<Harness> {
  const dialogs = new ScriptedDialogs(null);
  const shell = new RecordingShell();
  const secrets = new FileKeyVault(userDataDir);
  const logs: string[] = [];
  const backend = await createStudioBackend({
    userDataDir,
    secrets,
    settings: createNodeSettingsFile(userDataDir),
    dialogs,
    shell,
    appVersion: '9.9.9',
    platform: 'linux',
    mediaBaseUrl: 'studio-media://library/',
    sandboxTimeScale: 0.02,
    sandboxGenerationWorkers: 0,
    engineTuning: FAST_ENGINE,
    log: (line) => logs.push(line),
    ...extra,
  });
  const events: Harness['events'] = [];
  const names: StudioEventName[] = ['tasks.changed', 'engine.status', 'settings.changed', 'menu.command'];
  for (const event of names)
    backend.on(event, (payload: StudioEvents[typeof event]) => {
      expectSurvivesIpc(payload, `the ${event} event`);
      events.push({ event, payload });
    });
  const results: unknown[] = [];
  const call = async <T>(name: string, args: unknown = {}) => {
    const r = (await backend.handle(name, args)) as StudioResult<T>;
    expectSurvivesIpc(r, `the result of ${name}`);
    results.push(r);
    return r;
  };
  const ok = async <T>(name: string, args: unknown = {}) => {
    const r = await call<T>(name, args);
    if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r.error)}`);
    return r.value;
  };
  return { backend, userDataDir, dialogs, shell, secrets, events, results, logs, call, ok };
}

/**
 * The bridge the preload gives the window (createStudioBridge), over this backend instead of
 * Electron's IPC: a test of the window's state (src/renderer/src/state) on Node sets it as
 * `window.studio` and reaches exactly what the window can.
 */
export function windowBridge(h: Harness): StudioBridge {
  const name = (channel: string) => channel.replace(/^studio:/, '');
  return createStudioBridge({
    invoke: (channel, args) => h.backend.handle(name(channel), args),
    subscribe: (channel, listener) => h.backend.on(name(channel) as StudioEventName, listener),
    pathForFile: () => '',
    grantFile: (path) => h.backend.grantDroppedFile(path),
  });
}

/** A backend open on a temporary user-data folder of its own. */
export interface BackendRig {
  dir: string;
  h: Harness;
}

/**
 * A temporary user-data folder and a backend open on it (the folder is removed again if the
 * backend does not open). For a beforeAll: `({ dir, h } = await openBackendRig())`.
 */
export async function openBackendRig(prefix?: string): Promise<BackendRig> {
  const dir = await tempDir(prefix);
  try {
    return { dir, h: await openBackend(dir) };
  } catch (err) {
    await removeDir(dir);
    throw err;
  }
}

/** Closes the backend and removes its folder. For an afterAll. */
export async function closeBackendRig({ dir, h }: BackendRig): Promise<void> {
  await h?.backend.close();
  await removeDir(dir);
}

/**
 * Electron carries IPC results and events with the structured clone algorithm: a class instance
 * arrives as a plain object, a function or a symbol throws, an Error loses its extra fields.
 * Every result and event the backend tests see must come through a clone unchanged (compared
 * strictly, so prototypes count).
 */
export function expectSurvivesIpc(value: unknown, what: string): void {
  let copy: unknown;
  try {
    copy = deserialize(serialize(value));
  } catch (err) {
    throw new Error(`${what} cannot cross Electron's IPC: ${(err as Error).message}`);
  }
  expect(copy, `${what} changes when it crosses Electron's IPC`).toStrictEqual(value);
}

/** Waits until the task is saved, asking the backend as the window would, and returns it. */
export function savedTask(h: Harness, id: string, what = `task ${id} to be saved`): Promise<Task> {
  return waitUntil(
    async () => {
      const t = await h.ok<Task | null>('tasks.get', { id });
      return t?.state === 'saved' ? t : null;
    },
    what,
    12_000,
  );
}

export async function writePng(path: string, width: number, height: number): Promise<string> {
  await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toFile(path);
  return path;
}

export const SONG = {
  model: 'service/ace-step',
  taskType: 'txt2audio',
  input: { style_prompt: 'calm piano', lyrics: '[verse]\nhello there', duration: 10 },
};

export { waitUntil };
