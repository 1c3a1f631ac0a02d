/**
 * What the studio backend needs from the desktop around it, as small interfaces: the Electron
 * shell passes Electron-backed adapters (src/main/platform/), tests and the browser harness
 * pass plain recording ones (test/support/). Where the settings and the key are kept is
 * src/core/settings' (settings-ports.ts).
 */

/** A yes/no question main asks in a native dialog (the page can neither see nor answer it). */
export interface ConfirmQuestion {
  title: string;
  message: string;
  confirmLabel: string;
}

/** A kind of file a file dialog offers: its name and extensions (without dots). */
export interface FileFilter {
  name: string;
  extensions: string[];
}

/** Native dialogs. */
export interface Dialogs {
  /** Asks the user for a folder; null when cancelled. */
  chooseFolder(title: string): Promise<string | null>;
  /** Asks the user for one file to open (of these types); null when cancelled. */
  chooseFile(title: string, filters: readonly FileFilter[]): Promise<string | null>;
  /** Asks the user to confirm; false when they decline or close the dialog. */
  confirm(question: ConfirmQuestion): Promise<boolean>;
}

/** The desktop around the app. */
export interface ShellOps {
  /** Shows the file in the system's file manager. */
  reveal(absolutePath: string): void | Promise<void>;
  /** Starts an OS drag of the file out of the window. */
  startDrag(absolutePath: string): void | Promise<void>;
  /** An OS notification. */
  notify(title: string, body: string): void;
}
