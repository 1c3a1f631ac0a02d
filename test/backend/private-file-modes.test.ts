/**
 * The key and the settings are owner-only on disk (files 0600, the folder made 0700), also when
 * a file or a link was left at the temporary name the write goes through. Modes are what the
 * test checks, so it runs where the OS has them (not on Windows).
 */
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretFileOptions } from '../../src/core/settings/index.ts';
import { FileKeyVault, SECRET_FILE_NAME } from '../support/node-adapters.ts';
import { createNodeSettingsFile } from '../support/node-settings-file.ts';
import { removeDir, tempDir } from './backend-fixtures.ts';

const KEY = 'sk-test-0123456789abcdef0123456789';

let root: string;
let userData: string;

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

beforeEach(async () => {
  root = await tempDir('mts-modes-');
  userData = join(root, 'user-data');
});

afterEach(async () => {
  await removeDir(root);
});

describe.skipIf(process.platform === 'win32')('owner-only files in the user-data folder', () => {
  it('FileKeyVault writes the key 0600 in a folder it makes 0700', () => {
    new FileKeyVault(userData).write(KEY);
    expect(modeOf(join(userData, SECRET_FILE_NAME))).toBe(0o600);
    expect(modeOf(userData)).toBe(0o700);
  });

  it('a world-readable file left at the temporary name does not make the key world-readable', () => {
    const store = new FileKeyVault(userData);
    store.write('first-key-0123456789abcdef');
    const tmp = `${store.file}.tmp-${process.pid}`;
    writeFileSync(tmp, 'left by a crash', { mode: 0o644 });
    store.write(KEY);
    expect(modeOf(store.file)).toBe(0o600);
    expect(store.read()).toBe(KEY);
    expect(existsSync(tmp)).toBe(false);
  });

  it('a link planted at the temporary name is not written through', () => {
    const store = new FileKeyVault(userData);
    store.write('first-key-0123456789abcdef');
    const stolen = join(root, 'stolen.txt');
    writeFileSync(stolen, '', { mode: 0o644 });
    symlinkSync(stolen, `${store.file}.tmp-${process.pid}`);
    store.write(KEY);
    expect(readFileSync(stolen, 'utf8')).toBe('');
    expect(lstatSync(store.file).isSymbolicLink()).toBe(false);
    expect(modeOf(store.file)).toBe(0o600);
  });

  it('the settings file is created 0600 (conf configFileMode) in a folder made 0700', () => {
    const settings = createNodeSettingsFile(userData);
    settings.update({ theme: 'dark' });
    expect(modeOf(join(userData, 'settings.json'))).toBe(0o600);
    expect(modeOf(userData)).toBe(0o700);
  });

  it('a settings file repaired on open stays 0600', () => {
    createNodeSettingsFile(userData).update({ theme: 'dark' });
    const file = join(userData, 'settings.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...raw, maxActiveRemote: -4 }));
    const reopened = createNodeSettingsFile(userData);
    expect(reopened.warnings().length).toBeGreaterThan(0);
    expect(modeOf(file)).toBe(0o600);
  });

  it('the safeStorage secret file options make conf (electron-store’s core) write it 0600', () => {
    const options = secretFileOptions(userData);
    const { name, ...rest } = options;
    const store = new Conf<{ apiKey?: { method: string; ciphertext: string } }>({
      ...rest,
      configName: name,
    });
    store.set('apiKey', { method: 'safeStorage:linux:test', ciphertext: 'AAAA' });
    expect(store.path).toBe(join(userData, 'secret.json'));
    expect(modeOf(store.path)).toBe(0o600);
  });
});
