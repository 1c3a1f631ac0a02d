/**
 * The studio backend: the renderer contract (src/shared/ipc) implemented over the task engine,
 * on plain Node. The Electron shell forwards IPC calls to `handle` and backend events to the
 * window; the browser test harness does the same over a page binding. Host services (key
 * storage, settings file, dialogs, shell) come in as adapters, so nothing here imports electron.
 *
 * This file puts the parts together: the call router (call-router.ts) runs the handlers
 * (studio-calls.ts); the settings control (settings-control.ts) applies settings changes to
 * the engine host (engine-host.ts), the service switch (service-switch.ts) and the built-in
 * sandbox (built-in-sandbox.ts); events go out through the event hub (event-hub.ts), finished
 * tasks through the finish notices (finish-notices.ts).
 */

import type { TaskEngine } from '../../core/engine/index.ts';
import { resolveLibraryMediaPath } from '../../core/library/index.ts';
import type {
  EngineStatusView,
  SettingsUpdate,
  StudioEventName,
  StudioEvents,
  StudioResult,
  StudioSettings,
  Task,
} from '../../shared/index.ts';
import { ApiKey } from './api-key.ts';
import type { StudioBackendOptions } from './backend-options.ts';
import { BuiltInSandbox, type BuiltInSandboxControls } from './built-in-sandbox.ts';
import type { CallContext } from './call-context.ts';
import { errorViewOf } from './call-errors.ts';
import { CallRouter } from './call-router.ts';
import { EngineHost } from './engine-host.ts';
import { EventHub } from './event-hub.ts';
import { FinishNotices } from './finish-notices.ts';
import { KnownSecrets } from './known-secrets.ts';
import { PathGrants } from './path-grants.ts';
import { ServiceSwitch } from './service-switch.ts';
import { SettingsControl } from './settings-control.ts';
import { createCallHandlers } from './studio-calls.ts';

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
  /**
   * Resolves when the engine has no work under way and no pass over what is due about to run
   * (TaskEngine.idle): what it was going to start on its own has started. For tests.
   */
  idle(): Promise<void>;
  close(): Promise<void>;
}

class Backend implements StudioBackend, CallContext {
  readonly options: StudioBackendOptions;
  readonly grants = new PathGrants();
  readonly #log: (line: string) => void;
  readonly #secrets = new KnownSecrets();
  readonly #hub: EventHub;
  readonly #notices = new FinishNotices();
  readonly #sandbox: BuiltInSandbox;
  readonly #service: ServiceSwitch;
  readonly #host: EngineHost;
  readonly #control: SettingsControl;
  readonly #router: CallRouter;
  #closed = false;

  constructor(options: StudioBackendOptions) {
    this.options = options;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    const log = (line: string) => this.#log(this.#secrets.scrub(line));
    this.#hub = new EventHub(log);
    const key = new ApiKey(options.secrets, this.#secrets);
    this.#sandbox = new BuiltInSandbox({
      timeScale: options.sandboxTimeScale ?? 0.2,
      generationWorkers: options.sandboxGenerationWorkers,
      onKey: (sandboxKey) => this.#secrets.add(sandboxKey),
    });
    this.#service = new ServiceSwitch(key, this.#sandbox, options.hostedAddress ?? null);
    this.#host = new EngineHost({
      tuning: options.engineTuning,
      log,
      hub: this.#hub,
      notices: this.#notices,
      statusView: (status) => this.#service.statusView(status),
      callsSettled: () => this.#router.callsSettled(),
    });
    this.#control = new SettingsControl({
      userDataDir: options.userDataDir,
      settings: options.settings,
      dialogs: options.dialogs,
      key,
      host: this.#host,
      service: this.#service,
    });
    this.#router = new CallRouter(createCallHandlers(this), (err) => ({
      ok: false,
      error: errorViewOf(err, (t) => this.#secrets.scrub(t), this.#log),
    }));
  }

  async start(): Promise<void> {
    for (const warning of this.options.settings.warnings()) this.#log(`settings: ${warning}`);
    try {
      await this.#control.start();
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  // ---------- StudioBackend: what the host uses ----------

  handle(name: string, rawArgs: unknown): Promise<StudioResult<unknown>> {
    return this.#router.handle(name, rawArgs);
  }

  on<E extends StudioEventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void {
    return this.#hub.on(event, listener);
  }

  emitMenuCommand(command: string): void {
    this.#hub.emit('menu.command', command);
  }

  setNetworkOnline(online: boolean): void {
    if (!this.#closed) this.#host.setNetworkOnline(online);
  }

  grantDroppedFile(path: string): void {
    if (typeof path === 'string' && path.length > 0 && path.length <= 4096) this.grants.grantFile(path);
  }

  resolveMediaPath(urlPath: string): string | null {
    return resolveLibraryMediaPath(this.#host.libraryDir, urlPath);
  }

  onTaskFinished(listener: (task: Task) => void): () => void {
    return this.#notices.on(listener);
  }

  libraryDir(): string {
    return this.#host.libraryDir;
  }

  sandboxUrl(): string | null {
    return this.#sandbox.url();
  }

  builtInSandbox(): BuiltInSandboxControls | null {
    return this.#sandbox.controls();
  }

  idle(): Promise<void> {
    return this.#host.engine.idle();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#router.close();
    await this.#host.close();
    await this.#sandbox.stop();
    this.#hub.clear();
    this.#notices.clear();
  }

  // ---------- CallContext: what the call handlers use ----------

  engine(): TaskEngine {
    return this.#host.engine;
  }

  settingsView(): StudioSettings {
    return this.#control.view();
  }

  statusView(): EngineStatusView {
    return this.#service.statusView(this.#host.engine.status());
  }

  updateSettings(update: SettingsUpdate): Promise<void> {
    return this.#control.update(update);
  }

  setApiKey(key: string): Promise<void> {
    return this.#control.setApiKey(key);
  }

  confirmKeyAddresses(): Promise<void> {
    return this.#control.confirmKeyAddresses();
  }

  clearApiKey(): Promise<void> {
    return this.#control.clearApiKey();
  }

  emit<E extends StudioEventName>(event: E, payload: StudioEvents[E]): void {
    this.#hub.emit(event, payload);
  }
}

/** Opens the library, chooses the service (starting the sandbox if needed) and returns the backend. */
export async function createStudioBackend(options: StudioBackendOptions): Promise<StudioBackend> {
  const backend = new Backend(options);
  await backend.start();
  return backend;
}
