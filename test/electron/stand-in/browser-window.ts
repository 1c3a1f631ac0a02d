/**
 * BrowserWindow, after Electron's electron_api_browser_window.cc and lib/browser/api/
 * browser-window.ts: it cannot be made before ready ("Cannot create BrowserWindow before app is
 * ready"); it makes its WebContents (so `web-contents-created` comes first), then app emits
 * `browser-window-created`. The options are recorded as given. `show: false` keeps it hidden
 * until `show()`; `ready-to-show` follows the first finished load (the stand-in's first paint).
 * `close()` emits `close` on a later task (preventable), then `closed`; `destroy()` skips `close`.
 * When the last window has gone the app hears of it (window-list.ts).
 */
import { EventEmitter } from 'node:events';
import { app } from './app.ts';
import { DESCRIBE, isReady, notify, record } from './runtime.ts';
import { StandInWebContents } from './web-contents.ts';
import {
  addWindow,
  type ListedWindow,
  makeEvent,
  removeWindow,
  windowCloseCancelled,
} from './window-list.ts';

interface WindowOptions {
  show?: boolean;
  title?: string;
  webPreferences?: { preload?: string } & Record<string, unknown>;
  [option: string]: unknown;
}

let nextWindowId = 1;
const all = new Set<StandInBrowserWindow>();

export class StandInBrowserWindow extends EventEmitter implements ListedWindow {
  readonly id = nextWindowId++;
  readonly webContents: StandInWebContents;
  /** The constructor options, as the app gave them. */
  readonly options: WindowOptions;
  #visible: boolean;
  #focused = false;
  #minimized = false;
  #destroyed = false;
  #closing = false;
  #shownOnce = false;
  #title: string;

  static getAllWindows(): StandInBrowserWindow[] {
    return [...all];
  }

  static getFocusedWindow(): StandInBrowserWindow | null {
    return [...all].find((w) => w.isFocused()) ?? null;
  }

  static fromWebContents(contents: unknown): StandInBrowserWindow | null {
    return [...all].find((w) => w.webContents === contents) ?? null;
  }

  constructor(options: WindowOptions = {}) {
    super();
    if (!isReady()) throw new Error('Cannot create BrowserWindow before app is ready');
    record('call', 'new BrowserWindow', { options });
    this.options = options;
    this.#title = options.title ?? 'Electron';
    this.#visible = options.show !== false;
    this.webContents = new StandInWebContents({ preload: options.webPreferences?.preload });
    this.webContents.on('did-finish-load', () => this.#firstPaint());
    all.add(this);
    addWindow(this);
    app.emit('browser-window-created', makeEvent(), this);
    if (this.#visible) this.#setFocused(true);
  }

  [DESCRIBE](): string {
    return `[BrowserWindow ${this.id}]`;
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (typeof event === 'string' && event !== 'newListener' && event !== 'removeListener') {
      record('event', `BrowserWindow.${event}`, { id: this.id });
    }
    return super.emit(event, ...args);
  }

  #firstPaint(): void {
    if (this.#shownOnce) return;
    this.#shownOnce = true;
    this.emit('ready-to-show', makeEvent());
  }

  #setFocused(focused: boolean): void {
    if (this.#focused === focused) return;
    this.#focused = focused;
    this.webContents.setFocused(focused);
    this.emit(focused ? 'focus' : 'blur', makeEvent());
  }

  loadURL(url: string, options?: Record<string, unknown>): Promise<void> {
    return this.webContents.loadURL(url, options);
  }

  loadFile(filePath: string): Promise<void> {
    return this.webContents.loadFile(filePath);
  }

  getTitle(): string {
    return this.#title;
  }

  setTitle(title: string): void {
    this.#title = title;
  }

  show(): void {
    record('call', 'BrowserWindow.show', { id: this.id });
    this.#minimized = false;
    if (!this.#visible) {
      this.#visible = true;
      this.emit('show', makeEvent());
    }
    this.#setFocused(true);
    notify('window-shown', { id: this.id });
  }

  hide(): void {
    record('call', 'BrowserWindow.hide', { id: this.id });
    this.#visible = false;
    this.#setFocused(false);
  }

  focus(): void {
    record('call', 'BrowserWindow.focus', { id: this.id });
    if (this.#visible) this.#setFocused(true);
  }

  blur(): void {
    this.#setFocused(false);
  }

  minimize(): void {
    this.#minimized = true;
    this.#setFocused(false);
  }

  restore(): void {
    record('call', 'BrowserWindow.restore', { id: this.id });
    this.#minimized = false;
  }

  isVisible(): boolean {
    return this.#visible && !this.#destroyed;
  }

  isFocused(): boolean {
    return this.#focused && !this.#destroyed;
  }

  isMinimized(): boolean {
    return this.#minimized;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  /** Closes as the user's close button or `win.close()` does: `close` may refuse. */
  close(): void {
    if (this.#destroyed || this.#closing) return;
    this.#closing = true;
    setImmediate(() => {
      this.#closing = false;
      if (this.#destroyed) return;
      const event = makeEvent();
      this.emit('close', event);
      if (event.defaultPrevented) {
        windowCloseCancelled();
        return;
      }
      this.destroy();
    });
  }

  /** Destroys at once: no `close` event, then `closed`. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#focused = false;
    this.#destroyed = true;
    this.webContents.destroy();
    all.delete(this);
    this.emit('closed');
    removeWindow(this);
  }
}
