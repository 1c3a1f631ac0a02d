/**
 * A library database written by someone else (a synced or shared folder) is not trusted: every
 * stored path (inputs, outputs, thumbnails) must resolve, after realpath, to a file inside the
 * library before it is read, sent (inline or uploaded), exported or deleted. The attacks here
 * go through the real engine, store and sandbox; each plants what a hostile writer of the
 * library folder could plant.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import { uploadFileInputs } from '../../src/core/engine/sending/input-upload.ts';
import {
  exportTasks,
  LibraryPathError,
  libraryFileOf,
  resolveLibraryFile,
} from '../../src/core/library/index.ts';
import type { ServiceClient } from '../../src/core/service/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS, type Task } from '../../src/shared/index.ts';
import { writePicture } from '../support/pictures.ts';
import { API_KEY, closeRun, freshRun, openEngine, sandbox, waitForState } from './engine-fixtures.ts';

let dir: string;
let lib: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;
let logs: string[];

beforeEach(async () => {
  // nested, so that even code that followed a stored `../../x` would stay inside this test's folder
  ({ dir, lib, sb, engine } = await freshRun('mts-trust-', 'home', 'user', 'lib'));
  logs = [];
});
afterEach(() => closeRun({ engine, sb, dir }));

const song = {
  model: MODELS.audio,
  taskType: 'txt2audio',
  input: { style_prompt: 'calm piano', lyrics: '[verse]\nhello', duration: 8 },
};

/** Rewrites a column of the library database behind the engine's back, as another writer would. */
function tamper(sql: string, ...params: (string | number)[]): void {
  const db = new DatabaseSync(join(lib, 'library.sqlite'));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** A queued face swap whose two inputs are copied into the library (queued offline: nothing sent). */
async function queuedFaceSwap(e: TaskEngine): Promise<Task> {
  const face = await writePicture(join(dir, 'face.png'), 64, 64);
  return e.queueTask({
    model: MODELS.imageToolkit,
    taskType: 'face-swap',
    input: { target_image: face, swap_image: face },
  });
}

function pointInputsAt(task: Task, storedPath: string): void {
  tamper('UPDATE task_inputs SET value = ? WHERE task_id = ?', storedPath, task.id);
}

describe('the stored-path rule (libraryFileOf)', () => {
  beforeEach(() => {
    mkdirSync(join(lib, '2025', '01', 't1'), { recursive: true });
    writeFileSync(join(lib, '2025', '01', 't1', 'output-1.png'), 'png');
    writeFileSync(join(lib, 'library.sqlite'), 'db');
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'secret.png'), 'secret');
    symlinkSync(join(dir, 'outside', 'secret.png'), join(lib, '2025', '01', 't1', 'link-out.png'));
    symlinkSync(join(dir, 'outside'), join(lib, 'dir-link'));
  });

  it('gives the real path of a file inside the library', () => {
    expect(libraryFileOf(lib, '2025/01/t1/output-1.png')).toBe(join(lib, '2025', '01', 't1', 'output-1.png'));
  });

  it.each([
    ['../../../outside/secret.png', /not a plain path inside the library/],
    ['2025/../../../../outside/secret.png', /not a plain path/],
    ['/etc/passwd', /not a plain path/],
    ['C:/Windows/win.ini', /not a plain path/],
    ['2025\\..\\..\\outside\\secret.png', /not a plain path/],
    ['2025//01/t1/output-1.png', /not a plain path/],
    ['2025/01/t1/output-1.png\u0000.png', /not a plain path/],
    ['2025/01/t1/link-out.png', /leads outside the library folder/],
    ['dir-link/secret.png', /leads outside the library folder/],
    ['2025/01/t1/missing.png', /missing from the library folder/],
    ['2025/01/t1', /not a regular file/],
    ['library.sqlite', /own database or lock file/],
    ['', /not a plain path/],
  ])('refuses %j, saying why, without following it', (stored, why) => {
    expect(() => libraryFileOf(lib, stored, 'output 0')).toThrow(LibraryPathError);
    expect(() => libraryFileOf(lib, stored, 'output 0')).toThrow(why);
    expect(resolveLibraryFile(lib, stored)).toBeNull();
  });
});

describe('a database that points outside the library', () => {
  it('refuses to send an input stored as ../…: the task fails with that message and nothing is sent', async () => {
    engine = await openEngine(lib, null);
    const task = await queuedFaceSwap(engine);
    mkdirSync(join(dir, 'private'));
    await writePicture(join(dir, 'private', 'holiday.png'), 64, 64, 'png', { r: 1, g: 2, b: 3 });
    pointInputsAt(task, '../../../private/holiday.png');
    sb = await sandbox();
    engine.setService({ baseUrl: sb.url, apiKey: API_KEY });
    const failed = await waitForState(engine, task.id, ['failed', 'saved', 'uncertain']);
    expect(failed.state).toBe('failed');
    expect(failed.error?.kind).toBe('library-path');
    expect(failed.error?.message).toMatch(
      /"\.\.\/\.\.\/\.\.\/private\/holiday\.png".*not a plain path inside/,
    );
    expect(sb.ledger()).toHaveLength(0);
  });

  it('refuses an input that is a link out of the library, also when uploads are on', async () => {
    engine = await openEngine(lib, null);
    const task = await queuedFaceSwap(engine);
    mkdirSync(join(dir, 'private'));
    await writePicture(join(dir, 'private', 'holiday.png'), 64, 64);
    const planted = join(lib, 'inputs', task.id, 'planted.png');
    mkdirSync(join(lib, 'inputs', task.id));
    symlinkSync(join(dir, 'private', 'holiday.png'), planted);
    pointInputsAt(task, `inputs/${task.id}/planted.png`);
    sb = await sandbox();
    engine.setService({ baseUrl: sb.url, apiKey: API_KEY, uploadUrl: `${sb.url}/api/ephemeral_resource` });
    const failed = await waitForState(engine, task.id, ['failed', 'saved', 'uncertain']);
    expect(failed.state).toBe('failed');
    expect(failed.error?.message).toMatch(/leads outside the library folder/);
    expect(sb.ledger()).toHaveLength(0);
  });

  it('the upload step itself refuses a stored path outside the library and uploads nothing', async () => {
    engine = await openEngine(lib, null);
    const task = await queuedFaceSwap(engine);
    const uploaded: string[] = [];
    const client = {
      uploadFile: async (file: { fileName: string }) => {
        uploaded.push(file.fileName);
        return 'https://uploads.example/x.png';
      },
    } as unknown as ServiceClient;
    mkdirSync(join(dir, '.ssh'));
    await writePicture(join(dir, '.ssh', 'id_ed25519.png'), 64, 64);
    const inputs = task.inputs.map((i) => ({ ...i, value: '../../../.ssh/id_ed25519.png' }));
    await expect(
      uploadFileInputs({
        client,
        uploadOrigin: 'https://uploads.example',
        inputs,
        libraryDir: lib,
        store: engine.store,
      }),
    ).rejects.toThrow(LibraryPathError);
    expect(uploaded).toEqual([]);
  });

  it('will not make a draft (or a re-run) from an input stored outside the library', async () => {
    engine = await openEngine(lib, null);
    const task = await queuedFaceSwap(engine);
    pointInputsAt(task, '../../.ssh/id_ed25519');
    const stored = engine.store.getTask(task.id) as Task;
    expect(() => engine?.draftOf(stored)).toThrow(/not a plain path inside the library; it was not used/);
    await expect(engine.rerun(task.id)).rejects.toThrow(LibraryPathError);
    expect(engine.store.countTasks({}).total).toBe(1);
  });

  it('will not export an output that is a link out of the library, and writes nothing', async () => {
    engine = await openEngine(lib, null);
    const task = await engine.queueTask(song);
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    mkdirSync(join(lib, '2025', '01', task.id), { recursive: true });
    symlinkSync(join(dir, 'secret.txt'), join(lib, '2025', '01', task.id, 'output-1.wav'));
    engine.store.replaceOutputs(task.id, [{ kind: 'file', url: 'https://x.example/o', field: 'audio' }]);
    engine.store.updateOutput(task.id, 0, { state: 'saved', path: `2025/01/${task.id}/output-1.wav` });
    const dest = join(dir, 'export');
    await expect(exportTasks(lib, [engine.store.getTask(task.id) as Task], dest)).rejects.toThrow(
      /output 0 of task .*, which leads outside the library folder; it was not used/,
    );
    expect(existsSync(dest)).toBe(false);
  });
});

describe('deleting a task from a database written by someone else', () => {
  it('never removes the folder an output path like ../victim/x names', async () => {
    engine = await openEngine(lib, null, { log: (line) => logs.push(line) });
    const task = await engine.queueTask(song);
    const victim = join(lib, '..', 'victim'); // a folder beside the library
    mkdirSync(victim);
    writeFileSync(join(victim, 'keep.txt'), 'precious');
    engine.store.replaceOutputs(task.id, [{ kind: 'audio', url: 'https://x.example/o', field: 'audio' }]);
    engine.store.updateOutput(task.id, 0, {
      state: 'saved',
      path: '../victim/keep.txt',
      thumbPath: '../../x',
    });
    await engine.deleteTask(task.id);
    expect(engine.store.getTask(task.id)).toBeNull();
    expect(readFileSync(join(victim, 'keep.txt'), 'utf8')).toBe('precious');
    expect(existsSync(join(dir, 'home'))).toBe(true); // the parent `../../x` would have named
    expect(logs.join('\n')).toMatch(
      /"\.\.\/victim\/keep\.txt", outside the task’s own folder; it was not touched/,
    );
  });

  it('does not follow a link planted on the way to the task’s own folder', async () => {
    engine = await openEngine(lib, null, { log: (line) => logs.push(line) });
    const task = await engine.queueTask(song);
    const created = new Date(task.createdAt);
    const year = String(created.getUTCFullYear());
    const month = String(created.getUTCMonth() + 1).padStart(2, '0');
    // <library>/<yyyy> is a link to a folder outside that holds <mm>/<task id>/
    mkdirSync(join(dir, 'outside', month, task.id), { recursive: true });
    writeFileSync(join(dir, 'outside', month, task.id, 'precious.txt'), 'precious');
    symlinkSync(join(dir, 'outside'), join(lib, year));
    engine.store.replaceOutputs(task.id, [{ kind: 'audio', url: 'https://x.example/o', field: 'audio' }]);
    engine.store.updateOutput(task.id, 0, {
      state: 'saved',
      path: `${year}/${month}/${task.id}/output-1.wav`,
    });
    await engine.deleteTask(task.id);
    expect(readFileSync(join(dir, 'outside', month, task.id, 'precious.txt'), 'utf8')).toBe('precious');
    expect(logs.join('\n')).toMatch(/is a symbolic link; the app does not follow links here/);
  });

  it('removes the task’s own output and input folders, and nothing beside them', async () => {
    engine = await openEngine(lib, null);
    const task = await queuedFaceSwap(engine);
    const other = await queuedFaceSwap(engine);
    const created = new Date(task.createdAt);
    const own = join(
      lib,
      String(created.getUTCFullYear()),
      String(created.getUTCMonth() + 1).padStart(2, '0'),
      task.id,
    );
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, 'output-1.png'), 'png');
    await engine.deleteTask(task.id);
    expect(existsSync(own)).toBe(false);
    expect(existsSync(join(lib, 'inputs', task.id))).toBe(false);
    // the input files the other task uses (the same picture) stay
    for (const input of other.inputs) expect(existsSync(join(lib, input.value))).toBe(true);
    expect(existsSync(join(own, '..'))).toBe(true);
  });
});
