/**
 * What the studio backend needs from its host, as small interfaces: the Electron shell passes
 * Electron-backed adapters (src/main/platform/), tests and the browser harness pass the plain
 * Node ones from this folder. Every method may answer synchronously or with a promise.
 */
import type { PersistedSettings } from './persisted-settings.ts';

/** Where the API key is kept. The key never leaves the main process. */
export interface SecretStore {
  /** `os`: encrypted by the OS keychain; `weak`: kept without real encryption; `unavailable`: cannot be kept. */
  storage(): 'os' | 'weak' | 'unavailable';
  read(): string | null | Promise<string | null>;
  write(key: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

/** The persisted settings (a conf / electron-store file with a schema). */
export interface SettingsStore {
  /** The settings as read back and validated: a bad value reads as its default. */
  get(): PersistedSettings;
  /** Writes the given fields and returns the settings after the write. */
  update(patch: Partial<PersistedSettings>): PersistedSettings;
  /** Problems found while reading the file (each one already replaced by a default). */
  warnings(): readonly string[];
}

/** A yes/no question main asks in a native dialog (the page can neither see nor answer it). */
export interface ConfirmQuestion {
  title: string;
  message: string;
  confirmLabel: string;
}

/** Native dialogs. */
export interface Dialogs {
  /** Asks the user for a folder; null when cancelled. */
  chooseFolder(title: string): Promise<string | null>;
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
