/**
 * The browser-test side of the renderer's one bridge, `window.studio` (StudioBridge in
 * src/shared/ipc/studio-contract.ts). The page runs the preload's OWN bridge code
 * (createStudioBridge, bundled by page-bridge-script.ts from page-bridge-entry.ts), over the
 * REAL studio backend running in the test process — the same engine, SQLite library and sandbox
 * the Electron main process would use. Only the transport differs from Electron's:
 *
 * - a call goes to the page binding `__studioInvoke` → `backend.handle(name, args)` in node,
 *   which checks the arguments against the contract's zod schema like main's ipcMain handlers
 *   do; the StudioResult comes back as JSON text and the preload's code unwraps it (a failure
 *   rejects with the error view as JSON in the message, as across contextBridge).
 * - every backend event is pushed from node with `page.evaluate(… __studioEmit(json) …)` on its
 *   channel, in the order it happened.
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
import { channelOf, STUDIO_EVENT_NAMES } from '../../../src/shared/ipc/index.ts';
import type { Task } from '../../../src/shared/task/index.ts';
import { pageBridgeScript } from './page-bridge-script.ts';

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

/** The page globals page-bridge-entry.ts sets up (the ones node reaches into). */
interface PageGlobals {
  /** Takes `[channel, payload]` as JSON text. */
  __studioEmit(message: string): void;
  __studioFilePaths: Record<string, string>;
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
  await page.addInitScript({ content: await pageBridgeScript() });
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
          JSON.stringify([channelOf(name), payload]),
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
