/**
 * One running studio for a browser test file: temp folders, the REAL studio backend (engine,
 * SQLite library, sandbox), the HTTP server the page loads the built renderer from, and a
 * Chromium page whose `window.studio` bridge forwards to the backend.
 *
 * Services a rig can run against:
 * - `first-run`: a brand-new user: no key, settings untouched, so the backend starts its
 *   built-in sandbox and the app shows its welcome dialog.
 * - `demo`: demo mode chosen earlier (built-in sandbox, first run over).
 * - `service`: a user with an API key whose base URL points at a sandbox this rig starts and
 *   owns, so a test can read its ledger, inject faults, stop it and restart it on the same port
 *   (a real network failure, not a flag).
 * - `hosted`: a brand-new user (as `first-run`) whose backend sends the hosted profile (the real
 *   service, vendor `Qubico`) to a sandbox this rig starts with the real service's answer forms
 *   (`profile: 'hosted'`) and the key SERVICE_KEY, instead of the public address. Nothing is
 *   stored: the test stores the key through the UI, as the user would.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { encodeBoundKey, keyAddressesOf } from '../../../src/core/settings/index.ts';
import { createStudioBackend, type StudioBackend } from '../../../src/main/backend/index.ts';
import {
  type FaultOptions,
  type LedgerEntry,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from '../../../src/sandbox/index.ts';
import {
  type StudioCallArgs,
  type StudioCallName,
  type StudioCallResult,
  type Task,
  type TaskState,
  UPLOAD_PATH,
} from '../../../src/shared/index.ts';
import { FAST_POLLING } from '../../support/fast-polling.ts';
import { FileKeyVault, RecordingShell, ScriptedDialogs } from '../../support/node-adapters.ts';
import { createNodeSettingsFile } from '../../support/node-settings-file.ts';
import { waitUntil } from '../../support/wait-until.ts';
import { type BridgeConnection, connectBridge } from './studio-bridge.ts';
import { type StudioServer, startStudioServer } from './studio-server.ts';

export const SERVICE_KEY = 'e2e-service-key-0123456789';

/** Polls fast so tests (and their time budget) are short; the schedule logic stays the engine's. */
export const FAST_ENGINE_TUNING = {
  polling: FAST_POLLING,
  fetchesPerSecond: 200,
  offlineBackoff: { baseMs: 100, maxMs: 400 },
  clientRetry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 100 },
} as const;

export interface RigOptions {
  rendererDir: string;
  service: 'first-run' | 'demo' | 'service' | 'hosted';
  /** Sandbox speed (both the built-in and the rig's own). Default 0.02. */
  timeScale?: number;
  /** Extra options of the rig's own sandbox (`service` and `hosted`). */
  sandbox?: Omit<SandboxOptions, 'apiKey' | 'port' | 'timeScale'>;
  maxActiveRemote?: number;
  engineTuning?: Parameters<typeof createStudioBackend>[0]['engineTuning'];
  /**
   * Called before the backend starts, with the configured library folder (benchmarks fill it).
   * Demo mode keeps a library of its own, so use it with `service: 'service'`.
   */
  prepareLibrary?: (libraryDir: string) => unknown;
}

export interface StudioRig {
  readonly root: string;
  readonly userDataDir: string;
  /** The library folder the backend works on now (demo mode has its own). */
  readonly libraryDir: string;
  /** Where local files for drops are written. */
  readonly filesDir: string;
  /** What the "choose a folder" dialog answers (export). */
  readonly exportDir: string;
  readonly backend: StudioBackend;
  readonly server: StudioServer;
  readonly dialogs: ScriptedDialogs;
  readonly shell: RecordingShell;
  /** The rig's own sandbox (`service` and `hosted`). */
  sandbox(): Sandbox;
  /** Every create the service (built-in, or the rig's own sandboxes across restarts) accepted and billed. */
  ledger(): Promise<LedgerEntry[]>;
  /** Every create the backend's built-in sandbox (demo mode) accepted, while it runs. */
  demoLedger(): Promise<LedgerEntry[]>;
  setFaults(faults: FaultOptions): Promise<void>;
  /** Stops the rig's own sandbox: the service is unreachable (connection refused). */
  stopService(): Promise<void>;
  /**
   * Starts the rig's own sandbox again on the same port, optionally at another speed. `ledger()`
   * keeps covering the stopped one too.
   */
  restartService(override?: { timeScale?: number }): Promise<void>;
  /** Calls the backend the way the page does, throwing on an error result. */
  call<K extends StudioCallName>(name: K, args: StudioCallArgs<K>): Promise<StudioCallResult<K>>;
  /** Every task in the library (newest first), read through the backend from SQLite. */
  tasks(): Promise<Omit<Task, 'inputs'>[]>;
  waitForTask(id: string, states: readonly TaskState[], timeoutMs?: number): Promise<Task>;
  /** A fresh context and page with the bridge connected, at the app's start page. */
  openPage(
    browser: Browser,
    options?: {
      colorScheme?: 'light' | 'dark';
      /** 1280 x 800 by default. */
      viewport?: { width: number; height: number };
      /** 'reduce' by default (steady screenshots); the benchmarks measure with 'no-preference'. */
      reducedMotion?: 'reduce' | 'no-preference';
      beforeLoad?: (page: Page) => Promise<void>;
    },
  ): Promise<StudioPage>;
  /** The pages opened and not closed yet. */
  openPages(): StudioPage[];
  close(): Promise<void>;
}

export interface StudioPage {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly bridge: BridgeConnection;
  /** Console errors and page errors seen so far (tests print them on failure). */
  readonly problems: string[];
  close(): Promise<void>;
}

/** Where the backend sends the hosted profile: the rig's own sandbox and its upload endpoint. */
function hostedAddressOf(sandbox: Sandbox | null): { baseUrl: string; uploadUrl: string } {
  if (!sandbox) throw new Error('the hosted stand-in sandbox did not start');
  return { baseUrl: sandbox.url, uploadUrl: `${sandbox.url}${UPLOAD_PATH}` };
}

/**
 * A test that queues through `rig.call` (set-up, not the UI) acts as a user who dropped the
 * local files its draft names: main lets the window name only files the user gave it.
 */
function giveLocalFiles(backend: StudioBackend, draft: StudioCallArgs<'tasks.queue'>): void {
  for (const value of Object.values(draft.input ?? {})) {
    if (typeof value === 'string' && isAbsolute(value)) backend.grantDroppedFile(value);
  }
}

export async function createStudioRig(options: RigOptions): Promise<StudioRig> {
  const root = await mkdtemp(join(tmpdir(), 'mts-e2e-'));
  const userDataDir = join(root, 'user-data');
  const libraryDir = join(userDataDir, 'library');
  const filesDir = join(root, 'local-files');
  const exportDir = join(root, 'export');
  await Promise.all([mkdir(libraryDir, { recursive: true }), mkdir(filesDir), mkdir(exportDir)]);
  await options.prepareLibrary?.(libraryDir);

  const timeScale = options.timeScale ?? 0.02;
  const server = await startStudioServer(options.rendererDir);
  const dialogs = new ScriptedDialogs(exportDir);
  const shell = new RecordingShell();

  let own: Sandbox | null = null;
  let ownPort = 0;
  /** Every sandbox this rig started, so the ledger covers the whole test across restarts. */
  const ownHistory: Sandbox[] = [];
  const startOwn = async (override: { timeScale?: number; profile?: SandboxOptions['profile'] } = {}) => {
    own = await startSandbox({
      ...options.sandbox,
      apiKey: SERVICE_KEY,
      timeScale,
      ...override,
      port: ownPort,
    });
    ownPort = own.port;
    ownHistory.push(own);
  };
  if (options.service === 'service') await startOwn();
  // the stand-in for the real service answers in its forms, whatever `options.sandbox` says
  if (options.service === 'hosted') await startOwn({ profile: 'hosted' });

  // A returning user's state is written before the backend starts (as it would find it on
  // disk), so it opens the right library and service at once.
  const secrets = new FileKeyVault(userDataDir);
  const settings = createNodeSettingsFile(userDataDir);
  const stored: Parameters<typeof settings.update>[0] = {};
  if (options.maxActiveRemote !== undefined) stored.maxActiveRemote = options.maxActiveRemote;
  if (options.service === 'demo') Object.assign(stored, { demoMode: true, firstRun: false });
  if (options.service === 'service') {
    // stored by this version: tied to every address it is sent to (key-binding.ts)
    const addresses = keyAddressesOf({ baseUrl: (own as Sandbox | null)?.url ?? '', uploadUrl: '' }) ?? [];
    secrets.write(encodeBoundKey({ key: SERVICE_KEY, addresses: addresses.map((a) => a.url) }));
    Object.assign(stored, {
      serviceProfile: 'custom',
      baseUrl: (own as Sandbox | null)?.url,
      demoMode: false,
      firstRun: false,
    });
  }
  if (Object.keys(stored).length > 0) settings.update(stored);

  const backend = await createStudioBackend({
    userDataDir,
    secrets,
    settings,
    dialogs,
    shell,
    appVersion: '0.1.0-e2e',
    platform: process.platform,
    mediaBaseUrl: server.mediaBaseUrl,
    sandboxTimeScale: timeScale,
    sandboxGenerationWorkers: 1,
    engineTuning: options.engineTuning ?? FAST_ENGINE_TUNING,
    log: (line) => console.log(`[backend] ${line}`),
    ...(options.service === 'hosted' ? { hostedAddress: hostedAddressOf(own as Sandbox | null) } : {}),
  });
  server.setMediaResolver((urlPath) => backend.resolveMediaPath(urlPath));

  const call = async <K extends StudioCallName>(
    name: K,
    args: StudioCallArgs<K>,
  ): Promise<StudioCallResult<K>> => {
    if (name === 'tasks.queue') giveLocalFiles(backend, args as StudioCallArgs<'tasks.queue'>);
    const result = await backend.handle(name, args);
    if (!result.ok) throw new Error(`${name} failed: ${result.error.kind}: ${result.error.message}`);
    return result.value as StudioCallResult<K>;
  };

  // the built-in sandbox's control paths want its key, which only the backend has: the rig
  // reaches its ledger and faults in-process instead
  const builtIn = () => {
    const controls = backend.builtInSandbox();
    if (!controls) throw new Error('the built-in sandbox is not running (demo mode is off)');
    return controls;
  };
  const pages = new Set<StudioPage>();

  const rig: StudioRig = {
    root,
    userDataDir,
    get libraryDir() {
      return backend.libraryDir();
    },
    filesDir,
    exportDir,
    backend,
    server,
    dialogs,
    shell,
    sandbox() {
      if (!own) throw new Error('this rig has no sandbox of its own (service: "service" or "hosted" only)');
      return own;
    },
    async ledger() {
      if (ownHistory.length > 0) return ownHistory.flatMap((sandbox) => sandbox.ledger());
      return builtIn().ledger();
    },
    async demoLedger() {
      return builtIn().ledger();
    },
    async setFaults(faults) {
      if (own) {
        (own as Sandbox).setFaults(faults);
        return;
      }
      builtIn().setFaults(faults);
    },
    async stopService() {
      const sandbox = rig.sandbox();
      own = null;
      await sandbox.stop();
    },
    async restartService(override = {}) {
      if (own) throw new Error('the service is running');
      await startOwn(options.service === 'hosted' ? { ...override, profile: 'hosted' } : override);
    },
    call,
    async tasks() {
      const items: Omit<Task, 'inputs'>[] = [];
      let cursor: string | null = null;
      do {
        const page: StudioCallResult<'tasks.list'> = await call('tasks.list', { limit: 200, cursor });
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return items;
    },
    async waitForTask(id, states, timeoutMs = 20_000) {
      let last: Task | null = null;
      return waitUntil(
        async () => {
          last = await call('tasks.get', { id });
          return last && states.includes(last.state) ? last : null;
        },
        `task ${id} to reach ${states.join('/')} (last seen: ${(last as Task | null)?.state ?? 'none'})`,
        timeoutMs,
      );
    },
    async openPage(browser, pageOptions = {}) {
      const context = await browser.newContext({
        viewport: pageOptions.viewport ?? { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        colorScheme: pageOptions.colorScheme ?? 'light',
        reducedMotion: pageOptions.reducedMotion ?? 'reduce',
      });
      // Fail in seconds, not the default 30 s, when the UI does not show what a test waits for.
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      const bridge = await connectBridge(page, backend);
      await pageOptions.beforeLoad?.(page);
      await page.goto(server.url);
      const studioPage: StudioPage = {
        context,
        page,
        bridge,
        problems,
        async close() {
          bridge.detach();
          pages.delete(studioPage);
          await context.close().catch(() => undefined);
        },
      };
      pages.add(studioPage);
      return studioPage;
    },
    openPages() {
      return [...pages];
    },
    async close() {
      for (const page of [...pages]) await page.close();
      await backend.close();
      if (own) await (own as Sandbox).stop();
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return rig;
}
