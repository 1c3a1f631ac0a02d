/**
 * Where the settings and the API key are kept, as the backend sees them. The Electron shell
 * passes electron-store and safeStorage (src/main/platform/), tests pass plain-Node stores
 * (test/support/). Every KeyVault method may answer synchronously or with a promise.
 */
import type { KeyStorage, Settings } from '../../shared/index.ts';

/** Where the API key is kept. The key never leaves the main process. */
export interface KeyVault {
  /** `os`: encrypted by the OS keychain; `weak`: kept without real encryption; `unavailable`: cannot be kept. */
  storage(): KeyStorage;
  read(): string | null | Promise<string | null>;
  write(key: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

/** The settings file (a conf / electron-store file with a schema). */
export interface SettingsFile {
  /** The settings as read back and validated: a bad value reads as its default. */
  get(): Settings;
  /** Writes the given fields and returns the settings after the write. */
  update(patch: Partial<Settings>): Settings;
  /** Problems found while reading the file (each one already replaced by a default). */
  warnings(): readonly string[];
  /**
   * The budget an earlier version kept in the settings file, while the file still holds it
   * (undefined when it does not). Its home is now the library.
   */
  legacyBudget(): number | null | undefined;
  /** Removes that budget from the file, once the library holds it. */
  dropLegacyBudget(): void;
}
