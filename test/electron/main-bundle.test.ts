/**
 * The built main bundle (electron-vite's build of src/main, as `npm start` would run it) on
 * plain Node against the stand-in `electron` module (test/electron/stand-in/, wired in by a
 * module resolve hook in run-app.ts), in a child process with a temporary userData folder.
 * What the app did is recorded by the stand-in; the test drives it through what the app itself
 * registered (protocol handlers, webRequest and permission handlers, IPC handlers, navigation
 * and window-open handlers, the menu, the before-quit path) and through the real preload.
 * Where Electron's behaviour is modelled rather than run, stand-in/*.ts says from which source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLibraryLock, LOCK_OWNER_FILE_NAME } from '../../src/core/library/index.ts';
import { APP_ID } from '../../src/main/platform/app-identity.ts';
import { APP_PAGE_URL, APP_SCHEME } from '../../src/main/platform/app-protocol-files.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/main/platform/content-security-policy.ts';
import { MEDIA_SCHEME } from '../../src/main/platform/media-scheme.ts';
import {
  channelOf,
  GRANT_FILE_CHANNEL,
  STUDIO_CALLS,
  type StudioCallName,
} from '../../src/shared/ipc/studio-contract.ts';
import { closedPort } from '../service/raw-http-server.ts';
import {
  AppProcess,
  type BuiltApp,
  buildApp,
  removeBuild,
  type Snapshot,
  type StandInRecord,
} from './stand-in/app-process.ts';

const ALLOWED_LINK = 'https://www.electronjs.org/docs/latest/api/safe-storage';
const CONTRACT_CHANNELS = (Object.keys(STUDIO_CALLS) as StudioCallName[]).map(channelOf).sort();

let built: BuiltApp;
const scratch: string[] = [];
const running: AppProcess[] = [];

async function tempFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

async function start(env: Record<string, string> = {}, userDataDir?: string) {
  const dir = userDataDir ?? (await tempFolder('mts-stand-in-'));
  const logFile = `${dir}-record.json`;
  scratch.push(logFile);
  const app = new AppProcess({ built, userDataDir: dir, env, logFile });
  running.push(app);
  return { app, userDataDir: dir, logFile };
}

function readLog(logFile: string): {
  exitCode: number;
  records: StandInRecord[];
  activeHandlesAtExit: string[];
} {
  return JSON.parse(readFileSync(logFile, 'utf8'));
}

const named = (records: StandInRecord[], name: string) => records.filter((r) => r.name === name);
const seqOf = (records: StandInRecord[], name: string) => named(records, name)[0]?.seq ?? Number.NaN;

beforeAll(async () => {
  built = await buildApp();
}, 120_000);

afterAll(async () => {
  for (const app of running) app.kill();
  await removeBuild(built);
  for (const path of scratch) await rm(path, { recursive: true, force: true });
});

describe('the built main bundle, first run on Linux', () => {
  let app: AppProcess;
  let userDataDir: string;
  let logFile: string;
  let snap: Snapshot;
  let libraryDir: string;

  beforeAll(async () => {
    ({ app, userDataDir, logFile } = await start());
    await app.waitForNotice('window-shown');
    snap = await app.command<Snapshot>('snapshot');
    const info = await app.command<{ result: { value: { libraryDir: string } } }>('invoke', {
      sender: 'main-frame',
      channel: channelOf('app.info'),
    });
    libraryDir = info.result.value.libraryDir;
  }, 30_000);

  it('registers both privileged schemes once, before ready, with their privileges', () => {
    expect(snap.privilegedSchemes).toEqual([
      [
        { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
        {
          scheme: MEDIA_SCHEME,
          privileges: {
            standard: true,
            secure: true,
            supportFetchAPI: true,
            stream: true,
            corsEnabled: true,
          },
        },
      ],
    ]);
    const [call] = named(snap.records, 'protocol.registerSchemesAsPrivileged');
    expect(call?.ready).toBe(false);
    expect(call?.seq).toBeLessThan(seqOf(snap.records, 'app.ready'));
    expect(snap.handledSchemes.sort()).toEqual([APP_SCHEME, MEDIA_SCHEME].sort());
  });

  it('asks for the single-instance lock before ready and focuses the window for a second instance', async () => {
    const [lock] = named(snap.records, 'app.requestSingleInstanceLock');
    expect(lock).toMatchObject({ ready: false, detail: { granted: true } });
    expect(named(snap.records, 'app.on').map((r) => (r.detail as { event: string }).event)).toContain(
      'second-instance',
    );
    await app.command('secondInstance');
    const after = (await app.command<Snapshot>('snapshot')).records;
    // the app's network poll (net.isOnline every 5 s, network-watch.ts) may fall in between
    const since = after.filter(
      (r) => r.seq > seqOf(after, 'secondInstance') && r.kind === 'call' && r.name !== 'net.isOnline',
    );
    expect(since.map((r) => r.name)).toEqual(['BrowserWindow.show', 'BrowserWindow.focus']);
  });

  it('does not call setAppUserModelId on Linux (Electron has it on Windows only)', () => {
    expect(named(snap.records, 'app.setAppUserModelId')).toEqual([]);
    expect(app.output).not.toMatch(/setAppUserModelId is not a function/);
  });

  it('opens one sandboxed, isolated window, hidden until its page is ready', () => {
    expect(named(snap.records, 'new BrowserWindow')).toHaveLength(1);
    const [window] = snap.windows;
    const prefs = window?.options.webPreferences ?? {};
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs.preload).toBe(built.preloadFile);
    expect(existsSync(String(prefs.preload))).toBe(true);
    expect(window?.options.show).toBe(false);
    expect(seqOf(snap.records, 'BrowserWindow.ready-to-show')).toBeLessThan(
      seqOf(snap.records, 'BrowserWindow.show'),
    );
    expect(window?.visible).toBe(true);
    // hardening is attached to every web contents, before the window's first load
    expect(seqOf(snap.records, 'webContents.setWindowOpenHandler')).toBeLessThan(
      seqOf(snap.records, 'webContents.loadURL'),
    );
  });

  it('loads studio-app://app/index.html, served with its policy by the handler the app registered', async () => {
    expect(named(snap.records, 'webContents.loadURL').map((r) => (r.detail as { url: string }).url)).toEqual([
      APP_PAGE_URL,
    ]);
    expect(snap.windows[0]?.url).toBe(APP_PAGE_URL);
    const page = await app.command<{ status: number; headers: Record<string, string>; body: string }>(
      'fetch',
      {
        url: APP_PAGE_URL,
      },
    );
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(readFileSync(join(built.rendererDir, 'index.html'), 'utf8'));
    for (const url of [
      'studio-app://app/%2e%2e/main/index.js',
      'studio-app://app/..%2fpreload%2findex.cjs',
    ]) {
      expect((await app.command<{ status: number }>('fetch', { url })).status).toBe(404);
    }
  });

  it("puts the policy on the app page's responses and leaves other responses alone", async () => {
    const onPage = await app.command('headersReceived', {
      url: APP_PAGE_URL,
      responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': 'kept' },
    });
    expect(onPage).toEqual({
      responseHeaders: { 'X-Other': ['kept'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    expect(await app.command('headersReceived', { url: 'https://example.com/' })).toEqual({});
  });

  it('registers one IPC handler per call of the contract, and nothing else answers the page', () => {
    expect([...snap.ipcChannels].sort()).toEqual(CONTRACT_CHANNELS);
    // besides electron-store's own listener, only the preload's grant channel (dropped files)
    expect(
      named(snap.records, 'ipcMain.on')
        .map((r) => (r.detail as { channel: string }).channel)
        .sort(),
    ).toEqual(['electron-store-get-data', GRANT_FILE_CHANNEL].sort());
    expect(snap.records.filter((r) => /^(webContents|webFrameMain)\.ipc\./.test(r.name))).toEqual([]);
  });

  it("answers the app page's top frame and refuses every other sender", async () => {
    const invoke = (sender: string, channel = channelOf('app.info'), args: unknown = {}) =>
      app.command<{
        result?: { ok: boolean; value?: { version: string }; error?: { kind: string } };
        error?: string;
      }>('invoke', { sender, channel, args });
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
    expect((await invoke('main-frame')).result).toMatchObject({ ok: true, value: { version: pkg.version } });
    for (const sender of ['sub-frame', 'other-contents', 'frame-gone']) {
      expect((await invoke(sender)).result).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    }
    const elsewhere = await app.command<{ result: { ok: boolean } }>('invoke', {
      sender: 'main-frame',
      channel: channelOf('app.info'),
      frameUrl: 'https://evil.example/',
    });
    expect(elsewhere.result).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    // the log line comes on the app's stderr, which may arrive after the answer over IPC
    await app.waitForOutput('refused app.info from https://evil.example/');
    expect(app.output).toContain('refused app.info from https://evil.example/');
    expect((await invoke('main-frame', channelOf('tasks.get'), { id: 42 })).result).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });
    expect((await invoke('main-frame', 'studio:nope')).error).toBe(
      "Error: No handler registered for 'studio:nope'",
    );
  });

  it('refuses navigation away, new windows and webviews; opens only allowed links outside', async () => {
    const nav = (url: string, event = 'will-navigate') =>
      app.command<{ prevented: boolean }>('navigate', { url, event });
    expect(await nav('https://evil.example/')).toEqual({ prevented: true });
    expect(await nav('file:///etc/passwd')).toEqual({ prevented: true });
    expect(await nav('https://evil.example/', 'will-redirect')).toEqual({ prevented: true });
    expect(await nav(`${APP_PAGE_URL}#/library`)).toEqual({ prevented: false });
    expect(await nav(ALLOWED_LINK)).toEqual({ prevented: true });
    expect(await app.command('attachWebview')).toEqual({ prevented: true });
    expect(await app.command('windowOpen', { url: 'https://evil.example/' })).toEqual({
      opened: false,
      response: { action: 'deny' },
    });
    expect(await app.command('windowOpen', { url: ALLOWED_LINK })).toMatchObject({ opened: false });
    const after = await app.command<Snapshot>('snapshot');
    const opened = named(after.records, 'shell.openExternal').map((r) => (r.detail as { url: string }).url);
    expect(opened).toEqual([ALLOWED_LINK, ALLOWED_LINK]);
  });

  it('grants the app page only clipboard writes and fullscreen, and nothing to other pages', async () => {
    const ask = (kind: string, permission: string, requestingUrl = APP_PAGE_URL) =>
      app.command('permission', { kind, permission, requestingUrl });
    expect(await ask('request', 'clipboard-sanitized-write')).toBe(true);
    expect(await ask('check', 'fullscreen')).toBe(true);
    expect(await ask('request', 'media')).toBe(false);
    expect(await ask('request', 'clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(await ask('check', 'geolocation')).toBe(false);
    expect(await ask('device', 'usb')).toBe(false);
  });

  it('serves library media, and 404 for anything outside the library', async () => {
    await writeFile(join(libraryDir, 'probe.png'), 'not really a png');
    await writeFile(join(userDataDir, 'outside.png'), 'private');
    await symlink(join(userDataDir, 'outside.png'), join(libraryDir, 'leak.png'));
    const get = (path: string) =>
      app.command<{ status: number; body: string; headers: Record<string, string> }>('fetch', {
        url: `${MEDIA_SCHEME}://library/${path}`,
      });
    const probe = await get('probe.png');
    expect(probe).toMatchObject({ status: 200, body: 'not really a png' });
    // only the app page may read it (never *: security review, issue 17 item 9)
    expect(probe.headers['access-control-allow-origin']).toBe(`${APP_SCHEME}://app`);
    for (const path of [
      '%2e%2e/outside.png',
      '..%2foutside.png',
      'leak.png',
      'engine-lock.sqlite',
      '../outside.png',
    ]) {
      const answer = await get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.body).not.toContain('private');
    }
  });

  it('runs the preload sandboxed: window.studio reaches the handlers and hears menu commands', async () => {
    expect(snap.windows[0]).toMatchObject({ preloadError: null, exposed: ['studio'] });
    const info = await app.command<{ value: { mediaBaseUrl: string } }>('pageInvoke', { name: 'app.info' });
    expect(info.value.mediaBaseUrl).toBe(`${MEDIA_SCHEME}://library/`);
    const unknown = await app.command<{ rejected: string }>('pageInvoke', { name: 'nope' });
    expect(JSON.parse(unknown.rejected)).toMatchObject({ kind: 'unknown-call' });
    await app.command('pageSubscribe', { event: 'menu.command' });
    await app.command('menuClick', { path: ['&File', 'New Song'] });
    await app.waitForNotice('page-event', 5_000);
    expect(await app.command('pageEvents')).toEqual([{ event: 'menu.command', payload: 'new-song' }]);
  });

  it('asks with dialogs parented to the main window: a folder, and before the key goes to a new address', async () => {
    await app.command('queueDialogAnswer', {
      kind: 'showOpenDialog',
      answer: { canceled: false, filePaths: ['/x/y'] },
    });
    expect(await app.command('pageInvoke', { name: 'settings.chooseLibraryDir' })).toEqual({ value: '/x/y' });
    const after = await app.command<Snapshot>('snapshot');
    expect(named(after.records, 'dialog.showOpenDialog').at(-1)?.detail).toMatchObject({
      window: '[BrowserWindow 1]',
      options: { properties: ['openDirectory', 'createDirectory'] },
    });
    // a key kept by the keychain is tied to its addresses; the page moving it is asked in a message box
    // (stored for an address on this computer where nothing answers: a new key is tried there
    // before it is stored, and this test sends no key off this computer)
    const here = { serviceProfile: 'custom', baseUrl: `http://127.0.0.1:${await closedPort()}` };
    await app.command('pageInvoke', { name: 'settings.update', args: here });
    await app.command('pageInvoke', { name: 'settings.setApiKey', args: { key: 'a-key-for-the-stand-in' } });
    const no = { response: 0, checkboxChecked: false };
    await app.command('queueDialogAnswer', { kind: 'showMessageBox', answer: no });
    const args = { serviceProfile: 'custom', baseUrl: 'https://gateway.example.com/v2' };
    const moved = await app.command<{ rejected: string }>('pageInvoke', { name: 'settings.update', args });
    expect(JSON.parse(moved.rejected)).toMatchObject({ kind: 'not-confirmed' });
    const box = named((await app.command<Snapshot>('snapshot')).records, 'dialog.showMessageBox').at(-1);
    type Box = { window: string; options: { detail: string; buttons: string[] } };
    expect(box).toBeDefined();
    const { window, options } = box!.detail as Box;
    expect(window).toBe('[BrowserWindow 1]');
    expect(options.buttons).toEqual(['Cancel', 'Send the key there']);
    expect(options.detail).toContain('https://gateway.example.com/v2/api/v1/task');
    await app.command('pageInvoke', { name: 'settings.clearApiKey' });
  });

  it("passes the system's network signal on after a wake-up", async () => {
    const signal = async () =>
      (await app.command<{ value: { networkSignal: boolean } }>('pageInvoke', { name: 'engine.status' }))
        .value.networkSignal;
    expect(await signal()).toBe(true);
    await app.command('setOnline', { online: false });
    await app.command('powerEvent', { event: 'resume' });
    expect(await signal()).toBe(false);
    await app.command('setOnline', { online: true });
    await app.command('powerEvent', { event: 'unlock-screen' });
    expect(await signal()).toBe(true);
  });

  it('quits cleanly from the Quit command: backend closed, then app.quit, exit 0, library released', async () => {
    const fileMenu = (snap.menu as { label?: string; submenu?: { role?: string }[] }[]).find(
      (m) => m.label === '&File',
    );
    expect(fileMenu?.submenu?.map((item) => item.role)).toContain('quit');
    const asked = performance.now();
    await app.command('quit');
    const exit = await app.waitForExit(10_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - asked).toBeLessThan(5_000);
    const log = readLog(logFile);
    const records = log.records.slice(log.records.findIndex((r) => r.kind === 'action' && r.name === 'quit'));
    const sequence = records
      .filter((r) =>
        ['app.before-quit', 'app.quit', 'app.will-quit', 'BrowserWindow.closed'].includes(r.name),
      )
      .map((r) => `${r.kind} ${r.name}`);
    expect(sequence).toEqual([
      'event app.before-quit', // prevented: the backend closes first
      'call app.quit', // the app, once the backend has closed
      'event app.before-quit',
      'event BrowserWindow.closed',
      'event app.will-quit',
      'event app.quit',
    ]);
    expect(named(records, 'app.window-all-closed')).toEqual([]);
    const removed = named(records, 'ipcMain.removeHandler').map(
      (r) => (r.detail as { channel: string }).channel,
    );
    expect(removed.sort()).toEqual(CONTRACT_CHANNELS);
    const appQuit = records.find((r) => r.kind === 'call' && r.name === 'app.quit');
    expect(appQuit?.seq).toBeGreaterThan(
      Math.max(...named(records, 'ipcMain.removeHandler').map((r) => r.seq)),
    );
    // the engine released the library (its owner note goes with the lock); nothing left open
    expect(existsSync(join(libraryDir, LOCK_OWNER_FILE_NAME))).toBe(false);
    acquireLibraryLock(libraryDir).release();
    expect(log.activeHandlesAtExit.filter((h) => !['PipeWrap', 'ProcessWrap'].includes(h))).toEqual([]);
  }, 20_000);
});

describe('the built main bundle, other starts', () => {
  it('on Windows (emulated) sets the AppUserModelID before ready; closing the last window quits', async () => {
    const { app, logFile } = await start({ STAND_IN_PLATFORM: 'win32' });
    await app.waitForNotice('window-shown');
    const snap = await app.command<Snapshot>('snapshot');
    const [call] = named(snap.records, 'app.setAppUserModelId');
    expect(call).toMatchObject({ detail: { id: APP_ID }, ready: false });
    expect(call?.seq).toBeLessThan(seqOf(snap.records, 'app.ready'));
    // the keychain backend is asked on Linux only (Electron has the method there only)
    expect(named(snap.records, 'safeStorage.getSelectedStorageBackend')).toEqual([]);
    await app.command('closeWindow');
    expect(await app.waitForExit(10_000)).toMatchObject({ code: 0, signal: null });
    const names = readLog(logFile).records.map((r) => `${r.kind} ${r.name}`);
    const from = names.indexOf('event app.window-all-closed');
    expect(from).toBeGreaterThan(-1);
    expect(names.slice(from).filter((n) => /app\.(before-quit|quit|will-quit)$/.test(n))).toEqual([
      'call app.quit', // the app's window-all-closed listener (not on macOS)
      'event app.before-quit', // prevented: the backend closes first
      'call app.quit',
      'event app.before-quit',
      'event app.will-quit',
      'event app.quit',
    ]);
  }, 30_000);

  it('a second instance quits at once, without a window, a handler or the backend', async () => {
    const { app, userDataDir, logFile } = await start({ STAND_IN_SINGLE_INSTANCE: 'taken' });
    expect(await app.waitForExit(10_000)).toMatchObject({ code: 0, signal: null });
    const names = readLog(logFile).records.map((r) => `${r.kind} ${r.name}`);
    expect(names).toContain('call app.quit');
    expect(names.filter((n) => /BrowserWindow|ipcMain\.handle|session\.|app\.getPath/.test(n))).toEqual([]);
    expect(existsSync(join(userDataDir, 'settings.json'))).toBe(false);
  }, 30_000);

  it('a library held by another process: an error box, then exit code 1 and no window', async () => {
    const userDataDir = await tempFolder('mts-stand-in-busy-');
    const library = join(userDataDir, 'demo-library');
    await mkdir(library, { recursive: true });
    const held = acquireLibraryLock(library);
    try {
      const { app, logFile } = await start({}, userDataDir);
      expect(await app.waitForExit(10_000)).toMatchObject({ code: 1, signal: null });
      const records = readLog(logFile).records;
      expect(named(records, 'dialog.showErrorBox')).toMatchObject([
        {
          detail: {
            title: 'Media Task Studio cannot start',
            content: expect.stringContaining('already open'),
          },
        },
      ]);
      expect(named(records, 'app.exit')).toMatchObject([{ detail: { exitCode: 1 } }]);
      expect(named(records, 'new BrowserWindow')).toEqual([]);
    } finally {
      held.release();
    }
  }, 30_000);
});
