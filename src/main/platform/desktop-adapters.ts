/**
 * The backend's host services on the desktop: the native folder and file dialogs, the file
 * manager, OS drags out of the window and notifications.
 */
import { type BrowserWindow, dialog, Notification, nativeImage, shell } from 'electron';
import type { ConfirmQuestion, Dialogs, FileFilter, ShellOps } from '../backend/index.ts';

export function electronDialogs(mainWindow: () => BrowserWindow | null): Dialogs {
  return {
    async chooseFolder(title: string): Promise<string | null> {
      const options = {
        title,
        properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
      };
      const window = mainWindow();
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async chooseFile(title: string, filters: readonly FileFilter[]): Promise<string | null> {
      const options = {
        title,
        properties: ['openFile'] as 'openFile'[],
        filters: filters.map((f) => ({ name: f.name, extensions: [...f.extensions] })),
      };
      const window = mainWindow();
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async confirm(question: ConfirmQuestion): Promise<boolean> {
      const options = {
        type: 'question' as const,
        title: question.title,
        message: question.title,
        detail: question.message,
        buttons: ['Cancel', question.confirmLabel],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      };
      const window = mainWindow();
      const result = window
        ? await dialog.showMessageBox(window, options)
        : await dialog.showMessageBox(options);
      return result.response === 1;
    },
  };
}

export function electronShell(mainWindow: () => BrowserWindow | null, dragIconPath: string): ShellOps {
  return {
    reveal(absolutePath: string): void {
      shell.showItemInFolder(absolutePath);
    },
    startDrag(absolutePath: string): void {
      const window = mainWindow();
      if (!window || window.isDestroyed()) return;
      const icon = nativeImage.createFromPath(dragIconPath).resize({ width: 64, height: 64 });
      window.webContents.startDrag({ file: absolutePath, icon });
    },
    notify(title: string, body: string): void {
      if (!Notification.isSupported()) return;
      new Notification({ title, body, silent: false }).show();
    },
  };
}
