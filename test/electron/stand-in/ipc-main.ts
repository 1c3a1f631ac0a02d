/**
 * `ipcMain` and the dispatch of an `ipcRenderer.invoke`, after Electron's
 * lib/browser/ipc-main-impl.ts and lib/browser/ipc-dispatch.ts: one handler per channel (a
 * second `handle` throws), handlers looked up on the sending frame's `ipc`, then its web
 * contents' `ipc`, then `ipcMain`; the reply is `{ result }` or `{ error: String(err) }`, and
 * "No handler registered for '<channel>'" when there is none. Arguments and results cross as
 * structured clones, as between the renderer and main processes.
 */
import { EventEmitter } from 'node:events';
import { record } from './runtime.ts';

/** A handler as the app writes it (Electron types its event as IpcMainInvokeEvent). */
type InvokeHandler = (event: never, ...args: never[]) => unknown;
type CallableHandler = (event: unknown, ...args: unknown[]) => unknown;

export class IpcMainImpl extends EventEmitter {
  readonly #invokeHandlers = new Map<string, InvokeHandler>();
  readonly #label: string;

  constructor(label: string) {
    super();
    this.#label = label;
    // Do not throw exception when channel name is "error".
    super.on('error', () => {});
  }

  handle(channel: string, fn: InvokeHandler): void {
    if (this.#invokeHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    if (typeof fn !== 'function') {
      throw new TypeError(`Expected handler to be a function, but found type '${typeof fn}'`);
    }
    record('call', `${this.#label}.handle`, { channel });
    this.#invokeHandlers.set(channel, fn);
  }

  handleOnce(channel: string, fn: InvokeHandler): void {
    this.handle(channel, (event: unknown, ...args: unknown[]) => {
      this.removeHandler(channel);
      return (fn as CallableHandler)(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    record('call', `${this.#label}.removeHandler`, { channel });
    this.#invokeHandlers.delete(channel);
  }

  override on(channel: string | symbol, listener: (...args: never[]) => void): this {
    record('call', `${this.#label}.on`, { channel: String(channel) });
    return super.on(channel, listener as (...args: unknown[]) => void);
  }

  /** The channels with a handler now. */
  handledChannels(): string[] {
    return [...this.#invokeHandlers.keys()];
  }

  invokeHandlerFor(channel: string): CallableHandler | undefined {
    return this.#invokeHandlers.get(channel) as CallableHandler | undefined;
  }
}

export const ipcMain = new IpcMainImpl('ipcMain');

/** What the renderer's `ipcRenderer.invoke` receives back. */
export type InvokeReply = { result: unknown } | { error: string };

/** Anything with an `ipc` (a WebFrameMain or a WebContents). */
interface HasIpc {
  ipc: IpcMainImpl;
}

/**
 * One `ipcRenderer.invoke(channel, ...args)` arriving from `frame` in `contents`: `event` is
 * the IpcMainInvokeEvent the handler gets.
 */
export async function dispatchInvoke(
  event: { sender: HasIpc; senderFrame: HasIpc | null },
  channel: string,
  args: unknown[],
): Promise<InvokeReply> {
  const cloned = structuredClone(args);
  const targets = [event.senderFrame?.ipc, event.sender.ipc, ipcMain];
  const target = targets.find((t) => t?.invokeHandlerFor(channel));
  const handler = target?.invokeHandlerFor(channel);
  if (!handler) return { error: new Error(`No handler registered for '${channel}'`).toString() };
  try {
    const result = await Promise.resolve(handler(event, ...cloned));
    return { result: structuredClone(result) };
  } catch (err) {
    return { error: String(err) };
  }
}
