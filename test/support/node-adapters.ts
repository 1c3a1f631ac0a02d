/**
 * Plain-Node adapters for tests and the browser harness. FileKeyVault keeps the key in a
 * plain file (mode 0600, in a folder made 0700) and says so: its storage is `weak`, so storing a
 * key in it asks for the user's consent exactly like Electron's `basic_text` fallback.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type KeyVault,
  PRIVATE_CONFIG_FILE_MODE,
  PRIVATE_CONFIG_FOLDER_MODE,
} from '../../src/core/settings/index.ts';
import type { ConfirmQuestion, Dialogs, FileFilter, ShellOps } from '../../src/main/backend/index.ts';
import type { KeyStorage } from '../../src/shared/index.ts';

export const SECRET_FILE_NAME = 'api-key.weak.txt';

/** The key in a plain text file: NOT encrypted (storage `weak`). */
export class FileKeyVault implements KeyVault {
  readonly file: string;

  constructor(userDataDir: string) {
    this.file = join(userDataDir, SECRET_FILE_NAME);
  }

  storage(): KeyStorage {
    return 'weak';
  }

  read(): string | null {
    try {
      const key = readFileSync(this.file, 'utf8').trim();
      return key === '' ? null : key;
    } catch {
      return null;
    }
  }

  write(key: string): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_CONFIG_FOLDER_MODE });
    const tmp = `${this.file}.tmp-${process.pid}`;
    // a new owner-only file: a file or link left at the temporary name is removed, never written through
    rmSync(tmp, { force: true });
    writeFileSync(tmp, key, { mode: PRIVATE_CONFIG_FILE_MODE, flag: 'wx' });
    renameSync(tmp, this.file);
  }

  clear(): void {
    rmSync(this.file, { force: true });
  }
}

/** Dialogs that answer with a configured folder or file (null: the user cancelled). */
export class ScriptedDialogs implements Dialogs {
  folder: string | null;
  /** What `chooseFile` answers. */
  file: string | null = null;
  readonly asked: string[] = [];
  /** The kinds of file each `chooseFile` offered, in order (what the native dialog would list). */
  readonly offered: (readonly FileFilter[])[] = [];

  constructor(folder: string | null = null) {
    this.folder = folder;
  }

  /** What `confirm` answers (a user who agrees, unless a test says otherwise). */
  confirmAnswer = true;
  readonly confirmed: ConfirmQuestion[] = [];

  async chooseFolder(title: string): Promise<string | null> {
    this.asked.push(title);
    return this.folder;
  }

  async chooseFile(title: string, filters: readonly FileFilter[]): Promise<string | null> {
    this.asked.push(title);
    this.offered.push(filters);
    return this.file;
  }

  async confirm(question: ConfirmQuestion): Promise<boolean> {
    this.confirmed.push(question);
    return this.confirmAnswer;
  }
}

export interface ShellCall {
  op: 'reveal' | 'startDrag' | 'notify';
  args: string[];
}

/** Shell operations that only record what was asked. */
export class RecordingShell implements ShellOps {
  readonly calls: ShellCall[] = [];

  reveal(absolutePath: string): void {
    this.calls.push({ op: 'reveal', args: [absolutePath] });
  }

  startDrag(absolutePath: string): void {
    this.calls.push({ op: 'startDrag', args: [absolutePath] });
  }

  notify(title: string, body: string): void {
    this.calls.push({ op: 'notify', args: [title, body] });
  }
}
