/**
 * `session`, `protocol` and what a Session holds (its protocol handlers, webRequest listeners
 * and permission handlers), after Electron's lib/browser/api/protocol.ts, session.ts and
 * shell/browser/api/electron_api_protocol.cc:
 * - `session.defaultSession` (and `fromPartition`) throw "Session can only be received when app
 *   is ready" (a TypeError) before ready; so does `protocol.handle`, which goes through it.
 * - `protocol.registerSchemesAsPrivileged` throws "protocol.registerSchemesAsPrivileged should be
 *   called before app is ready" after ready.
 * - `protocol.handle` throws "Failed to register protocol: <scheme>" for a scheme already
 *   handled; a request reaches the handler as a Fetch API Request (headers copied, an `origin:
 *   null` header dropped) and a Response is checked as Electron's validateResponse does.
 */
import { EventEmitter } from 'node:events';
import { DESCRIBE, isReady, record } from './runtime.ts';

type Handler = (request: Request) => Response | Promise<Response>;
type HeadersListener = (details: Record<string, unknown>, callback: (response: unknown) => void) => void;
type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: Record<string, unknown>,
) => void;
type PermissionCheckHandler = (
  contents: unknown,
  permission: string,
  requestingOrigin: string,
  details: Record<string, unknown>,
) => boolean;

/** What Electron hands Chromium for a protocol response. */
export interface ProtocolAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Electron's validateResponse (lib/browser/api/protocol.ts). */
function isValidResponse(res: unknown): res is Response {
  if (!res || typeof res !== 'object') return false;
  const r = res as Response;
  if (r.type === 'error') return true;
  if (typeof r.status !== 'number' || typeof r.headers !== 'object') return false;
  return r.body === null || r.body instanceof ReadableStream;
}

export class StandInProtocol {
  readonly #handlers = new Map<string, Handler>();

  handle(scheme: string, handler: Handler): void {
    if (this.#handlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
    record('call', 'session.protocol.handle', { scheme });
    this.#handlers.set(scheme, handler);
  }

  unhandle(scheme: string): void {
    if (!this.#handlers.delete(scheme)) throw new Error(`Failed to unhandle protocol: ${scheme}`);
    record('call', 'session.protocol.unhandle', { scheme });
  }

  isProtocolHandled(scheme: string): boolean {
    return this.#handlers.has(scheme);
  }

  handledSchemes(): string[] {
    return [...this.#handlers.keys()];
  }

  /** A request for `url` as Chromium would send it to the registered handler; null when none. */
  async answer(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = this.#handlers.get(scheme);
    if (!handler) return null;
    const headers = new Headers(init.headers ?? {});
    if (headers.get('origin') === 'null') headers.delete('origin');
    const res = await handler(new Request(url, { method: init.method ?? 'GET', headers }));
    if (!isValidResponse(res)) return { error: 'ERR_UNEXPECTED (-9)' };
    if (res.type === 'error') return { error: 'ERR_FAILED (-2)' };
    const body = res.body ? Buffer.from(await res.arrayBuffer()).toString('utf8') : '';
    return { status: res.status, headers: Object.fromEntries(res.headers), body } satisfies ProtocolAnswer;
  }
}

export class StandInWebRequest {
  #headersReceived: HeadersListener | null = null;

  onHeadersReceived(filterOrListener: unknown, maybeListener?: HeadersListener | null): void {
    const listener = (typeof filterOrListener === 'function' ? filterOrListener : maybeListener) ?? null;
    const filter = typeof filterOrListener === 'function' ? null : filterOrListener;
    record('call', 'session.webRequest.onHeadersReceived', { filter, listener });
    this.#headersReceived = listener as HeadersListener | null;
  }

  /** Runs the listener for one response; what it passed to its callback, or 'no-listener'. */
  headersReceived(details: Record<string, unknown>): Promise<unknown> {
    const listener = this.#headersReceived;
    if (!listener) return Promise.resolve('no-listener');
    return new Promise((resolve) => listener(details, resolve));
  }
}

let nextSessionId = 1;

export class StandInSession extends EventEmitter {
  readonly protocol = new StandInProtocol();
  readonly webRequest = new StandInWebRequest();
  readonly partition: string;
  readonly #id = nextSessionId++;
  #permissionRequest: PermissionRequestHandler | null = null;
  #permissionCheck: PermissionCheckHandler | null = null;
  #devicePermission: ((details: unknown) => boolean) | null = null;

  constructor(partition: string) {
    super();
    this.partition = partition;
  }

  [DESCRIBE](): string {
    return `[Session ${this.#id} '${this.partition}']`;
  }

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    record('call', 'session.setPermissionRequestHandler', { handler });
    this.#permissionRequest = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    record('call', 'session.setPermissionCheckHandler', { handler });
    this.#permissionCheck = handler;
  }

  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void {
    record('call', 'session.setDevicePermissionHandler', { handler });
    this.#devicePermission = handler;
  }

  /** A page asks for a permission: the handler's answer, or 'no-handler' (Electron then grants). */
  requestPermission(contents: unknown, permission: string, details: Record<string, unknown>) {
    const handler = this.#permissionRequest;
    if (!handler) return Promise.resolve<boolean | 'no-handler'>('no-handler');
    return new Promise<boolean | 'no-handler'>((resolve) =>
      handler(contents, permission, (granted) => resolve(granted), details),
    );
  }

  checkPermission(contents: unknown, permission: string, origin: string, details: Record<string, unknown>) {
    const handler = this.#permissionCheck;
    return handler ? handler(contents, permission, origin, details) : 'no-handler';
  }

  checkDevicePermission(details: unknown): boolean | 'no-handler' {
    return this.#devicePermission ? this.#devicePermission(details) : 'no-handler';
  }
}

const sessions = new Map<string, StandInSession>();

function fromPartition(partition: string): StandInSession {
  if (!isReady()) throw new TypeError('Session can only be received when app is ready');
  let s = sessions.get(partition);
  if (!s) {
    s = new StandInSession(partition);
    sessions.set(partition, s);
  }
  return s;
}

export const session = {
  fromPartition,
  get defaultSession(): StandInSession {
    return fromPartition('');
  },
};

/** The privileged schemes as registered (each call's list). */
const privilegedCalls: unknown[][] = [];

export function privilegedSchemeCalls(): unknown[][] {
  return privilegedCalls.slice();
}

export const protocol = {
  registerSchemesAsPrivileged(customSchemes: unknown): void {
    if (isReady()) {
      throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    }
    if (!Array.isArray(customSchemes) || customSchemes.some((s) => typeof s?.scheme !== 'string')) {
      throw new Error('Argument must be an array of custom schemes.');
    }
    record('call', 'protocol.registerSchemesAsPrivileged', { customSchemes });
    privilegedCalls.push(structuredClone(customSchemes));
  },
  handle: (scheme: string, handler: Handler) => session.defaultSession.protocol.handle(scheme, handler),
  unhandle: (scheme: string) => session.defaultSession.protocol.unhandle(scheme),
  isProtocolHandled: (scheme: string) => session.defaultSession.protocol.isProtocolHandled(scheme),
};
