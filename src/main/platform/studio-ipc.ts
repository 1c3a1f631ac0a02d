/**
 * The IPC side of the contract: one `ipcMain.handle` per call of STUDIO_CALLS on its channel,
 * each checking in one place that the message comes from the app's page in the main window's
 * top frame before the backend checks the arguments and runs it; and the backend's events sent
 * to the window on their channels.
 */
import { type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain } from 'electron';
import {
  channelOf,
  GRANT_FILE_CHANNEL,
  STUDIO_CALLS,
  STUDIO_EVENT_NAMES,
  type StudioCallName,
  type StudioResult,
} from '../../shared/index.ts';
import type { StudioBackend } from '../backend/index.ts';
import { type AppPage, isAllowedSender, type SenderFacts } from './app-page-origin.ts';

function senderFactsOf(
  event: IpcMainInvokeEvent | IpcMainEvent,
  window: BrowserWindow | null,
): SenderFacts | null {
  const frame = event.senderFrame;
  if (!frame) return null;
  const isMainWindow =
    window !== null &&
    !window.isDestroyed() &&
    event.sender === window.webContents &&
    frame === window.webContents.mainFrame;
  return { url: frame.url, isTopFrame: frame.parent === null, isMainWindow };
}

const REFUSED: StudioResult<never> = {
  ok: false,
  error: { kind: 'forbidden', message: 'this page may not call the app', field: null },
};

/** Registers a handler per call; returns a function that removes them. */
export function registerStudioCalls(
  backend: StudioBackend,
  mainWindow: () => BrowserWindow | null,
  page: AppPage,
  log: (line: string) => void,
): () => void {
  const names = Object.keys(STUDIO_CALLS) as StudioCallName[];
  for (const name of names) {
    ipcMain.handle(channelOf(name), async (event, args: unknown) => {
      if (!isAllowedSender(senderFactsOf(event, mainWindow()), page)) {
        log(`refused ${name} from ${event.senderFrame?.url ?? 'a frame that is gone'}`);
        return REFUSED;
      }
      return backend.handle(name, args);
    });
  }
  // files the user dropped or picked, from the preload's own channel (same sender check)
  const onGrant = (event: IpcMainEvent, path: unknown) => {
    if (!isAllowedSender(senderFactsOf(event, mainWindow()), page)) return;
    if (typeof path === 'string') backend.grantDroppedFile(path);
  };
  ipcMain.on(GRANT_FILE_CHANNEL, onGrant);
  return () => {
    for (const name of names) ipcMain.removeHandler(channelOf(name));
    ipcMain.removeListener(GRANT_FILE_CHANNEL, onGrant);
  };
}

/** Sends every backend event to the main window; returns a function that stops it. */
export function forwardStudioEvents(
  backend: StudioBackend,
  mainWindow: () => BrowserWindow | null,
): () => void {
  const offs = STUDIO_EVENT_NAMES.map((event) =>
    backend.on(event, (payload) => {
      const window = mainWindow();
      if (window && !window.isDestroyed()) window.webContents.send(channelOf(event), payload);
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
