/**
 * Task inputs as library files, one per content: Base64 is decoded into a file when queued (the
 * task row, its changes and list pages carry a path, not a picture), the picture still reaches
 * the service (inline, or uploaded), the same bytes are kept once (a second task or a re-run writes
 * nothing), a file goes with the last task that uses it, and a library written before all this
 * (Base64 in its rows) is moved into files when opened, its tasks sent, re-run and exported.
 * Real engine, real SQLite file, real sandbox over HTTP.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskChange, TaskEngine } from '../../src/core/engine/index.ts';
import { exportTasks } from '../../src/core/library/index.ts';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS, type Task, type TaskInput } from '../../src/shared/index.ts';
import { writePicture } from '../support/pictures.ts';
import { API_KEY, closeRun, freshRun, openEngine, sandbox, waitForState } from './engine-fixtures.ts';
import { TestClock } from './test-clock.ts';

let dir: string;
let lib: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;

beforeEach(async () => {
  ({ dir, lib, sb, engine } = await freshRun('mts-inputs-'));
});
afterEach(() => closeRun({ engine, sb, dir }));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const CONTENT_PATH = /^inputs\/[0-9a-f]{64}\.(png|jpg)$/;

async function pictures(): Promise<{ png: Buffer; jpeg: Buffer }> {
  const png = readFileSync(await writePicture(join(dir, 'target.png'), 64, 48));
  const jpeg = readFileSync(await writePicture(join(dir, 'face.jpg'), 40, 50, 'jpeg', { r: 9, g: 90, b: 9 }));
  return { png, jpeg };
}

function faceSwap(target: string, swap: string) {
  return {
    model: MODELS.imageToolkit,
    taskType: 'face-swap',
    input: { target_image: target, swap_image: swap },
  };
}

/** The library's input files (not the temp files of a copy under way). */
function inputFiles(): string[] {
  const folder = join(lib, 'inputs');
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((n) => !n.startsWith('.'))
        .sort()
    : [];
}

function fileOf(input: TaskInput | undefined): { ino: number; mtimeMs: number } {
  const stats = statSync(join(lib, input?.value ?? 'missing'));
  return { ino: stats.ino, mtimeMs: stats.mtimeMs };
}

describe('Base64 inputs become library files', () => {
  it('the task row, its change and the list page carry a path; the file holds the decoded bytes', async () => {
    const clock = new TestClock();
    engine = await openEngine(lib, null, { clock });
    const changes: TaskChange[] = [];
    engine.onTaskChanges((delivered) => changes.push(...delivered));
    const { png, jpeg } = await pictures();
    const task = await engine.queueTask(
      faceSwap(png.toString('base64'), `data:image/jpeg;base64,${jpeg.toString('base64')}`),
    );
    expect(task.inputs.map((i) => [i.field, i.source, i.mime, i.size, i.sha256, i.width, i.height])).toEqual([
      ['target_image', 'file', 'image/png', png.length, sha256(png), 64, 48],
      ['swap_image', 'file', 'image/jpeg', jpeg.length, sha256(jpeg), 40, 50],
    ]);
    for (const input of task.inputs) {
      expect(input.value).toMatch(CONTENT_PATH);
      expect(task.request.input[input.field]).toEqual({ $file: input.value });
    }
    expect(readFileSync(join(lib, task.inputs[0]?.value ?? ''))).toEqual(png);
    expect(readFileSync(join(lib, task.inputs[1]?.value ?? ''))).toEqual(jpeg);

    await clock.advance(1_000, engine);
    expect(changes.map((c) => c.task?.state)).toEqual(['queued']);
    expect(serialize(changes[0]).length).toBeLessThan(4 * 1024);
    const page = JSON.stringify(engine.store.listTasks({}));
    expect(page).not.toContain(png.toString('base64').slice(0, 64));
    expect(page).not.toContain(jpeg.toString('base64').slice(0, 64));
  });

  it('the service still gets the picture: inline without an upload endpoint, uploaded with one', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb);
    const { png, jpeg } = await pictures();
    const inline = await engine.queueTask(faceSwap(png.toString('base64'), jpeg.toString('base64')));
    const saved = await waitForState(engine, inline.id, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    const sent = sb.ledger().find((e) => e.taskId === saved.remoteId)?.body as {
      input: Record<string, string>;
    };
    expect(Buffer.from(sent.input.target_image ?? '', 'base64')).toEqual(png);
    expect(Buffer.from(sent.input.swap_image ?? '', 'base64')).toEqual(jpeg);

    engine.setService({ baseUrl: sb.url, apiKey: API_KEY, uploadUrl: `${sb.url}/api/ephemeral_resource` });
    const uploaded = await engine.queueTask(
      faceSwap(`data:image/png;base64,${png.toString('base64')}`, jpeg.toString('base64')),
    );
    const done = await waitForState(engine, uploaded.id, ['saved', 'failed', 'uncertain']);
    expect(done.state).toBe('saved');
    const body = sb.ledger().find((e) => e.taskId === done.remoteId)?.body as {
      input: Record<string, string>;
    };
    expect(body.input.target_image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(body.input.swap_image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('an upload the library kept is not reused when the upload rule refuses it (the key in it, plain http): uploaded again', async () => {
    sb = await sandbox();
    const uploadUrl = `${sb.url}/api/ephemeral_resource`;
    engine = await openEngine(lib, sb, { service: { baseUrl: sb.url, apiKey: API_KEY, uploadUrl } });
    const { png, jpeg } = await pictures();
    // as a library written by an earlier version (or by someone else) may hold them
    const keptUntil = Date.now() + 20 * 60 * 60 * 1000;
    const origin = new URL(uploadUrl).origin;
    engine.store.setSetting(`upload:${origin}:${sha256(png)}`, {
      url: `https://files.example.test/a.png?key=${API_KEY}`,
      expiresAt: keptUntil,
    });
    engine.store.setSetting(`upload:${origin}:${sha256(jpeg)}`, {
      url: 'http://files.example.test/b.png',
      expiresAt: keptUntil,
    });
    const task = await engine.queueTask(faceSwap(png.toString('base64'), jpeg.toString('base64')));
    const done = await waitForState(engine, task.id, ['saved', 'failed', 'uncertain']);
    expect(done.state).toBe('saved');
    const body = sb.ledger().find((e) => e.taskId === done.remoteId)?.body as {
      input: Record<string, string>;
    };
    expect(body.input.target_image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(body.input.swap_image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const queuedNote = engine.store
      .events(task.id)
      .map((e) => e.detail ?? '')
      .join('\n');
    expect(queuedNote).toContain('target_image uploaded');
    expect(queuedNote).not.toContain('reuses an earlier upload');
    expect(JSON.stringify(engine.store.getTask(task.id))).not.toContain(API_KEY);
  });
});

describe('one file per content', () => {
  it('a second task with the same picture, as a file or as Base64, and a re-run write nothing', async () => {
    engine = await openEngine(lib, null);
    const { png, jpeg } = await pictures();
    const first = await engine.queueTask(faceSwap(join(dir, 'target.png'), join(dir, 'face.jpg')));
    expect(inputFiles()).toEqual([`${sha256(png)}.png`, `${sha256(jpeg)}.jpg`].sort());
    const before = first.inputs.map(fileOf);

    const again = await engine.queueTask(faceSwap(png.toString('base64'), join(dir, 'face.jpg')));
    const rerun = await engine.rerun(first.id);
    for (const task of [again, rerun]) {
      expect(task.inputs).toEqual(first.inputs);
      expect(task.request.input).toEqual(first.request.input);
    }
    expect([rerun.parentId, rerun.parentOutput]).toEqual([first.id, null]);
    expect(inputFiles()).toEqual([`${sha256(png)}.png`, `${sha256(jpeg)}.jpg`].sort());
    expect(first.inputs.map(fileOf)).toEqual(before); // the same files, never rewritten
  });

  it('a kept file named in another field is checked against that field’s rules, without reading it', async () => {
    engine = await openEngine(lib, null);
    const webp = await writePicture(join(dir, 'edit.webp'), 32, 32, 'webp');
    const edit = await engine.queueTask({
      model: MODELS.imageEdit,
      taskType: 'image-edit',
      input: { prompt: 'brighter', image1: webp },
    });
    const kept = String(engine.draftOf(edit).input.image1); // the library's copy, as a re-run names it
    const swap = await engine.queueTask(faceSwap(kept, kept));
    expect(swap.inputs.map((i) => [i.field, i.value, i.width])).toEqual([
      ['target_image', edit.inputs[0]?.value, 32],
      ['swap_image', edit.inputs[0]?.value, 32],
    ]);
    await expect(
      engine.queueTask({
        model: MODELS.audio,
        taskType: 'txt2audio',
        input: { style_prompt: 'calm', style_audio: kept, duration: 10 },
      }),
    ).rejects.toThrow(/^style_audio: .*WebP image, not an audio file/);
  });

  it('a file goes with the last task that uses it; a task that was not queued leaves none', async () => {
    engine = await openEngine(lib, null);
    const { png } = await pictures();
    const a = await engine.queueTask(faceSwap(join(dir, 'target.png'), join(dir, 'face.jpg')));
    const b = await engine.queueTask(faceSwap(png.toString('base64'), 'https://example.com/face.png'));
    const shared = join(lib, a.inputs[0]?.value ?? '');
    const onlyA = join(lib, a.inputs[1]?.value ?? '');
    await engine.deleteTask(a.id);
    expect(existsSync(shared)).toBe(true); // b uses it
    expect(existsSync(onlyA)).toBe(false);
    await engine.deleteTask(b.id);
    expect(existsSync(shared)).toBe(false);
    expect(inputFiles()).toEqual([]);

    // written, then the task could not be recorded (an unknown parent): the new file goes again
    await expect(
      engine.queueTask({
        ...faceSwap(png.toString('base64'), 'https://example.com/f.png'),
        parentId: 'gone',
      }),
    ).rejects.toThrow(/parentId/);
    expect(inputFiles()).toEqual([]);
  });
});

describe('a library whose rows hold Base64 (written before inputs became files)', () => {
  /** Two face swaps stored the way the app stored them before: the Base64 in the request and the inputs. */
  async function oldLibrary(
    png: Buffer,
    jpeg: Buffer,
  ): Promise<{ queued: string; failed: string; broken: string }> {
    const store = LibraryStore.open(lib);
    const base64 = (field: string, value: string, bytes: Buffer, mime: string): TaskInput => ({
      field,
      source: 'base64',
      value,
      mime,
      size: bytes.length,
      sha256: null,
      width: null,
      height: null,
    });
    const old = (title: string, target: string, swap: string): Task =>
      store.insertTask({
        model: MODELS.imageToolkit,
        taskType: 'face-swap',
        title,
        request: {
          model: MODELS.imageToolkit,
          task_type: 'face-swap',
          input: { target_image: target, swap_image: swap },
        },
        inputs: [
          base64('target_image', target, png, 'image/png'),
          base64('swap_image', swap, jpeg, 'image/jpeg'),
        ],
      });
    const dataUri = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    const queued = old('Old queued', png.toString('base64'), dataUri);
    const failed = old('Old failed', png.toString('base64'), dataUri);
    store.transition(failed.id, 'failed', {
      patch: { error: { kind: 'network', message: 'x', code: null } },
    });
    const broken = old('Old broken', 'bm90IGEgcGljdHVyZQ==', dataUri); // "not a picture"
    store.close();
    return { queued: queued.id, failed: failed.id, broken: broken.id };
  }

  it('opening moves them into files; the old tasks are sent, re-run and exported', async () => {
    const { png, jpeg } = await pictures();
    const ids = await oldLibrary(png, jpeg);
    const logs: string[] = [];
    engine = await openEngine(lib, null, { log: (line) => logs.push(line) });

    const queued = engine.store.getTask(ids.queued) as Task;
    expect(queued.inputs.map((i) => [i.source, i.sha256, i.size])).toEqual([
      ['file', sha256(png), png.length],
      ['file', sha256(jpeg), jpeg.length],
    ]);
    for (const input of queued.inputs)
      expect(queued.request.input[input.field]).toEqual({ $file: input.value });
    expect(inputFiles()).toEqual([`${sha256(png)}.png`, `${sha256(jpeg)}.jpg`].sort());
    expect(JSON.stringify(engine.store.listTasks({}))).not.toContain(png.toString('base64').slice(0, 64));
    // what cannot be decoded stays as it was, and says so
    expect(engine.store.getTask(ids.broken)?.inputs[0]?.source).toBe('base64');
    expect(logs.join('\n')).toMatch(new RegExp(`task ${ids.broken}: input "target_image" stays Base64`));

    const rerun = await engine.rerun(ids.failed);
    expect(rerun.inputs).toEqual(queued.inputs);
    const exported = await exportTasks(lib, [engine.store.getTask(ids.failed) as Task], join(dir, 'export'));
    const folder = exported.tasks[0]?.folder ?? '';
    expect(exported.tasks[0]?.files.sort()).toEqual([
      'input-swap_image.jpg',
      'input-target_image.png',
      'task.json',
    ]);
    expect(readFileSync(join(folder, 'input-target_image.png'))).toEqual(png);
    expect(JSON.parse(readFileSync(join(folder, 'task.json'), 'utf8')).request.input.target_image).toEqual({
      $file: queued.inputs[0]?.value,
    });

    sb = await sandbox();
    engine.setService({ baseUrl: sb.url, apiKey: API_KEY });
    const saved = await waitForState(engine, ids.queued, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    const sent = sb.ledger().find((e) => e.taskId === saved.remoteId)?.body as {
      input: Record<string, string>;
    };
    expect(Buffer.from(sent.input.target_image ?? '', 'base64')).toEqual(png);
    expect(Buffer.from(sent.input.swap_image ?? '', 'base64')).toEqual(jpeg);
  });
});
