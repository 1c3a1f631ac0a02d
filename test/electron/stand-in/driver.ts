/**
 * The test's hands inside the child process: commands arrive over the IPC channel and act as
 * the user, the page or the operating system would (a page navigating, a frame invoking, a
 * menu click, the Quit command), always through what the app registered with the stand-in.
 * Each command answers `{ type: 'reply', id, ok, value | error }`.
 */
import { app } from './app.ts';
import { StandInBrowserWindow } from './browser-window.ts';
import { powerMonitor, queueDialogAnswer, StandInMenu, type StandInMenuItem, setOnline } from './desktop.ts';
import { dispatchInvoke, ipcMain } from './ipc-main.ts';
import { describe, notify, record, recordsSoFar } from './runtime.ts';
import { privilegedSchemeCalls, session } from './session.ts';
import { StandInWebContents, StandInWebFrame } from './web-contents.ts';
import { makeEvent } from './window-list.ts';

type Params = Record<string, unknown>;

function mainWindow(): StandInBrowserWindow {
  const window = StandInBrowserWindow.getAllWindows()[0];
  if (!window) throw new Error('the app has no window');
  return window;
}

/** What the test can see of the app's state without a command of its own. */
function snapshot() {
  const windows = StandInBrowserWindow.getAllWindows();
  return {
    records: recordsSoFar(),
    privilegedSchemes: privilegedSchemeCalls(),
    ipcChannels: ipcMain.handledChannels(),
    handledSchemes: app.isReady() ? session.defaultSession.protocol.handledSchemes() : [],
    windows: windows.map((w) => ({
      id: w.id,
      options: describe(w.options),
      url: w.webContents.getURL(),
      visible: w.isVisible(),
      preloadError: w.webContents.renderer?.preloadError ?? null,
      exposed: Object.keys(w.webContents.renderer?.mainWorld ?? {}),
    })),
    menu: describe(StandInMenu.getApplicationMenu()),
  };
}

/** A frame that sends an invoke: the main window's main frame, or one the app must not trust. */
function senderOf(kind: string) {
  const contents = mainWindow().webContents;
  const top = contents.mainFrame;
  if (kind === 'main-frame') return { sender: contents, frame: top };
  if (kind === 'sub-frame') return { sender: contents, frame: new StandInWebFrame(contents, top, top.url) };
  if (kind === 'frame-gone') return { sender: contents, frame: null };
  if (kind === 'other-contents') {
    const other = new StandInWebContents();
    other.mainFrame.url = top.url;
    return { sender: other, frame: other.mainFrame };
  }
  throw new Error(`unknown sender ${kind}`);
}

/**
 * An `ipcRenderer.invoke` from `p.sender`; with `p.frameUrl`, the sending frame shows that URL
 * meanwhile (the main window's top frame after a navigation elsewhere).
 */
async function invokeFrom(p: Params) {
  const { sender, frame } = senderOf(String(p.sender));
  const event = {
    type: 'frame' as const,
    sender,
    senderFrame: frame,
    frameId: frame?.routingId ?? -1,
    processId: frame?.processId ?? -1,
  };
  const shown = frame?.url ?? '';
  if (frame && typeof p.frameUrl === 'string') frame.url = p.frameUrl;
  try {
    return await dispatchInvoke(event, String(p.channel), [p.args ?? {}]);
  } finally {
    if (frame) frame.url = shown;
  }
}

/** The page (through the preload's exposed bridge) calling `window.studio.invoke(name, args)`. */
async function pageInvoke(p: Params) {
  const world = mainWindow().webContents.renderer;
  const studio = world?.mainWorld.studio as { invoke(n: unknown, a: unknown): Promise<unknown> } | undefined;
  if (!studio) throw new Error('the page has no window.studio');
  try {
    return { value: await studio.invoke(p.name, p.args ?? {}) };
  } catch (err) {
    return { rejected: (err as Error).message };
  }
}

/** The page subscribing to an event through the bridge; what arrives is kept for `pageEvents`. */
const pageEvents: { event: string; payload: unknown }[] = [];
function pageSubscribe(p: Params) {
  const world = mainWindow().webContents.renderer;
  const studio = world?.mainWorld.studio as { on(e: unknown, l: (x: unknown) => void): unknown } | undefined;
  if (!studio) throw new Error('the page has no window.studio');
  const event = String(p.event);
  studio.on(event, (payload) => {
    pageEvents.push({ event, payload });
    notify('page-event', { event });
  });
  return true;
}

/** A navigation the page starts (a link, `location = …`): whether the app prevented it. */
function navigate(p: Params) {
  const contents = mainWindow().webContents;
  const url = String(p.url);
  const name = String(p.event ?? 'will-navigate');
  const frame = contents.mainFrame;
  const fields = {
    url,
    isSameDocument: false,
    isMainFrame: true,
    processId: frame.processId,
    routingId: 1,
    frame,
  };
  const event = makeEvent({ ...fields, initiator: frame });
  contents.emit(name, event, url, false, true, frame.processId, frame.routingId);
  return { prevented: event.defaultPrevented };
}

function attachWebview() {
  const event = makeEvent();
  mainWindow().webContents.emit('will-attach-webview', event, {}, {});
  return { prevented: event.defaultPrevented };
}

function windowOpen(p: Params) {
  const details = {
    url: String(p.url),
    frameName: '',
    features: '',
    disposition: 'foreground-tab',
    referrer: {},
  };
  return mainWindow().webContents.callWindowOpenHandler(details);
}

function headersReceived(p: Params) {
  const contents = mainWindow().webContents;
  return session.defaultSession.webRequest.headersReceived({
    id: 1,
    url: p.url,
    method: 'GET',
    resourceType: p.resourceType ?? 'mainFrame',
    responseHeaders: p.responseHeaders ?? {},
    statusCode: 200,
    statusLine: 'HTTP/1.1 200 OK',
    timestamp: Date.now(),
    webContentsId: contents.id,
    webContents: contents,
    frame: contents.mainFrame,
    referrer: '',
  });
}

async function permission(p: Params) {
  const contents = mainWindow().webContents;
  const details = { requestingUrl: p.requestingUrl, isMainFrame: true };
  if (p.kind === 'request')
    return session.defaultSession.requestPermission(contents, String(p.permission), details);
  if (p.kind === 'device') return session.defaultSession.checkDevicePermission({ deviceType: 'usb' });
  const origin = new URL(String(p.requestingUrl)).origin;
  return session.defaultSession.checkPermission(contents, String(p.permission), origin, details);
}

/** Clicks a menu item by its labels (`['&File', 'New Song']`), as the user would. */
function menuClick(p: Params) {
  const path = p.path as string[];
  let items = StandInMenu.getApplicationMenu()?.items ?? [];
  let item: StandInMenuItem | undefined;
  for (const label of path) {
    item = items.find((i) => i.label === label);
    if (!item) throw new Error(`no menu item ${label}`);
    items = item.submenu?.items ?? [];
  }
  if (!item?.click) throw new Error(`menu item ${path.join(' > ')} has no click handler`);
  item.click(item, StandInBrowserWindow.getFocusedWindow(), { triggeredByAccelerator: false });
  return true;
}

const COMMANDS: Record<string, (p: Params) => unknown> = {
  snapshot: () => snapshot(),
  fetch: (p) =>
    session.defaultSession.protocol.answer(String(p.url), {
      method: (p.method as string | undefined) ?? 'GET',
      headers: (p.headers as Record<string, string> | undefined) ?? {},
    }),
  headersReceived,
  navigate,
  attachWebview,
  windowOpen,
  permission,
  invoke: invokeFrom,
  pageInvoke,
  pageSubscribe,
  pageEvents: () => pageEvents.slice(),
  sent: () => mainWindow().webContents.sent.slice(),
  menuClick,
  queueDialogAnswer: (p) => queueDialogAnswer(String(p.kind), p.answer),
  setOnline: (p) => setOnline(p.online === true),
  powerEvent: (p) => powerMonitor.emit(String(p.event)),
  secondInstance: () => app.emit('second-instance', makeEvent(), ['electron', '.'], process.cwd(), {}),
  // the Quit menu role and the window's close button
  quit: () => setImmediate(() => app.quitNow()),
  closeWindow: () => mainWindow().close(),
};

async function run(message: { id: number; command: string; params?: Params }): Promise<unknown> {
  if (!Object.hasOwn(COMMANDS, message.command)) throw new Error(`unknown command ${message.command}`);
  const command = COMMANDS[message.command] as (p: Params) => unknown;
  record('action', message.command, message.params ?? null);
  return command(message.params ?? {});
}

/** Answers the test's commands; the channel never keeps the process alive by itself. */
export function startDriver(): void {
  if (!process.send) return;
  process.channel?.unref();
  process.on('message', (message: { id: number; command: string; params?: Params }) => {
    run(message).then(
      (value) => process.send?.({ type: 'reply', id: message.id, ok: true, value: describe(value) }),
      (err: unknown) => process.send?.({ type: 'reply', id: message.id, ok: false, error: String(err) }),
    );
  });
  // the test went away: end as a killed app would
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
