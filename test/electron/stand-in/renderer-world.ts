/**
 * The renderer side of one loaded page, as far as the preload reaches: the preload runs as
 * Electron's sandboxed renderer runs it (lib/sandboxed_renderer/init.ts and preload.ts): its
 * body compiled as a function of `require, process, exports, module, Buffer, global,
 * setImmediate, clearImmediate`, in a context of its own (the isolated world), where `require`
 * knows only `electron` (contextBridge, ipcRenderer, webUtils here), `events`, `timers` and
 * `url`, and anything else throws "module not found: <name>". A preload that throws is
 * reported ("Unable to load preload script") and the page loads without it.
 *
 * `contextBridge.exposeInMainWorld` copies the API into the page's world (`mainWorld`):
 * objects are copied, functions and promises proxied, and a rejected Error arrives with its
 * message only. `ipcRenderer.invoke` reaches the main process's handlers as an invoke from the
 * page's main frame and rejects with "Error invoking remote method '<channel>': <error>".
 */
import * as events from 'node:events';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import * as timers from 'node:timers';
import * as url from 'node:url';
import { types } from 'node:util';
import vm from 'node:vm';
import { dispatchInvoke } from './ipc-main.ts';
import { record } from './runtime.ts';
import type { StandInWebContents } from './web-contents.ts';

/** Copies a value from one world to the other as contextBridge does. */
function crossWorld(value: unknown, depth = 0): unknown {
  if (depth > 1000) throw new Error('Object has too much nesting');
  if (typeof value === 'function') {
    return (...args: unknown[]) => crossWorld(value(...args.map((a) => crossWorld(a, depth + 1))), depth + 1);
  }
  if (value === null || typeof value !== 'object') return value;
  if (types.isPromise(value)) {
    return (value as Promise<unknown>).then(
      (v) => crossWorld(v, depth + 1),
      (err: unknown) => {
        throw new Error(types.isNativeError(err) ? err.message : String(err));
      },
    );
  }
  if (types.isNativeError(value)) return new Error(value.message);
  if (Array.isArray(value)) return value.map((v) => crossWorld(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = crossWorld(v, depth + 1);
  return out;
}

export class RendererWorld {
  /** What the page's own scripts see on `window` of what the preload exposed. */
  readonly mainWorld: Record<string, unknown> = {};
  readonly ipcRenderer: EventEmitter & { invoke(channel: string, ...args: unknown[]): Promise<unknown> };
  preloadError: string | null = null;
  readonly #contents: StandInWebContents;
  #electron: Record<string, unknown> | null = null;

  constructor(contents: StandInWebContents) {
    this.#contents = contents;
    const emitter = new EventEmitter();
    this.ipcRenderer = Object.assign(emitter, {
      invoke: (channel: string, ...args: unknown[]) => this.#invoke(channel, args),
    });
  }

  /** The renderer's `electron` module of a sandboxed preload (the parts the app's preload uses). */
  #electronModule(): Record<string, unknown> {
    return {
      contextBridge: {
        exposeInMainWorld: (key: string, api: unknown) => {
          if (Object.hasOwn(this.mainWorld, key)) {
            throw new Error('Cannot bind an API on top of an existing property on the window object');
          }
          record('note', 'contextBridge.exposeInMainWorld', { key, api });
          this.mainWorld[key] = crossWorld(api);
        },
      },
      ipcRenderer: this.ipcRenderer,
      // a File made by the page (not dropped from the OS) has no path
      webUtils: { getPathForFile: () => '' },
    };
  }

  #require(name: string): unknown {
    this.#electron ??= this.#electronModule();
    const electron = this.#electron;
    const modules: Record<string, () => unknown> = {
      electron: () => electron,
      'electron/common': () => electron,
      'electron/renderer': () => electron,
      events: () => events,
      'node:events': () => events,
      timers: () => timers,
      'node:timers': () => timers,
      url: () => url,
      'node:url': () => url,
    };
    if (!Object.hasOwn(modules, name)) throw new Error(`module not found: ${name}`);
    return (modules[name] as () => unknown)();
  }

  runPreload(file: string): void {
    const context = vm.createContext({ console });
    const global = vm.runInContext('globalThis', context) as object;
    const preloadProcess = Object.assign(new EventEmitter(), {
      type: 'renderer',
      sandboxed: true,
      contextIsolated: true,
      platform: process.platform,
      arch: process.arch,
      versions: { ...process.versions },
      env: {},
    });
    const params = [
      'require',
      'process',
      'exports',
      'module',
      'Buffer',
      'global',
      'setImmediate',
      'clearImmediate',
    ];
    try {
      const body = readFileSync(file, 'utf8');
      const fn = vm.compileFunction(body, params, { parsingContext: context, filename: file });
      const exports = {};
      const args = [
        (name: string) => this.#require(name),
        preloadProcess,
        exports,
        { exports },
        Buffer,
        global,
        setImmediate,
        clearImmediate,
      ];
      fn(...args);
      record('note', 'preload-ran', { file });
    } catch (err) {
      this.preloadError = (err as Error)?.message ?? String(err);
      console.error(`Unable to load preload script: ${file}`);
      console.error(err);
      record('note', 'preload-error', { file, error: this.preloadError });
    }
  }

  /** A message from the main process (`webContents.send`) reaching the page's ipcRenderer. */
  deliver(channel: string, args: unknown[]): void {
    const event = { sender: this.ipcRenderer, senderId: 0, ports: [] };
    setImmediate(() => this.ipcRenderer.emit(channel, event, ...structuredClone(args)));
  }

  async #invoke(channel: string, args: unknown[]): Promise<unknown> {
    const frame = this.#contents.mainFrame;
    const event = {
      type: 'frame' as const,
      sender: this.#contents,
      get senderFrame() {
        return frame.isDestroyed() ? null : frame;
      },
      frameId: frame.routingId,
      frameTreeNodeId: frame.frameTreeNodeId,
      processId: frame.processId,
    };
    const reply = await dispatchInvoke(event, channel, args);
    if ('error' in reply) throw new Error(`Error invoking remote method '${channel}': ${reply.error}`);
    return reply.result;
  }
}
