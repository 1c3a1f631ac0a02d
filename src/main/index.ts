/**
 * The Electron shell: wiring only. src/main is the shell: this file, the Electron-backed
 * adapters (platform/) and the window's call router over the core (backend/, plain Node, run
 * without Electron by the browser tests). The headless core that the CLI runs too (engine, store,
 * service client, inputs, library files, downloads, settings file) is src/core. Only this file
 * and platform/ import electron.
 */
import { join } from 'node:path';
import { app, type BrowserWindow, dialog, Menu, session } from 'electron';
import { createStudioBackend, type StudioBackend } from './backend/index.ts';
import { APP_ID } from './platform/app-identity.ts';
import { buildAppMenu } from './platform/app-menu.ts';
import { appPageOf } from './platform/app-page-origin.ts';
import { handleAppProtocol, registerPrivilegedSchemes } from './platform/app-protocol.ts';
import { createMainWindow, hardenSession, hardenWebContents } from './platform/app-window.ts';
import { electronDialogs, electronShell } from './platform/desktop-adapters.ts';
import { createElectronSettingsFile } from './platform/electron-settings-file.ts';
import { finishNoticeOf } from './platform/finish-notice.ts';
import { handleMediaProtocol } from './platform/media-protocol.ts';
import { MEDIA_BASE_URL } from './platform/media-scheme.ts';
import { watchNetwork } from './platform/network-watch.ts';
import { SafeStorageKeyVault } from './platform/safe-storage-key-vault.ts';
import { forwardStudioEvents, registerStudioCalls } from './platform/studio-ipc.ts';

const here = import.meta.dirname;
const FILES = {
  preload: join(here, '../preload/index.cjs'),
  rendererIndex: join(here, '../renderer/index.html'),
  icon: join(here, '../../resources/icon.png'),
};

const log = (line: string) => process.stderr.write(`[media-task-studio] ${line}\n`);

// Before the app is ready, synchronously (ES module main: no await before this point).
registerPrivilegedSchemes();
// Windows shows notifications only for the id the installer registered
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

let mainWindow: BrowserWindow | null = null;
const currentWindow = () => mainWindow;
const page = appPageOf(process.env.ELECTRON_RENDERER_URL, app.isPackaged, FILES.rendererIndex);

function focusMainWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function openMainWindow(): void {
  mainWindow = createMainWindow(page, FILES);
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
}

async function startBackend(): Promise<StudioBackend> {
  const userDataDir = app.getPath('userData');
  const shellOps = electronShell(currentWindow, FILES.icon);
  const backend = await createStudioBackend({
    userDataDir,
    secrets: await SafeStorageKeyVault.open(userDataDir, log),
    settings: createElectronSettingsFile(userDataDir),
    dialogs: electronDialogs(currentWindow),
    shell: shellOps,
    appVersion: app.getVersion(),
    platform: process.platform,
    mediaBaseUrl: MEDIA_BASE_URL,
    log,
  });
  backend.onTaskFinished((task) => {
    if (mainWindow?.isFocused()) return;
    const notice = finishNoticeOf(task, process.platform);
    shellOps.notify(notice.title, notice.body);
  });
  return backend;
}

function quitGracefully(backend: StudioBackend, stops: (() => void)[]): void {
  let closed = false;
  let closing = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    for (const stop of stops) stop();
    void backend
      .close()
      .catch((err: unknown) => log(`closing the library failed: ${(err as Error)?.message ?? err}`))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

async function main(): Promise<void> {
  hardenSession(session.defaultSession, page);
  if (page.kind === 'app') handleAppProtocol(session.defaultSession, page.dir);
  let backend: StudioBackend;
  try {
    backend = await startBackend();
  } catch (err) {
    dialog.showErrorBox('Media Task Studio cannot start', (err as Error)?.message ?? String(err));
    app.exit(1);
    return;
  }
  handleMediaProtocol(session.defaultSession, backend, page);
  const stops = [
    registerStudioCalls(backend, currentWindow, page, log),
    forwardStudioEvents(backend, currentWindow),
    watchNetwork((online) => backend.setNetworkOnline(online)),
  ];
  Menu.setApplicationMenu(buildAppMenu((command) => backend.emitMenuCommand(command)));
  quitGracefully(backend, stops);
  openMainWindow();
  app.on('activate', () => {
    if (!mainWindow) openMainWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', focusMainWindow);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, page));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app
    .whenReady()
    .then(main)
    .catch((err: unknown) => {
      log(`startup failed: ${(err as Error)?.stack ?? err}`);
      app.exit(1);
    });
}
