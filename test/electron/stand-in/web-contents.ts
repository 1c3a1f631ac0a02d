/**
 * WebContents and WebFrameMain, after Electron's lib/browser/api/web-contents.ts:
 * - creating one emits `web-contents-created` on app before the constructor returns;
 * - `setWindowOpenHandler` stores the handler; a page's window.open runs it as
 *   `_callWindowOpenHandler` does (not an object, or not `allow`: the window is refused);
 * - `loadURL` asks the page of the session's protocol handler (Chromium's request), then runs
 *   the preload in a sandboxed world (renderer-world.ts) and emits `dom-ready` and
 *   `did-finish-load`; a failed load emits `did-fail-load` and rejects with
 *   "<description> (<code>) loading '<url>'";
 * - `send` goes through the main frame; arguments must be structured-clonable.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app } from './app.ts';
import { IpcMainImpl } from './ipc-main.ts';
import { RendererWorld } from './renderer-world.ts';
import { DESCRIBE, notify, record } from './runtime.ts';
import { type StandInSession, session } from './session.ts';
import { makeEvent } from './window-list.ts';

let nextContentsId = 1;
let nextFrameId = 1;

export class StandInWebFrame extends EventEmitter {
  url = '';
  readonly parent: StandInWebFrame | null;
  readonly contents: StandInWebContents;
  readonly ipc = new IpcMainImpl('webFrameMain.ipc');
  readonly routingId = nextFrameId++;
  readonly frameTreeNodeId = this.routingId;
  readonly processId: number;
  name = '';
  #destroyed = false;

  constructor(contents: StandInWebContents, parent: StandInWebFrame | null, url = '') {
    super();
    this.contents = contents;
    this.parent = parent;
    this.processId = contents.id + 100;
    this.url = url;
  }

  [DESCRIBE](): string {
    return `[WebFrameMain ${this.routingId} ${this.url || 'about:blank'}]`;
  }

  get top(): StandInWebFrame {
    return this.parent ? this.parent.top : this;
  }

  get origin(): string {
    try {
      return new URL(this.url).origin;
    } catch {
      return 'null';
    }
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  destroy(): void {
    this.#destroyed = true;
  }

  /** WebFrameMain.send: the arguments are serialized for the renderer. */
  send(channel: string, ...args: unknown[]): void {
    let cloned: unknown[];
    try {
      cloned = structuredClone(args);
    } catch {
      throw new Error('Failed to serialize arguments');
    }
    record('call', 'webContents.send', { channel, args: cloned });
    this.contents.sent.push({ channel, args: cloned });
    this.contents.renderer?.deliver(channel, cloned);
  }
}

type WindowOpenHandler = (details: Record<string, unknown>) => unknown;

export class StandInWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly session: StandInSession;
  readonly ipc = new IpcMainImpl('webContents.ipc');
  readonly mainFrame: StandInWebFrame;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly preload: string | null;
  /** The page's sandboxed world, once a page has loaded. */
  renderer: RendererWorld | null = null;
  #windowOpenHandler: WindowOpenHandler | null = null;
  #destroyed = false;
  #loading = false;
  #focused = false;

  constructor(options: { preload?: string | undefined } = {}) {
    super();
    this.session = session.defaultSession;
    this.preload = options.preload ?? null;
    this.mainFrame = new StandInWebFrame(this, null);
    app.emit('web-contents-created', makeEvent({ sender: this }), this);
  }

  [DESCRIBE](): string {
    return `[WebContents ${this.id}]`;
  }

  override on(event: string | symbol, listener: (...args: never[]) => void): this {
    record('call', 'webContents.on', { event: String(event) });
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    record('call', 'webContents.setWindowOpenHandler', { handler });
    this.#windowOpenHandler = handler;
  }

  /** A page's `window.open(url)`: whether a window would open, as _callWindowOpenHandler decides. */
  callWindowOpenHandler(details: Record<string, unknown>): { opened: boolean; response: unknown } {
    if (!this.#windowOpenHandler) return { opened: true, response: null };
    const response = this.#windowOpenHandler(details);
    const allowed =
      typeof response === 'object' &&
      response !== null &&
      (response as { action?: unknown }).action === 'allow';
    return { opened: allowed, response };
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  getType(): string {
    return 'window';
  }

  isLoading(): boolean {
    return this.#loading;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  isFocused(): boolean {
    return this.#focused;
  }

  focus(): void {
    this.#focused = true;
  }

  setFocused(focused: boolean): void {
    this.#focused = focused;
  }

  send(channel: string, ...args: unknown[]): void {
    this.mainFrame.send(channel, ...args);
  }

  startDrag(item: { file?: string; files?: string[]; icon: unknown }): void {
    record('call', 'webContents.startDrag', item);
  }

  loadFile(filePath: string): Promise<void> {
    return this.loadURL(pathToFileURL(filePath).href);
  }

  loadURL(url: string, options?: Record<string, unknown>): Promise<void> {
    record('call', 'webContents.loadURL', { url, options });
    const p = this.#load(url);
    // Add a no-op rejection handler to silence the unhandled rejection error (as Electron does).
    p.catch(() => {});
    return p;
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.mainFrame.destroy();
    this.emit('destroyed');
  }

  async #load(url: string): Promise<void> {
    this.#loading = true;
    this.emit('did-start-loading');
    const page = await this.#requestPage(url);
    this.#loading = false;
    if ('error' in page) {
      const [description, code] = page.error;
      this.emit('did-fail-load', makeEvent(), code, description, url, true);
      const err = new Error(`${description} (${code}) loading '${url}'`);
      throw Object.assign(err, { errno: code, code: description, url });
    }
    record('note', 'page-loaded', { url, status: page.status });
    this.mainFrame.url = url;
    this.renderer = new RendererWorld(this);
    if (this.preload) this.renderer.runPreload(this.preload);
    this.emit('dom-ready', makeEvent());
    this.emit('did-finish-load', makeEvent());
    notify('page-loaded', { url });
  }

  /** The main frame's request for `url`: the session's handler for its scheme, or a file. */
  async #requestPage(url: string): Promise<{ status: number } | { error: [string, number] }> {
    let scheme: string;
    try {
      scheme = new URL(url).protocol.slice(0, -1);
    } catch {
      return { error: ['ERR_INVALID_URL', -300] };
    }
    if (this.session.protocol.isProtocolHandled(scheme)) {
      const answer = await this.session.protocol.answer(url, { headers: { Accept: 'text/html' } });
      if (!answer || 'error' in answer) return { error: ['ERR_FAILED', -2] };
      return { status: answer.status };
    }
    if (scheme === 'file') {
      const path = fileURLToPath(url);
      return existsSync(path) && readFileSync(path) ? { status: 200 } : { error: ['ERR_FILE_NOT_FOUND', -6] };
    }
    // no network here: http(s) pages (the dev server) cannot be loaded by the stand-in
    if (scheme === 'http' || scheme === 'https') return { error: ['ERR_CONNECTION_REFUSED', -102] };
    return { error: ['ERR_UNKNOWN_URL_SCHEME', -302] };
  }
}
