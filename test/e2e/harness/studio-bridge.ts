/**
 * The browser-test implementation of the renderer's one bridge, `window.studio`
 * (StudioBridge in src/shared/ipc/studio-contract.ts), over the REAL studio backend running in
 * the test process — the same engine, SQLite library and sandbox the Electron main process
 * would use. Nothing here decides anything; it only carries calls and events:
 *
 * - `invoke(name, args)` → the page binding `__studioInvoke` → `backend.handle(name, args)` in
 *   node, which checks the arguments against the contract's zod schema like main's ipcMain
 *   handlers do. The StudioResult comes back as JSON text and is unwrapped in the page: a value
 *   is returned; an error is thrown as an Error named `StudioError` carrying `kind` and `field`
 *   (as the preload does).
 * - `on(event, listener)` keeps listeners in the page; every backend event is pushed from node
 *   with `page.evaluate(… window.__studioEmit(json) …)`, in the order it happened.
 * - `pathForFile(file)`: THE ONE EMULATION. In Electron the preload answers with
 *   `webUtils.getPathForFile(file)`, the real on-disk path of a file the user dropped or picked.
 *   A web page cannot know that path, so a test first writes the real file to disk, registers
 *   it (`registerFilePaths`: File.name → path, kept in `window.__studioFilePaths`) and then
 *   drops a File with the same name and bytes (built in the page from those bytes). The bridge
 *   returns the registered path for that name — exactly what Electron would return for the file —
 *   and '' for a file nobody registered (Electron's answer for a File made in memory). The
 *   backend then reads the real file from disk, as it does in the app.
 */
import type { Page } from '@playwright/test';
import type { StudioBackend } from '../../../src/main/backend/index.ts';
import type { StudioErrorView, StudioEventName, StudioResult } from '../../../src/shared/ipc/index.ts';
import { STUDIO_EVENT_NAMES } from '../../../src/shared/ipc/index.ts';
import type { Task } from '../../../src/shared/task/index.ts';

/** What the bridge needs from the backend (createStudioBackend's result). */
export type BridgeBackend = Pick<StudioBackend, 'handle' | 'on' | 'grantDroppedFile'>;

/** The backend each connected page talks to (registerFilePaths grants through it). */
const backends = new WeakMap<Page, BridgeBackend>();

/** One call that crossed the bridge, for tests that check what the UI asked for. */
export interface BridgeCall {
  name: string;
  args: unknown;
  ok: boolean;
  /** The value answered (ok calls). */
  value: unknown;
  error: StudioErrorView | null;
  /** When the call arrived (epoch ms) and how long the backend took. */
  at: number;
  ms: number;
}

interface PageGlobals {
  studio?: unknown;
  /** Answers the StudioResult as JSON text (see connectBridge). */
  __studioInvoke(name: string, args: unknown): Promise<string>;
  /** Takes `[event, payload]` as JSON text. */
  __studioEmit(message: string): void;
  __studioFilePaths: Record<string, string>;
  /** The preload's grant channel: main may read this file the user gave. */
  __studioGrant(path: string): Promise<void>;
}

/**
 * Runs in the page before any of the app's scripts (page.addInitScript), so `window.studio`
 * exists when the renderer starts, as it does after the Electron preload. Self-contained: it is
 * serialised into the page.
 */
export function installStudioBridge(): void {
  const page = globalThis as unknown as PageGlobals;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  page.__studioFilePaths = page.__studioFilePaths ?? {};
  page.__studioEmit = (message) => {
    const [event, payload] = JSON.parse(message) as [string, unknown];
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload);
      } catch (err) {
        console.error(`studio bridge: a listener of ${event} threw`, err);
      }
    }
  };
  const studio = {
    async invoke(name: string, args: unknown): Promise<unknown> {
      const result = JSON.parse(
        await page.__studioInvoke(name, args === undefined ? {} : args),
      ) as StudioResult<unknown>;
      if (result.ok) return result.value;
      const error = new Error(result.error.message) as Error & { kind: string; field: string | null };
      error.name = 'StudioError';
      error.kind = result.error.kind;
      error.field = result.error.field;
      throw error;
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    pathForFile(file: File): string {
      const path = page.__studioFilePaths[file.name] ?? '';
      // as the preload does: tell main the user gave the app this file
      if (path) void page.__studioGrant(path);
      return path;
    },
  };
  Object.defineProperty(globalThis, 'studio', {
    value: Object.freeze(studio),
    writable: false,
    configurable: false,
  });
}

export interface BridgeConnection {
  /** Every call the page made, in order. */
  readonly calls: BridgeCall[];
  /** Every event pushed to the page, in order (name only). */
  readonly events: string[];
  /** The tasks the page queued (answers of its `tasks.queue` calls), in order. */
  queuedTasks(): Task[];
  /** Stops forwarding events to this page. */
  detach(): void;
}

/**
 * Connects `page` to `backend`: the binding, the init script, and event forwarding. Call it
 * before the first navigation.
 */
export async function connectBridge(page: Page, backend: BridgeBackend): Promise<BridgeConnection> {
  const calls: BridgeCall[] = [];
  const events: string[] = [];
  await page.exposeBinding('__studioInvoke', async (_source, name: string, args: unknown) => {
    const started = Date.now();
    let result: StudioResult<unknown>;
    try {
      result = await backend.handle(name, args);
    } catch (err) {
      // The backend answers errors as results; a throw is a harness-visible bug, reported as such.
      result = {
        ok: false,
        error: { kind: 'internal', message: `backend threw: ${String(err)}`, field: null },
      };
    }
    calls.push({
      name,
      args,
      ok: result.ok,
      value: result.ok ? result.value : undefined,
      error: result.ok ? null : result.error,
      at: started,
      ms: Date.now() - started,
    });
    // As JSON text: the page parses it with JSON.parse. Handing Playwright the object would have
    // the page compile it as a JavaScript literal, which for a page of 120 tasks (~200 KB) blocks
    // the renderer for hundreds of ms — a cost of this harness that Electron's IPC
    // (structured clone) does not have, and that would distort the UI benchmarks.
    return JSON.stringify(result);
  });
  await page.exposeBinding('__studioGrant', (_source, path: string) => backend.grantDroppedFile(path));
  await page.addInitScript(installStudioBridge);
  backends.set(page, backend);

  let attached = true;
  // Events are sent one after another so the page sees them in the order they happened.
  let chain: Promise<unknown> = Promise.resolve();
  const forward = (name: StudioEventName) => (payload: unknown) => {
    if (!attached || page.isClosed()) return;
    events.push(name);
    chain = chain
      .then(() =>
        page.evaluate(
          (message) => (globalThis as unknown as PageGlobals).__studioEmit?.(message),
          JSON.stringify([name, payload]),
        ),
      )
      .catch(() => undefined); // navigation or a closed page: the event is lost, as it would be in Electron.
  };
  const cleanups = STUDIO_EVENT_NAMES.map((name) => backend.on(name, forward(name)));
  return {
    calls,
    events,
    queuedTasks: () => calls.filter((c) => c.name === 'tasks.queue' && c.ok).map((c) => c.value as Task),
    detach() {
      attached = false;
      for (const cleanup of cleanups) cleanup();
    },
  };
}

/**
 * Registers real on-disk files for `pathForFile` (File.name → path). Names must be unique
 * within a page, which the tests ensure.
 */
export async function registerFilePaths(
  page: Page,
  files: readonly { name: string; path: string }[],
): Promise<void> {
  await page.evaluate((entries) => {
    const globals = globalThis as unknown as PageGlobals;
    for (const { name, path } of entries) globals.__studioFilePaths[name] = path;
  }, files);
  // the user chose these files (a file chooser or a drag from the file manager): main may read them
  for (const { path } of files) backends.get(page)?.grantDroppedFile(path);
}
