/**
 * Inputs across tasks: the tasks sharing one library input file, inputs older libraries still
 * hold as Base64 text and their move into a file, and migration 4 on a real library file written
 * by the schema before it (a Base64 input, a saved and a pending inline output).
 */

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, MIGRATIONS } from '../../src/core/store/index.ts';
import { runMigrations } from '../../src/core/store/migration-runner.ts';
import { SAVED_INLINE_OUTPUT_URL, type TaskInput } from '../../src/shared/index.ts';
import { faceSwapTask, fileInput, steppingClock, tempLibraries, urlInput } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

const SHARED = `inputs/${'ab'.repeat(32)}.png`;
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function base64Input(field: string, value: string): TaskInput {
  return { field, source: 'base64', value, mime: 'image/png', size: 70, sha256: null, width: 1, height: 1 };
}

describe('input files shared by tasks', () => {
  it('counts the inputs that are one file, and gives one record of it', () => {
    const store = libs.open();
    const a = store.insertTask(faceSwapTask({ inputs: [fileInput('target_image', SHARED)] }));
    store.insertTask(
      faceSwapTask({ inputs: [fileInput('swap_image', SHARED), fileInput('target_image', SHARED)] }),
    );
    expect(store.fileInputUses(SHARED)).toBe(3);
    expect(store.fileInputUses('inputs/other.png')).toBe(0);
    expect(store.fileInputRecord(SHARED)).toMatchObject({ source: 'file', value: SHARED, mime: 'image/png' });
    expect(store.fileInputRecord('inputs/other.png')).toBeNull();
    store.deleteTask(a.id);
    expect(store.fileInputUses(SHARED)).toBe(2);
  });
});

describe('Base64 inputs of older libraries', () => {
  it('lists them one after another and moves each into a file, in its row and its request', () => {
    const store = libs.open(undefined, { now: steppingClock() });
    const old = store.insertTask(
      faceSwapTask({
        request: {
          model: 'service/image-toolkit',
          task_type: 'face-swap',
          input: { swap_image: 'https://example.test/a.png', target_image: PNG_BASE64 },
        },
        inputs: [
          urlInput('swap_image', 'https://example.test/a.png'),
          base64Input('target_image', PNG_BASE64),
        ],
      }),
    );
    const other = store.insertTask(faceSwapTask({ inputs: [base64Input('target_image', PNG_BASE64)] }));
    const first = store.base64Inputs(null, 1);
    expect(first).toHaveLength(1);
    const all = [...first, ...store.base64Inputs(first[0] ?? null, 10)];
    expect(all.map((r) => r.taskId).sort()).toEqual([old.id, other.id].sort());
    expect(store.base64Inputs(all[1] ?? null, 10)).toEqual([]);

    const file: TaskInput = { ...fileInput('target_image', SHARED), size: 70, width: 1, height: 1 };
    expect(store.moveInputToFile(old.id, file)).toBe(true);
    expect(store.moveInputToFile(old.id, file)).toBe(false); // done already
    const moved = store.getTask(old.id);
    expect(moved?.inputs).toEqual([urlInput('swap_image', 'https://example.test/a.png'), file]);
    expect(moved?.request.input).toEqual({
      swap_image: 'https://example.test/a.png',
      target_image: { $file: SHARED },
    });
    expect(moved?.updatedAt).toBe(old.updatedAt);
    expect(store.base64Inputs(null, 10).map((r) => r.taskId)).toEqual([other.id]);
    expect(JSON.stringify(store.listTasks({}))).not.toContain(PNG_BASE64.slice(0, 40));
    expect(() => store.moveInputToFile(other.id, base64Input('target_image', 'x'))).toThrow(/file input/);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('a saved output keeps a marker for an inline (data:) URL, a pending one its URL', () => {
    const store = libs.open();
    const t = store.insertTask(faceSwapTask());
    store.replaceOutputs(t.id, [
      { kind: 'image', url: `data:image/png;base64,${PNG_BASE64}`, field: 'image' },
    ]);
    const saved = store.updateOutput(t.id, 0, {
      state: 'saved',
      url: SAVED_INLINE_OUTPUT_URL,
      path: '2025/01/x/output-1.png',
    });
    expect(saved?.url).toBe(SAVED_INLINE_OUTPUT_URL);
    expect(() => store.updateOutput(t.id, 0, { url: '' })).toThrow(/url/);
  });
});

describe('migration 4 on a library written before it', () => {
  it('keeps Base64 inputs findable, and drops the data of saved inline outputs only', () => {
    const dir = libs.dir();
    const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    runMigrations(db, MIGRATIONS.slice(0, 3), 'test');
    const request = JSON.stringify({
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      input: { target_image: PNG_BASE64, swap_image: 'https://example.test/a.png' },
    });
    db.prepare(
      `INSERT INTO tasks (id, seq, model, task_type, family, title, state, request_json, created_at, updated_at)
       VALUES ('old', 1, 'service/image-toolkit', 'face-swap', 'face-swap', 'Old swap', 'saved', ?,
               '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
    ).run(request);
    db.prepare(
      `INSERT INTO task_inputs (task_id, idx, field, source, value, mime, size, sha256, width, height)
       VALUES ('old', 0, 'target_image', 'base64', ?, 'image/png', 70, NULL, 1, 1)`,
    ).run(PNG_BASE64);
    const addOutput = db.prepare(
      `INSERT INTO task_outputs (task_id, idx, kind, url, field, state, path)
       VALUES ('old', ?, 'image', ?, 'image', ?, ?)`,
    );
    addOutput.run(0, `data:image/png;base64,${PNG_BASE64}`, 'saved', '2025/01/old/output-1.png');
    addOutput.run(1, `data:image/png;base64,${PNG_BASE64}`, 'failed', null);
    addOutput.run(2, 'https://cdn.example/o.png', 'saved', '2025/01/old/output-3.png');
    db.close();

    const store = libs.open(dir);
    expect(libs.raw(dir).prepare('PRAGMA user_version').get()?.user_version).toBe(MIGRATIONS.length);
    const task = store.getTask('old');
    expect(task?.outputs.map((o) => o.url)).toEqual([
      SAVED_INLINE_OUTPUT_URL,
      `data:image/png;base64,${PNG_BASE64}`,
      'https://cdn.example/o.png',
    ]);
    expect(store.base64Inputs(null, 10)).toEqual([{ taskId: 'old', idx: 0, input: task?.inputs[0] }]);
    expect(store.integrityCheck()).toBe('ok');
  });
});
