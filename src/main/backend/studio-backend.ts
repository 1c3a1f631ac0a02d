/**
 * Long because it is the one coordinator of calls, events, settings, the key, the engine's
 * lifecycle and the in-app sandbox; splitting it at those seams is issue 10's work.
 * The studio backend: the renderer contract (src/shared/ipc) implemented over the task engine,
 * on plain Node. The Electron shell forwards IPC calls to `handle` and backend events to the
 * window; the browser test harness does the same over a page binding. Host services (key
 * storage, settings file, dialogs, shell) come in as adapters, so nothing here imports electron.
 *
 * It owns the choice of service (the built-in sandbox, the real service or none; see
 * service-selection.ts), starts and stops the in-process sandbox, re-points the engine when the
 * settings change and reopens it when the library folder or the concurrency changes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import type {
  EngineStatusView,
  StudioEventName,
  StudioEvents,
  StudioResult,
  StudioSettings,
  Task,
} from '../../shared/index.ts';
import { apiKeyProblem, keyTransportProblem, type ServiceProfile, STUDIO_CALLS } from '../../shared/index.ts';
import {
  DEMO_LIBRARY_FOLDER,
  type EngineOptions,
  type EngineStatus,
  type ServiceSettings,
  TaskEngine,
} from '../engine/index.ts';
import { createSecretScrubber } from '../service/index.ts';
import type { Dialogs, SecretStore, SettingsStore, ShellOps } from './backend-ports.ts';
import { BUILT_IN_SANDBOX_EXPOSURE, type BuiltInSandboxControls, controlsOf } from './built-in-sandbox.ts';
import { errorViewOf, StudioCallError } from './call-errors.ts';
import { type BoundKey, decodeBoundKey, encodeBoundKey, originOf } from './key-binding.ts';
import { resolveLibraryMediaPath } from './media-path.ts';
import { PathGrants } from './path-grants.ts';
import type { PersistedSettings } from './persisted-settings.ts';
import { chooseService, type HostedAddress, profileOf, type ServiceChoice } from './service-selection.ts';
import { type CallContext, type CallHandlers, createCallHandlers } from './studio-calls.ts';
import { TaskFinishWatch } from './task-finish-watch.ts';

/** Engine options a host may tune (tests poll faster); the backend sets the rest. */
export type EngineTuning = Omit<EngineOptions, 'libraryDir' | 'service' | 'maxActiveRemote'>;

export interface StudioBackendOptions {
  userDataDir: string;
  secrets: SecretStore;
  settings: SettingsStore;
  dialogs: Dialogs;
  shell: ShellOps;
  appVersion: string;
  platform: string;
  /** Prefix that turns a library-relative path into a URL the renderer can load. */
  mediaBaseUrl: string;
  /**
   * Where the hosted profile sends tasks instead of the real service's public address. Only
   * tests set it, to run the hosted profile against a sandbox that answers like the real service.
   */
  hostedAddress?: HostedAddress;
  /** Speed of the built-in sandbox (0.2 = five times faster than the real service). */
  sandboxTimeScale?: number;
  /** Worker threads of the sandbox's media generation (0: on the main thread). */
  sandboxGenerationWorkers?: number;
  engineTuning?: EngineTuning;
  /** Where unexpected errors and warnings are written (never with the key). Default stderr. */
  log?: (line: string) => void;
}

export interface StudioBackend {
  /** Runs one call of the contract; never throws, never returns a stack or the key. */
  handle(name: string, rawArgs: unknown): Promise<StudioResult<unknown>>;
  on<E extends StudioEventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void;
  /** Sends a `menu.command` event (from the application menu) to the listeners. */
  emitMenuCommand(command: string): void;
  /** The operating system's online/offline signal. */
  setNetworkOnline(online: boolean): void;
  /**
   * A file the user dropped on the window or picked (the preload resolves it with
   * webUtils.getPathForFile and sends it on its own channel): the window may name it from now on.
   */
  grantDroppedFile(path: string): void;
  /** The absolute file a media URL path stands for, only under the library folder; else null. */
  resolveMediaPath(urlPath: string): string | null;
  /** Tasks that just ended as saved, failed, expired or uncertain (for notifications). */
  onTaskFinished(listener: (task: Task) => void): () => void;
  libraryDir(): string;
  /** Where the built-in sandbox listens while it runs. */
  sandboxUrl(): string | null;
  /** The built-in sandbox's in-process controls while it runs, for tests (built-in-sandbox.ts). */
  builtInSandbox(): BuiltInSandboxControls | null;
  close(): Promise<void>;
}

const SETTINGS_CALLS = new Set(['settings.update', 'settings.setApiKey', 'settings.clearApiKey']);

type Listener = (payload: never) => void;

class Backend implements StudioBackend, CallContext {
  readonly options: StudioBackendOptions;
  readonly settings: SettingsStore;
  readonly #log: (line: string) => void;
  readonly #listeners = new Map<StudioEventName, Set<Listener>>();
  readonly #finishedListeners = new Set<(task: Task) => void>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #secrets = new Set<string>();
  readonly #handlers: CallHandlers;
  readonly grants = new PathGrants();

  #engine!: TaskEngine;
  #engineUnsubscribe: (() => void)[] = [];
  #finishWatch!: TaskFinishWatch;
  #libraryDir = '';
  #maxActiveRemote = 0;
  #serviceKind: ServiceChoice = 'none';
  #serviceSignature = '';
  #serviceAddress: string | null = null;
  #sandbox: Sandbox | null = null;
  #sandboxKey = '';
  #hasKey = false;
  /** Why a stored key is not used now (a sentence for Settings), or null. */
  #keyProblem: string | null = null;
  #networkOnline = true;
  #exclusive: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: StudioBackendOptions) {
    this.options = options;
    this.settings = options.settings;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#handlers = createCallHandlers(this);
  }

  async start(): Promise<void> {
    for (const warning of this.settings.warnings()) this.#log(`settings: ${warning}`);
    this.#hasKey = (await this.#readKey()) !== null;
    const s = this.settings.get();
    await this.#openEngine(this.#libraryDirOf(s), s.maxActiveRemote);
    try {
      await this.applyService();
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  // ---------- the contract ----------

  async handle(name: string, rawArgs: unknown): Promise<StudioResult<unknown>> {
    if (this.#closed) return this.#fail(new StudioCallError('internal', 'the app is shutting down'));
    if (!Object.hasOwn(STUDIO_CALLS, name)) {
      return this.#fail(
        new StudioCallError('unknown-call', `there is no call named ${JSON.stringify(name).slice(0, 120)}`),
      );
    }
    const callName = name as keyof typeof STUDIO_CALLS;
    const parsed = STUDIO_CALLS[callName].args.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path =
        issue?.path.map(String).join('.') ||
        (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
      const field = path === '' ? 'args' : path;
      return this.#fail(
        new StudioCallError('invalid-input', `${field}: ${issue?.message ?? 'invalid'}`, field),
      );
    }
    const handler = this.#handlers[callName] as (args: unknown) => Promise<unknown>;
    const run = SETTINGS_CALLS.has(name)
      ? this.#runExclusive(() => handler(parsed.data))
      : this.#runShared(() => handler(parsed.data));
    try {
      return { ok: true, value: await run };
    } catch (err) {
      return this.#fail(err);
    }
  }

  on<E extends StudioEventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  emitMenuCommand(command: string): void {
    this.emit('menu.command', command);
  }

  setNetworkOnline(online: boolean): void {
    this.#networkOnline = online;
    if (!this.#closed) this.#engine.setNetworkOnline(online);
  }

  grantDroppedFile(path: string): void {
    if (typeof path === 'string' && path.length > 0 && path.length <= 4096) this.grants.grantFile(path);
  }

  resolveMediaPath(urlPath: string): string | null {
    return resolveLibraryMediaPath(this.#libraryDir, urlPath);
  }

  onTaskFinished(listener: (task: Task) => void): () => void {
    this.#finishedListeners.add(listener);
    return () => this.#finishedListeners.delete(listener);
  }

  libraryDir(): string {
    return this.#libraryDir;
  }

  sandboxUrl(): string | null {
    return this.#sandbox?.url ?? null;
  }

  builtInSandbox(): BuiltInSandboxControls | null {
    return this.#sandbox ? controlsOf(this.#sandbox) : null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#exclusive.catch(() => undefined);
    await Promise.allSettled([...this.#inFlight]);
    await this.#closeEngine();
    await this.#stopSandbox();
    this.#listeners.clear();
    this.#finishedListeners.clear();
  }

  // ---------- CallContext: what the call handlers use ----------

  engine(): TaskEngine {
    return this.#engine;
  }

  settingsView(): StudioSettings {
    const s = this.settings.get();
    return {
      serviceProfile: s.serviceProfile,
      baseUrl: s.baseUrl,
      vendor: s.vendor,
      uploadUrl: s.uploadUrl,
      modelOverrides: { ...s.modelOverrides },
      demoMode: s.demoMode,
      maxActiveRemote: s.maxActiveRemote,
      libraryDir: this.#configuredLibraryDir(s),
      theme: s.theme,
      budgetMicros: s.budgetMicros,
      hasApiKey: this.#hasKey,
      keyProblem: this.#hasKey ? this.#keyProblem : null,
      keyStorage: this.options.secrets.storage(),
      firstRun: s.firstRun,
    };
  }

  statusView(status: EngineStatus = this.#engine.status()): EngineStatusView {
    return { ...status, service: this.#serviceKind, serviceAddress: this.#serviceAddress };
  }

  /** Writes settings; reopens the engine first when the library or the concurrency changes. */
  async updateSettings(patch: Partial<PersistedSettings>): Promise<void> {
    const before = this.settings.get();
    const after = { ...before, ...patch };
    const rebind = await this.#confirmKeyDestination(after);
    const libraryDir = this.#libraryDirOf(after);
    if (libraryDir !== this.#libraryDir || after.maxActiveRemote !== this.#maxActiveRemote) {
      await this.#reopenEngine(libraryDir, after.maxActiveRemote);
    }
    this.settings.update(patch);
    if (rebind) await this.options.secrets.write(encodeBoundKey(rebind));
    if (patch.budgetMicros !== undefined) this.#engine.setBudget(patch.budgetMicros);
    await this.applyService();
  }

  /**
   * A settings change that would send the stored key to another origin needs the user's word,
   * asked in a dialog main owns (the page cannot answer it). Gives the key to store again, tied
   * to the new origin, when the user agrees; throws when they do not.
   */
  async #confirmKeyDestination(after: PersistedSettings): Promise<BoundKey | null> {
    if (!this.#hasKey) return null;
    const bound = await this.#readKey();
    const to = this.#remoteOriginOf(after);
    if (!bound || bound.origin === null || to === null || to === bound.origin) return null;
    const agreed = await this.options.dialogs.confirm({
      title: 'Send your API key to another service?',
      message: `Your API key was stored for ${bound.origin}. From now on it would be sent to ${to}. Do this only if you trust that address.`,
      confirmLabel: 'Send it there',
    });
    if (!agreed) {
      throw new StudioCallError(
        'not-confirmed',
        `the service address was not changed: your API key stays with ${bound.origin} (store the key again to use it elsewhere)`,
      );
    }
    return { key: bound.key, origin: to };
  }

  /** Where a stored key would be sent with these settings, demo mode aside; null when nowhere yet. */
  #remoteOriginOf(s: PersistedSettings): string | null {
    const profile = profileOf({ ...s, demoMode: false }, null, this.options.hostedAddress ?? null);
    return profile.baseUrl === '' ? null : originOf(profile.baseUrl);
  }

  /** The stored key, decoded, and remembered for scrubbing; null when none is stored. */
  async #readKey(): Promise<BoundKey | null> {
    const stored = await this.options.secrets.read();
    if (stored === null) return null;
    const bound = decodeBoundKey(stored);
    this.#secrets.add(bound.key);
    return bound;
  }

  async setApiKey(key: string): Promise<void> {
    // a stored key means the user wants the real service: leave the demo; the key is tied to
    // the service it is stored for
    const after = { ...this.settings.get(), firstRun: false, demoMode: false };
    await this.options.secrets.write(encodeBoundKey({ key, origin: this.#remoteOriginOf(after) }));
    this.#secrets.add(key);
    this.#hasKey = true;
    this.settings.update({ firstRun: false, demoMode: false });
    await this.applyService();
  }

  async clearApiKey(): Promise<void> {
    await this.options.secrets.clear();
    this.#hasKey = false;
    await this.applyService();
  }

  /**
   * Points the engine at the service the settings call for (only when that changed), on the
   * library that service uses (demo mode has its own).
   */
  async applyService(switchLibrary = true): Promise<void> {
    const s = this.settings.get();
    const libraryDir = this.#libraryDirOf(s);
    if (switchLibrary && libraryDir !== this.#libraryDir)
      await this.#reopenEngine(libraryDir, s.maxActiveRemote);
    let kind = chooseService(s, this.#hasKey);
    let service: ServiceSettings | null = null;
    const hostedAt = this.options.hostedAddress ?? null;
    let profile = profileOf(s, null, hostedAt);
    this.#keyProblem = null;
    if (kind === 'remote') {
      const bound = await this.#readKey();
      if (!bound) {
        this.#hasKey = false;
        kind = chooseService(s, false);
      } else {
        this.#keyProblem = await this.#keyUseProblem(bound, profile);
        if (this.#keyProblem) kind = 'none';
        else service = { baseUrl: profile.baseUrl, apiKey: bound.key, uploadUrl: profile.uploadUrl };
      }
    }
    if (kind === 'sandbox') {
      const sandbox = await this.#startSandbox();
      profile = profileOf(s, sandbox.url, hostedAt);
      service = { baseUrl: sandbox.url, apiKey: this.#sandboxKey, uploadUrl: profile.uploadUrl };
    }
    this.#engine.setProfile(profile);
    const signature = service
      ? `${kind}|${service.baseUrl}|${service.uploadUrl}|${createHash('sha256').update(service.apiKey).digest('hex')}`
      : kind;
    if (signature !== this.#serviceSignature) {
      this.#serviceKind = kind;
      this.#serviceAddress = kind === 'remote' && service ? service.baseUrl : null;
      this.#serviceSignature = signature;
      this.#engine.setService(service);
    }
    if (kind !== 'sandbox') await this.#stopSandbox();
  }

  /**
   * Why the stored key must not be sent to this profile's service, or null. Never throws: a bad
   * stored setting is reported in Settings, and the app keeps working (queueing locally).
   */
  async #keyUseProblem(bound: BoundKey, profile: ServiceProfile): Promise<string | null> {
    const keyProblem = apiKeyProblem(bound.key);
    if (keyProblem) return `The stored API key cannot be used: ${keyProblem}. Store it again.`;
    for (const [what, url] of [
      ['service address', profile.baseUrl],
      ['upload address', profile.uploadUrl],
    ] as const) {
      const problem = url ? keyTransportProblem(url) : null;
      if (problem) return `The ${what} is refused, so the key is not sent: ${problem}.`;
    }
    const origin = originOf(profile.baseUrl);
    if (bound.origin === null) {
      // stored before keys were tied to a service: tie it to the one it is used with now
      await this.options.secrets.write(encodeBoundKey({ key: bound.key, origin }));
      return null;
    }
    if (bound.origin !== origin) {
      return `Your API key was stored for ${bound.origin}, so it is not sent to ${origin}. Go back to that service, or store the key again for this one.`;
    }
    return null;
  }

  emit<E extends StudioEventName>(event: E, payload: StudioEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (p: StudioEvents[E]) => void)(payload);
      } catch (err) {
        this.#log(
          this.scrub(`studio backend: a ${event} listener failed: ${(err as Error)?.message ?? err}`),
        );
      }
    }
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = createSecretScrubber(secret).text(out);
    return out;
  }

  // ---------- engine lifecycle ----------

  async #openEngine(libraryDir: string, maxActiveRemote: number): Promise<void> {
    const engine = await TaskEngine.open({
      ...this.options.engineTuning,
      libraryDir,
      maxActiveRemote,
      service: null,
      log: (line) => this.#log(this.scrub(line)),
    });
    this.#engine = engine;
    this.#libraryDir = engine.libraryDir;
    this.#maxActiveRemote = maxActiveRemote;
    this.#serviceSignature = '';
    this.#finishWatch = new TaskFinishWatch((id) => {
      const events = engine.store.events(id);
      return events[events.length - 1]?.at ?? null;
    });
    engine.setBudget(this.settings.get().budgetMicros);
    engine.setNetworkOnline(this.#networkOnline);
    this.#engineUnsubscribe = [
      engine.onTaskChanges((batch) => {
        this.emit('tasks.changed', batch);
        for (const task of this.#finishWatch.observe(batch)) {
          for (const listener of this.#finishedListeners) {
            try {
              listener(task);
            } catch {
              // a failing notifier must not stop the others
            }
          }
        }
      }),
      engine.onStatus((status) => this.emit('engine.status', this.statusView(status))),
    ];
  }

  async #closeEngine(): Promise<void> {
    for (const unsubscribe of this.#engineUnsubscribe) unsubscribe();
    this.#engineUnsubscribe = [];
    await this.#engine?.close();
  }

  /** Closes the engine and opens it on `libraryDir`; on failure the old library is opened again. */
  async #reopenEngine(libraryDir: string, maxActiveRemote: number): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
    const oldDir = this.#libraryDir;
    const oldMax = this.#maxActiveRemote;
    await this.#closeEngine();
    try {
      await this.#openEngine(libraryDir, maxActiveRemote);
    } catch (err) {
      await this.#openEngine(oldDir, oldMax);
      await this.applyService(false);
      throw err;
    }
    this.emit('engine.status', this.statusView());
  }

  /**
   * The library the engine works on. Demo mode keeps its own library (`demo-library` in the
   * user-data folder), so sandbox tasks and results never mix with paid ones, and switching
   * demo mode off never leaves sandbox tasks to be polled at the real service.
   */
  #libraryDirOf(s: PersistedSettings): string {
    if (chooseService(s, this.#hasKey) === 'sandbox')
      return resolve(this.options.userDataDir, DEMO_LIBRARY_FOLDER);
    return this.#configuredLibraryDir(s);
  }

  /** The library folder the user chose (or the default one), used whenever demo mode is off. */
  #configuredLibraryDir(s: PersistedSettings): string {
    return resolve(s.libraryDir === '' ? join(this.options.userDataDir, 'library') : s.libraryDir);
  }

  // ---------- sandbox ----------

  async #startSandbox(): Promise<Sandbox> {
    if (this.#sandbox) return this.#sandbox;
    this.#sandboxKey = randomBytes(24).toString('base64url');
    this.#secrets.add(this.#sandboxKey);
    this.#sandbox = await startSandbox({
      port: 0,
      apiKey: this.#sandboxKey,
      ...BUILT_IN_SANDBOX_EXPOSURE,
      timeScale: this.options.sandboxTimeScale ?? 0.2,
      ...(this.options.sandboxGenerationWorkers !== undefined
        ? { generationWorkers: this.options.sandboxGenerationWorkers }
        : {}),
    });
    return this.#sandbox;
  }

  async #stopSandbox(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = null;
    if (sandbox) await sandbox.stop();
  }

  // ---------- helpers ----------

  #fail(err: unknown): StudioResult<never> {
    return { ok: false, error: errorViewOf(err, (t) => this.scrub(t), this.#log) };
  }

  #runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#exclusive.then(fn, fn);
    this.#exclusive = run.catch(() => undefined);
    return run;
  }

  /** Runs a call once no settings change is under way (a reopen waits for the calls running). */
  async #runShared<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      const gate = this.#exclusive;
      await gate;
      if (gate === this.#exclusive) break;
    }
    return this.#track(fn());
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inFlight.add(p);
    void p.then(
      () => this.#inFlight.delete(p),
      () => this.#inFlight.delete(p),
    );
    return p;
  }
}

/** Opens the library, chooses the service (starting the sandbox if needed) and returns the backend. */
export async function createStudioBackend(options: StudioBackendOptions): Promise<StudioBackend> {
  const backend = new Backend(options);
  await backend.start();
  return backend;
}
