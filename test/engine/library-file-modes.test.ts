/**
 * The library is owner-only on disk: its folders are made 0700, and the database (with its WAL
 * and shared-memory files), the input copies, the downloaded outputs and their thumbnails are
 * created 0600. Through the real engine, store and sandbox. Modes are what the test checks, so
 * it runs where the OS has them (not on Windows).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import { writePicture } from '../support/pictures.ts';
import { closeRun, freshRun, openEngine, sandbox, waitForState } from './engine-fixtures.ts';

let dir: string;
let lib: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

beforeEach(async () => {
  ({ dir, lib, sb, engine } = await freshRun('mts-lib-modes-'));
});
afterEach(() => closeRun({ engine, sb, dir }));

describe.skipIf(process.platform === 'win32')('owner-only library files', () => {
  it('makes the library folder 0700 and the database, its WAL and SHM 0600', async () => {
    engine = await openEngine(lib, null);
    await engine.queueTask({
      model: MODELS.audio,
      taskType: 'txt2audio',
      input: { style_prompt: 'calm piano', lyrics: '[verse]\nhello', duration: 8 },
    });
    expect(modeOf(lib)).toBe(0o700);
    for (const name of ['library.sqlite', 'library.sqlite-wal', 'library.sqlite-shm']) {
      expect([name, modeOf(join(lib, name))]).toEqual([name, 0o600]);
    }
  });

  it('copies input files 0600 into an input folder made 0700', async () => {
    engine = await openEngine(lib, null);
    const face = await writePicture(join(dir, 'face.png'), 64, 64);
    const task = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'face-swap',
      input: { target_image: face, swap_image: face },
    });
    // one file per content: the two fields name the same picture, kept once in inputs/
    const folder = join(lib, 'inputs');
    expect(modeOf(folder)).toBe(0o700);
    expect(new Set(task.inputs.map((i) => i.value)).size).toBe(1);
    const files = readdirSync(folder);
    expect(files.length).toBe(1);
    for (const f of files) expect([f, modeOf(join(folder, f))]).toEqual([f, 0o600]);
  });

  it('saves outputs and thumbnails 0600 in folders made 0700, via a .partial made 0700', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb);
    const task = await engine.queueTask({
      model: MODELS.imageGen,
      taskType: 'txt2img',
      input: { prompt: 'a red fox' },
    });
    const saved = await waitForState(engine, task.id, ['saved', 'failed', 'expired']);
    expect(saved.error).toBeNull();
    expect(saved.state).toBe('saved');
    const path = saved.outputs[0]?.path ?? '';
    const thumbPath = saved.outputs[0]?.thumbPath ?? '';
    expect(path).not.toBe('');
    expect(thumbPath).not.toBe('');
    expect(modeOf(join(lib, path))).toBe(0o600);
    expect(modeOf(join(lib, thumbPath))).toBe(0o600);
    const [year, month, id] = path.split('/');
    expect(modeOf(join(lib, year as string))).toBe(0o700);
    expect(modeOf(join(lib, year as string, month as string))).toBe(0o700);
    expect(modeOf(join(lib, year as string, month as string, id as string))).toBe(0o700);
    expect(modeOf(join(lib, '.partial'))).toBe(0o700);
  });
});
