/**
 * The bridge object the preload exposes as `window.studio`, built over a small transport so it
 * is tested on Node (the preload gives it Electron's ipcRenderer and webUtils). It exposes
 * exactly the contract: `invoke` only for the calls of STUDIO_CALLS, `on` only for its events
 * (the listener gets the payload, never the IpcRendererEvent), and the path of a dropped file.
 *
 * A failed call rejects with an Error whose message is the JSON of the StudioErrorView:
 * contextBridge copies only an Error's message across worlds (custom properties are dropped),
 * and the renderer's bridge rebuilds a StudioError (kind, field, message) from that JSON.
 */
import {
  channelOf,
  STUDIO_CALLS,
  STUDIO_EVENT_NAMES,
  type StudioBridge,
  type StudioCallName,
  type StudioErrorView,
  type StudioEventName,
} from '../shared/ipc/index.ts';

export interface BridgeTransport {
  invoke(channel: string, args: unknown): Promise<unknown>;
  /** Subscribes to a channel; returns the unsubscribe function. */
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
  pathForFile(file: File): string;
  /** Tells main the user gave the app this file (GRANT_FILE_CHANNEL). */
  grantFile(path: string): void;
}

const CALL_NAMES: ReadonlySet<string> = new Set(Object.keys(STUDIO_CALLS));
const EVENT_NAMES: ReadonlySet<string> = new Set(STUDIO_EVENT_NAMES);

/** An Error that carries a StudioErrorView across contextBridge (as JSON in its message). */
export function bridgeError(view: StudioErrorView): Error {
  return new Error(JSON.stringify({ kind: view.kind, message: view.message, field: view.field }));
}

function isErrorView(value: unknown): value is StudioErrorView {
  const v = value as Partial<StudioErrorView> | null;
  return !!v && typeof v.kind === 'string' && typeof v.message === 'string';
}

async function invokeCall(transport: BridgeTransport, name: unknown, args: unknown): Promise<unknown> {
  if (typeof name !== 'string' || !CALL_NAMES.has(name)) {
    throw bridgeError({
      kind: 'unknown-call',
      message: `there is no call named ${String(name).slice(0, 100)}`,
      field: null,
    });
  }
  const result = (await transport.invoke(channelOf(name as StudioCallName), args ?? {})) as {
    ok?: unknown;
    value?: unknown;
    error?: unknown;
  } | null;
  if (result && result.ok === true) return result.value;
  if (result && result.ok === false && isErrorView(result.error)) {
    throw bridgeError({
      kind: result.error.kind,
      message: result.error.message,
      field: result.error.field ?? null,
    });
  }
  throw bridgeError({
    kind: 'internal',
    message: 'the app sent an answer the window could not read',
    field: null,
  });
}

export function createStudioBridge(transport: BridgeTransport): StudioBridge {
  const bridge = {
    invoke: (name: unknown, args: unknown) => invokeCall(transport, name, args),
    on(event: unknown, listener: unknown): () => void {
      if (typeof event !== 'string' || !EVENT_NAMES.has(event))
        throw new Error(`there is no event named ${String(event).slice(0, 100)}`);
      if (typeof listener !== 'function') throw new Error('the listener must be a function');
      const off = transport.subscribe(channelOf(event as StudioEventName), (payload) => {
        (listener as (p: unknown) => void)(payload);
      });
      return () => off();
    },
    pathForFile(file: File): string {
      let path = '';
      try {
        path = transport.pathForFile(file) || '';
      } catch {
        return '';
      }
      // a real file the user dropped or picked (a File made in the page has no path): main may read it
      if (path) transport.grantFile(path);
      return path;
    },
  };
  return bridge as unknown as StudioBridge;
}
