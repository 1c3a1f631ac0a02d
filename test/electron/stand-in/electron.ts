/**
 * The stand-in `electron` module of the main process (run-app.ts resolves `electron` and
 * `electron/main` here): the members the app and electron-store use, as named exports (the
 * app's `import { app } from 'electron'`) and as the default export (electron-store's
 * `import electron from 'electron'`). Renderer-only modules (contextBridge, ipcRenderer,
 * webUtils) are not part of the main process's module in Electron either; the preload gets
 * them in renderer-world.ts.
 *
 * The type checks at the end hold the stand-in to Electron 45's typings (electron.d.ts) for
 * the members it offers: a signature that drifts from Electron's fails `npm run typecheck`.
 */
import { app, type StandInApp } from './app.ts';
import { StandInBrowserWindow } from './browser-window.ts';
import {
  dialog,
  nativeImage,
  net,
  powerMonitor,
  StandInMenu,
  StandInMenuItem,
  StandInNotification,
  shell,
} from './desktop.ts';
import { ipcMain } from './ipc-main.ts';
import { safeStorage } from './safe-storage.ts';
import { protocol, session } from './session.ts';
import type { StandInWebContents } from './web-contents.ts';

export {
  app,
  dialog,
  ipcMain,
  nativeImage,
  net,
  powerMonitor,
  protocol,
  StandInBrowserWindow as BrowserWindow,
  StandInMenu as Menu,
  StandInMenuItem as MenuItem,
  StandInNotification as Notification,
  safeStorage,
  session,
  shell,
};

/** `webContents` module: the open web contents. */
export const webContents = {
  getAllWebContents: () => StandInBrowserWindow.getAllWindows().map((w) => w.webContents),
  fromId: (id: number) =>
    StandInBrowserWindow.getAllWindows()
      .map((w) => w.webContents)
      .find((c: StandInWebContents) => c.id === id) ?? null,
};

export default {
  app,
  BrowserWindow: StandInBrowserWindow,
  dialog,
  ipcMain,
  Menu: StandInMenu,
  MenuItem: StandInMenuItem,
  nativeImage,
  net,
  Notification: StandInNotification,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  shell,
  webContents,
};

// ---------- conformance with Electron's typings (types only) ----------

/** Compiles only when `Have` can stand where Electron's `Want` is expected. */
type Fits<Want, Have extends Want> = Have;

export type AppFits = Fits<
  Pick<
    Electron.App,
    | 'whenReady'
    | 'isReady'
    | 'quit'
    | 'exit'
    | 'getPath'
    | 'setPath'
    | 'getVersion'
    | 'getName'
    | 'setName'
    | 'name'
    | 'isPackaged'
    | 'requestSingleInstanceLock'
    | 'hasSingleInstanceLock'
    | 'releaseSingleInstanceLock'
    | 'getAppPath'
  >,
  StandInApp
>;
export type AppUserModelIdFits = Fits<
  Electron.App['setAppUserModelId'],
  NonNullable<StandInApp['setAppUserModelId']>
>;
export type IpcMainFits = Fits<
  Pick<Electron.IpcMain, 'handle' | 'handleOnce' | 'removeHandler'>,
  typeof ipcMain
>;
export type ProtocolFits = Fits<
  Pick<Electron.Protocol, 'registerSchemesAsPrivileged' | 'handle' | 'unhandle' | 'isProtocolHandled'>,
  typeof protocol
>;
export type DialogFits = Fits<Pick<Electron.Dialog, 'showErrorBox'>, Pick<typeof dialog, 'showErrorBox'>>;
export type ShellFits = Fits<
  Pick<Electron.Shell, 'openExternal' | 'openPath' | 'showItemInFolder' | 'trashItem' | 'beep'>,
  typeof shell
>;
export type NetFits = Fits<Pick<Electron.Net, 'isOnline' | 'online'>, typeof net>;
export type SafeStorageFits = Fits<
  Pick<
    Electron.SafeStorage,
    | 'isEncryptionAvailable'
    | 'isAsyncEncryptionAvailable'
    | 'encryptString'
    | 'decryptString'
    | 'encryptStringAsync'
  >,
  typeof safeStorage
>;
export type NotificationFits = Fits<
  Pick<typeof Electron.Notification, 'isSupported'>,
  typeof StandInNotification
>;
