/**
 * `app`: readiness, paths, name and version, the single-instance lock, and the quit and exit
 * sequences, following Electron's shell/browser/browser.cc and api/electron_api_app.cc:
 * - `ready`: emitted on a later task after the app's entry module has finished evaluating
 *   (lib/browser/init.ts calls appCodeLoaded after `await import(main)`); the whenReady promise
 *   resolves first, then `will-finish-launching` and `ready` are emitted; userData is created.
 * - `quit()`: `before-quit` (preventable: the quit is then dropped and a later `quit()` starts
 *   over); then every window is closed (each may refuse in `close`); when the last is gone,
 *   `will-quit` (preventable), `quit` with the exit code, and the process ends; no
 *   `window-all-closed` while quitting.
 * - `exit(code)`: windows destroyed without `close`, no `before-quit` or `will-quit`, `quit`
 *   emitted, the process ends with `code`; before ready the process ends at once.
 * - `setAppUserModelId` exists on Windows only (electron_api_app.cc builds it under IS_WIN).
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { config, finish, isReady, markReady, notify, record } from './runtime.ts';
import { makeEvent, openWindows, setWindowListHandlers } from './window-list.ts';

type PathName = Parameters<Electron.App['getPath']>[0];

interface PackageJson {
  name?: string;
  productName?: string;
  version?: string;
}

function readPackage(appDir: string): PackageJson {
  return JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as PackageJson;
}

/** The folder Electron's `appData` is on each platform. */
function appDataDir(platform: NodeJS.Platform): string {
  if (platform === 'win32') return process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
}

export class StandInApp extends EventEmitter {
  name: string;
  /** Only on Windows, like Electron: calling it elsewhere is a TypeError. */
  declare setAppUserModelId?: (id: string) => void;
  readonly #version: string;
  readonly #paths = new Map<string, string>();
  readonly #ready: Promise<void>;
  #resolveReady: () => void = () => {};
  #quitting = false;
  #exiting = false;
  #shutDown = false;
  #exitCode = 0;
  #lockHeld = false;
  #recordListeners = false;

  constructor() {
    super();
    const cfg = config();
    const pkg = readPackage(cfg.appDir);
    this.name = `${pkg.productName ?? pkg.name ?? 'Electron'}`.trim();
    this.#version = pkg.version ?? '0.0.0';
    this.#ready = new Promise((resolve) => {
      this.#resolveReady = resolve;
    });
    const appData = appDataDir(cfg.platform);
    this.#paths.set('appData', appData);
    this.#paths.set('userData', cfg.userDataDir ?? join(appData, this.name));
    if (cfg.platform === 'win32') {
      this.setAppUserModelId = (id: string) => record('call', 'app.setAppUserModelId', { id });
    }
    // lib/browser/init.ts: quit when all windows are closed and no one else listens (Electron's
    // own call, so not recorded as the app's)
    this.on('window-all-closed', () => {
      if (this.listenerCount('window-all-closed') === 1) this.quitNow();
    });
    setWindowListHandlers({
      allClosed: () => this.#allWindowsClosed(),
      closeCancelled: () => {
        if (this.#quitting) this.#quitting = false;
      },
    });
    this.#recordListeners = true;
  }

  /** Records the events emitted on app. */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (typeof event === 'string') record('event', `app.${event}`, args.slice(1));
    return super.emit(event, ...args);
  }

  /** Records the events the app listens to (after Electron's own listener). */
  override on(event: string | symbol, listener: (...args: never[]) => void): this {
    if (this.#recordListeners) record('call', 'app.on', { event: String(event) });
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  override once(event: string | symbol, listener: (...args: never[]) => void): this {
    if (this.#recordListeners) record('call', 'app.once', { event: String(event) });
    return super.once(event, listener as (...args: unknown[]) => void);
  }

  whenReady(): Promise<void> {
    return this.#ready;
  }

  isReady(): boolean {
    return isReady();
  }

  get isPackaged(): boolean {
    return config().packaged;
  }

  getName(): string {
    return this.name;
  }

  setName(name: string): void {
    this.name = name;
  }

  getVersion(): string {
    record('call', 'app.getVersion');
    return this.#version;
  }

  getAppPath(): string {
    return config().appDir;
  }

  getPath(name: PathName): string {
    record('call', 'app.getPath', { name });
    const known = this.#paths.get(name) ?? this.#defaultPath(name);
    if (known === null) throw new Error(`Failed to get '${name}' path`);
    return known;
  }

  setPath(name: string, path: string): void {
    record('call', 'app.setPath', { name, path });
    this.#paths.set(name, path);
  }

  #defaultPath(name: string): string | null {
    const userData = this.#paths.get('userData') as string;
    const home = homedir();
    const paths: Record<string, string> = {
      home,
      sessionData: userData,
      temp: tmpdir(),
      exe: process.execPath,
      module: process.execPath,
      logs: join(userData, 'logs'),
      crashDumps: join(userData, 'Crashpad'),
      desktop: join(home, 'Desktop'),
      documents: join(home, 'Documents'),
      downloads: join(home, 'Downloads'),
    };
    return paths[name] ?? null;
  }

  /** The first instance gets the lock; with STAND_IN_SINGLE_INSTANCE=taken another one has it. */
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    if (this.#lockHeld) return true;
    // like Electron, the lock lives in userData, which is created for it
    mkdirSync(this.#paths.get('userData') as string, { recursive: true });
    this.#lockHeld = !config().lockTaken;
    record('call', 'app.requestSingleInstanceLock', { additionalData, granted: this.#lockHeld });
    return this.#lockHeld;
  }

  hasSingleInstanceLock(): boolean {
    return this.#lockHeld;
  }

  releaseSingleInstanceLock(): void {
    record('call', 'app.releaseSingleInstanceLock');
    this.#lockHeld = false;
  }

  focus(): void {
    record('call', 'app.focus');
  }

  quit(): void {
    record('call', 'app.quit');
    this.quitNow();
  }

  exit(exitCode = 0): void {
    record('call', 'app.exit', { exitCode });
    this.exitNow(exitCode);
  }

  // ---------- the sequences (used by the public methods and by the driver) ----------

  /** Browser::Quit. */
  quitNow(): void {
    if (this.#quitting) return;
    this.#quitting = !this.#emitPreventable('before-quit');
    if (!this.#quitting) return;
    const windows = openWindows();
    if (windows.length === 0) this.#notifyAndShutdown();
    else for (const window of windows) window.close();
  }

  /** Browser::ExitWithCode. */
  exitNow(exitCode: number): void {
    this.#exitCode = exitCode;
    if (!isReady()) {
      // the message loop is not running yet: the process ends at once
      finish(exitCode);
      return;
    }
    this.#quitting = true;
    this.#exiting = true;
    const windows = openWindows();
    if (windows.length === 0) this.#shutdown();
    else for (const window of windows) window.destroy();
  }

  /** Emits a preventable event; returns whether a listener prevented it. */
  #emitPreventable(name: string): boolean {
    const event = makeEvent();
    this.emit(name, event);
    return event.defaultPrevented;
  }

  #allWindowsClosed(): void {
    if (this.#exiting) this.#shutdown();
    else if (this.#quitting) this.#notifyAndShutdown();
    else this.emit('window-all-closed', makeEvent());
  }

  #notifyAndShutdown(): void {
    if (this.#shutDown) return;
    if (this.#emitPreventable('will-quit')) {
      this.#quitting = false;
      return;
    }
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#shutDown) return;
    this.#shutDown = true;
    this.#quitting = true;
    this.emit('quit', makeEvent(), this.#exitCode);
    notify('quit', { exitCode: this.#exitCode });
    // Electron quits its message loop on a later task; the process then ends
    setImmediate(() => finish(this.#exitCode));
  }

  /** DidFinishLaunching: userData created, ready set, whenReady resolved, `ready` emitted. */
  finishLaunching(): void {
    if (this.#shutDown) return;
    this.emit('will-finish-launching', makeEvent());
    mkdirSync(this.#paths.get('userData') as string, { recursive: true });
    markReady();
    this.#resolveReady();
    this.emit('ready', makeEvent(), {});
    notify('ready');
  }
}

export const app = new StandInApp();
