/**
 * Opening a folder as the library cleans only what the app made in `.partial` (its own
 * `<uuid>.part` temporary downloads): anything else there stays and is reported in the log, and
 * a `.partial` that is a link is never entered.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import { cleanPartialFolder, isPartialFileName } from '../../src/core/library/index.ts';
import { openEngine, removeDir, tempDir } from './engine-fixtures.ts';

let dir: string;
let lib: string;
let engine: TaskEngine | null;
let logs: string[];

const LEFTOVER = '0f8fad5b-d9cb-469f-a165-70867728950e.part';

beforeEach(async () => {
  dir = await tempDir('mts-partial-');
  lib = join(dir, 'lib');
  engine = null;
  logs = [];
});

afterEach(async () => {
  await engine?.close();
  await removeDir(dir);
});

describe('opening a library with a .partial folder', () => {
  it('removes the app’s leftover downloads and keeps (and reports) everything else', async () => {
    const partial = join(lib, '.partial');
    mkdirSync(join(partial, 'photos'), { recursive: true });
    writeFileSync(join(partial, 'photos', 'wedding.jpg'), 'irreplaceable');
    writeFileSync(join(partial, 'notes.txt'), 'mine');
    writeFileSync(join(partial, LEFTOVER), 'half a download');
    engine = await openEngine(lib, null, { log: (line) => logs.push(line) });
    expect(existsSync(join(partial, LEFTOVER))).toBe(false);
    expect(readFileSync(join(partial, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(partial, 'photos', 'wedding.jpg'), 'utf8')).toBe('irreplaceable');
    const line = logs.join('\n');
    expect(line).toMatch(/left 2 item\(s\) in \.partial that the app did not make/);
    expect(line).toContain('notes.txt');
    expect(line).toContain('photos');
  });

  it('never enters a .partial that is a link to another folder', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, LEFTOVER), 'not the app’s to remove');
    mkdirSync(lib, { recursive: true });
    symlinkSync(elsewhere, join(lib, '.partial'));
    engine = await openEngine(lib, null, { log: (line) => logs.push(line) });
    expect(readFileSync(join(elsewhere, LEFTOVER), 'utf8')).toBe('not the app’s to remove');
    expect(logs.join('\n')).toMatch(/\.partial itself \(a link or a file, not a folder\)/);
  });

  it('opens quietly when .partial holds only the app’s files, or is missing', async () => {
    mkdirSync(join(lib, '.partial'), { recursive: true });
    writeFileSync(join(lib, '.partial', LEFTOVER), 'x');
    engine = await openEngine(lib, null, { log: (line) => logs.push(line) });
    await engine.close();
    engine = await openEngine(join(dir, 'fresh'), null, { log: (line) => logs.push(line) });
    expect(logs).toEqual([]);
  });
});

describe('the app’s temporary file names', () => {
  it('are a lower-case UUID and .part, nothing else', () => {
    expect(isPartialFileName(LEFTOVER)).toBe(true);
    for (const name of ['notes.txt', `${LEFTOVER}.txt`, 'x.part', `../${LEFTOVER}`, LEFTOVER.toUpperCase()])
      expect(isPartialFileName(name)).toBe(false);
  });

  it('a link named like one is kept: only regular files are removed', async () => {
    mkdirSync(join(lib, '.partial'), { recursive: true });
    writeFileSync(join(dir, 'target.txt'), 'kept');
    symlinkSync(join(dir, 'target.txt'), join(lib, '.partial', LEFTOVER));
    expect(await cleanPartialFolder(lib)).toEqual({ removed: 0, kept: [LEFTOVER] });
    expect(readFileSync(join(dir, 'target.txt'), 'utf8')).toBe('kept');
  });
});
