/**
 * The calls for keeping going from a result, through `backend.handle` with the real engine and
 * the built-in sandbox: a batch of face swaps from dropped files (a file the user never gave is
 * refused naming the draft), its summary and cancel, a result used as an input with its lineage
 * both ways, a task.json import through the file dialog (null when cancelled), onto the
 * exported task's boards, and a dropped result file recalled (issue 22, item 2).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BatchCancelView,
  BatchSummary,
  BatchView,
  BoardView,
  DraftView,
  ExportResult,
  FileRecall,
  Task,
  TaskFilePreview,
  TaskLineage,
} from '../../src/shared/index.ts';
import { WAV } from '../engine/engine-fixtures.ts';
import { recallRecord, writePngWithRecord } from '../support/pictures.ts';
import {
  type Harness,
  openBackend,
  removeDir,
  SONG,
  tempDir,
  waitUntil,
  writePng,
} from './backend-fixtures.ts';

let dir: string;
let h: Harness;

beforeAll(async () => {
  dir = await tempDir();
  h = await openBackend(dir);
});

afterAll(async () => {
  await h?.backend.close();
  await removeDir(dir);
});

async function saved(id: string): Promise<Task> {
  return waitUntil(async () => {
    const t = await h.ok<Task | null>('tasks.get', { id });
    return t?.state === 'saved' ? t : null;
  });
}

/** What "Queue again from an export…" asks the native file dialog. */
const PICKER_TITLE = 'Queue again from an export: a task.json or a file the app made';

/** Why a file the app did not make is not queued again (after what it lacks). */
const CANNOT = 'so it cannot be recalled or queued again: only a file the app exported or saved can';

/** The user's yes to a task.json's summary: no file picked, webhook off. */
const yes = { files: {}, keepWebhook: false, acceptUnknownPrice: false };

const swapDraft = (target: unknown, face: string) => ({
  model: 'image-toolkit',
  taskType: 'face-swap',
  input: { target_image: target, swap_image: face },
});

describe('batches and lineage through the contract', () => {
  it("names each file input by the file's own name (party.png), never its content hash, in the task, its draft and a re-run (issue 21, item 10)", async () => {
    const party = await writePng(join(dir, 'party.png'), 96, 72);
    const smile = await writePng(join(dir, 'smile.png'), 48, 48);
    for (const f of [party, smile]) h.backend.grantDroppedFile(f);
    const task = await h.ok<Task>('tasks.queue', swapDraft(party, smile));
    expect(task).not.toHaveProperty('batchPlace'); // queued alone
    const names = (t: Task) => Object.fromEntries(t.inputs.map((i) => [i.field, i.name]));
    expect(names(task)).toEqual({ target_image: 'party.png', swap_image: 'smile.png' });
    // the library keeps one copy per content, named by its hash; the name is the user's
    expect(task.inputs.map((i) => i.value)).toEqual([
      expect.stringMatching(/^inputs\/[0-9a-f]{64}\.png$/),
      expect.stringMatching(/^inputs\/[0-9a-f]{64}\.png$/),
    ]);
    const draft = await h.ok<DraftView>('tasks.draftOf', { id: task.id });
    expect(draft.fileNames).toEqual({ target_image: 'party.png', swap_image: 'smile.png' });
    // a re-run sends the library's copies: they keep the names the user gave
    const { fileNames: _shown, ...again } = draft;
    const rerun = await h.ok<Task>('tasks.queue', { ...again, parentId: task.id, parentOutput: null });
    expect(names(rerun)).toEqual({ target_image: 'party.png', swap_image: 'smile.png' });
    // the same bytes under another name are that name in that task
    const copy = join(dir, 'copy-of-party.png');
    writeFileSync(copy, readFileSync(party));
    h.backend.grantDroppedFile(copy);
    const other = await h.ok<Task>('tasks.queue', swapDraft(copy, smile));
    expect(other.inputs[0]).toMatchObject({ value: task.inputs[0]?.value, name: 'copy-of-party.png' });
  });

  it('queues a batch of dropped pictures; a picture not given is refused naming its draft', async () => {
    const face = await writePng(join(dir, 'face.png'), 64, 64);
    const targets = await Promise.all([1, 2, 3].map((i) => writePng(join(dir, `t${i}.png`), 80 + i * 8, 60)));
    for (const f of [face, targets[0], targets[2]]) h.backend.grantDroppedFile(f as string);
    const refused = await h.call('tasks.queueBatch', { drafts: targets.map((t) => swapDraft(t, face)) });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error).toMatchObject({ kind: 'not-given', field: 'target_image' });
      expect(refused.error.message).toMatch(
        /^draft 2 of 3: target_image: this file was not given to the app/,
      );
    }
    h.backend.grantDroppedFile(targets[1] as string);
    const batch = await h.ok<BatchView>('tasks.queueBatch', {
      drafts: targets.map((t) => swapDraft(t, face)),
    });
    expect(batch.tasks.map((t) => t.batchId)).toEqual([batch.batchId, batch.batchId, batch.batchId]);
    // each knows its place, in the order queued (issue 21, item 10): read back from the library too
    const places = [1, 2, 3].map((index) => ({ index, count: 3 }));
    expect(batch.tasks.map((t) => t.batchPlace)).toEqual(places);
    const stored = await Promise.all(batch.tasks.map((t) => h.ok<Task>('tasks.get', { id: t.id })));
    expect(stored.map((t) => t.batchPlace)).toEqual(places);
    const open = await h.ok<BatchSummary[]>('tasks.batches', {});
    expect(open.map((b) => b.batchId)).toContain(batch.batchId);
    for (const t of batch.tasks) await saved(t.id);
    const [summary] = await h.ok<BatchSummary[]>('tasks.batches', { batchId: batch.batchId });
    expect(summary).toMatchObject({ total: 3, done: 3, taskType: 'face-swap', title: 'Face swap' });
    expect(await h.ok<BatchCancelView>('tasks.cancelBatch', { batchId: batch.batchId })).toEqual({
      batchId: batch.batchId,
      cancelled: 0,
      cancelledAfterUncertain: 0,
      alreadySent: 0,
      ended: 3,
      uncertain: 0,
    });
    const unknown = await h.call('tasks.cancelBatch', { batchId: 'nope' });
    expect(unknown.ok === false && unknown.error.kind).toBe('not-allowed');

    // a result of the batch upscaled: its lineage both ways
    const first = batch.tasks[0] as Task;
    const up = await h.ok<Task>('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'upscale',
      input: { image: { $output: { taskId: first.id, index: 0 } }, scale: 2 },
    });
    expect([up.parentId, up.parentOutput]).toEqual([first.id, 0]);
    const lineage = await h.ok<TaskLineage>('tasks.lineage', { id: up.id });
    expect(lineage.madeFrom.map((i) => [i.id, i.batchId])).toEqual([[first.id, batch.batchId]]);
    expect((await h.ok<TaskLineage>('tasks.lineage', { id: first.id })).madeInto.map((i) => i.id)).toEqual([
      up.id,
    ]);
    const missing = await h.call('tasks.lineage', { id: 'nope' });
    expect(missing.ok === false && missing.error).toMatchObject({ kind: 'not-found', field: 'id' });
    await saved(up.id);
  });

  it('imports a task.json chosen in the file dialog; null when the dialog is cancelled', async () => {
    const face = await writePng(join(dir, 'face2.png'), 64, 64);
    const target = await writePng(join(dir, 'target2.png'), 90, 70);
    h.backend.grantDroppedFile(face);
    h.backend.grantDroppedFile(target);
    const task = await h.ok<Task>('tasks.queue', { ...swapDraft(target, face), title: 'To export' });
    await saved(task.id);
    const board = await h.ok<BoardView>('boards.create', { name: 'Swaps' });
    await h.ok('boards.add', { id: board.id, selection: { ids: [task.id] } });
    h.dialogs.folder = join(dir, 'exports');
    const exported = await h.ok<ExportResult>('tasks.export', { ids: [task.id] });
    h.dialogs.file = null;
    expect(await h.ok('tasks.readTaskFile', {})).toBeNull();
    h.dialogs.file = join(exported.tasks[0]?.folder ?? '', 'task.json');
    const preview = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    expect(preview.inputs.map((i) => [i.field, i.source])).toEqual([
      ['target_image', 'export-file'],
      ['swap_image', 'export-file'],
    ]);
    expect(preview).toMatchObject({ model: 'service/image-toolkit', priceMicros: 10_000, webhook: null });
    expect(preview.rerunOf).toEqual({ id: task.id, title: 'To export' });
    // its boards are kept in task.json and the new task goes on them
    expect(preview.boards).toEqual(['Swaps']);
    // its yes pressed twice before the first answers: one task (paid once), both answers name it
    const before = (await h.ok<{ total: number }>('tasks.count', {})).total;
    const [again, doubled] = await Promise.all([
      h.ok<Task>('tasks.queueTaskFile', { importId: preview.importId, ...yes }),
      h.ok<Task>('tasks.queueTaskFile', { importId: preview.importId, ...yes }),
    ]);
    expect(doubled.id).toBe(again.id);
    expect((await h.ok<{ total: number }>('tasks.count', {})).total).toBe(before + 1);
    // a reading is queued once
    const twice = await h.call('tasks.queueTaskFile', { importId: preview.importId, ...yes });
    expect(twice.ok === false && twice.error.message).toBe(
      'importId: this import is no longer open; choose the file again',
    );
    expect(again).toMatchObject({
      title: 'To export',
      state: 'queued',
      parentId: task.id,
      parentOutput: null,
    });
    expect(h.dialogs.asked.at(-1)).toBe(PICKER_TITLE);
    const onBoard = await h.ok<{ items: Task[] }>('tasks.list', { board: board.id });
    expect(onBoard.items.map((t) => t.id)).toEqual([again.id, task.id]);
    await saved(again.id);
  });
});

describe('a task.json someone else wrote', () => {
  const ledger = () => h.backend.builtInSandbox()?.ledger() ?? [];
  const tasksNow = async () => (await h.ok<{ total: number }>('tasks.count', {})).total;
  let folder: string;
  let secret: string;

  beforeAll(async () => {
    const elsewhere = join(dir, 'some', 'other', 'dir');
    folder = join(dir, 'downloads', 'shared-export');
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(folder, { recursive: true });
    secret = await writePng(join(elsewhere, 'secret.png'), 70, 50);
    writeFileSync(join(dir, 'x.wav'), WAV);
    // a link beside the task.json that leads out of the folder
    symlinkSync(secret, join(folder, 'face.png'));
    await waitUntil(() => h.backend.builtInSandbox(), 'the built-in sandbox');
  });

  it('reads no picture outside its folder (a plain path, a link) and shows its webhook; nothing is sent before the user picks files and says yes', async () => {
    writeFileSync(
      join(folder, 'task.json'),
      JSON.stringify({
        title: 'Looks harmless',
        request: {
          model: 'service/image-toolkit',
          task_type: 'face-swap',
          input: { target_image: secret, swap_image: { $file: 'inputs/abc.png' } },
          config: { webhook_config: { endpoint: 'https://collector.example/hook?id=7', secret: 's' } },
        },
        inputs: [{ field: 'swap_image', source: 'file', file: 'face.png' }],
      }),
    );
    const [sentBefore, countBefore] = [ledger().length, await tasksNow()];
    h.dialogs.file = join(folder, 'task.json');
    const preview = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    expect(preview).toMatchObject({
      title: 'Looks harmless',
      model: 'service/image-toolkit',
      taskType: 'face-swap',
      priceText: '$0.01 ($0.01 per generation)',
      webhook: { endpoint: 'https://collector.example/hook?id=7', hasSecret: true },
      rerunOf: null,
    });
    expect(preview.inputs).toEqual([
      {
        field: 'target_image',
        kind: 'image',
        required: true,
        source: 'needs-file',
        why: `names ${JSON.stringify(secret)}, outside the export folder; an import reads files only from the task.json’s own folder`,
      },
      {
        field: 'swap_image',
        kind: 'image',
        required: true,
        source: 'needs-file',
        why: 'names face.png, outside the export folder; an import reads files only from the task.json’s own folder',
      },
    ]);
    // the user's yes without the files the import lacks: refused, nothing queued or sent
    const unpicked = await h.call('tasks.queueTaskFile', { importId: preview.importId, ...yes });
    expect(unpicked.ok === false && unpicked.error.message).toMatch(
      /^task\.json: input "target_image" names .*; pick a file for it$/,
    );
    // the window cannot name the secret itself: a pick must be granted as a drop is
    const named = await h.call('tasks.queueTaskFile', {
      importId: preview.importId,
      ...yes,
      files: { target_image: secret, swap_image: secret },
    });
    expect(named.ok === false && named.error).toMatchObject({ kind: 'not-given', field: 'target_image' });
    expect([ledger().length, await tasksNow()]).toEqual([sentBefore, countBefore]);

    // files the user picked, webhook left off (the default)
    const target = await writePng(join(dir, 'picked-target.png'), 90, 60);
    const face = await writePng(join(dir, 'picked-face.png'), 50, 50);
    h.backend.grantDroppedFile(target);
    h.backend.grantDroppedFile(face);
    const task = await h.ok<Task>('tasks.queueTaskFile', {
      importId: preview.importId,
      ...yes,
      files: { target_image: target, swap_image: face },
    });
    expect(task.request.config).toBeUndefined();
    const done = await saved(task.id);
    const sent = ledger().filter((e) => e.taskId === done.remoteId);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]?.body)).not.toContain('collector.example');
  });

  it('reads no sound named ../../x.wav; an optional input left unpicked is left out; a kept webhook is sent', async () => {
    writeFileSync(
      join(folder, 'song.json'),
      JSON.stringify({
        request: {
          model: 'service/ace-step',
          task_type: 'txt2audio',
          input: { style_prompt: 'harbour lights', duration: 4, style_audio: '../../x.wav' },
          config: { webhook_config: { endpoint: 'http://127.0.0.1:9/hook' } },
        },
      }),
    );
    const countBefore = await tasksNow();
    h.dialogs.file = join(folder, 'song.json');
    const preview = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    expect(preview.inputs).toEqual([
      {
        field: 'style_audio',
        kind: 'audio',
        required: false,
        source: 'needs-file',
        why: 'names "../../x.wav", outside the export folder; an import reads files only from the task.json’s own folder',
      },
    ]);
    expect(preview).toMatchObject({
      priceMicros: 2000,
      parameters: { style_prompt: 'harbour lights', duration: 4, lyrics: '[inst]' },
      webhook: { endpoint: 'http://127.0.0.1:9/hook', hasSecret: false },
    });
    expect(await tasksNow()).toBe(countBefore);
    const task = await h.ok<Task>('tasks.queueTaskFile', {
      importId: preview.importId,
      ...yes,
      keepWebhook: true,
    });
    expect(task.inputs).toEqual([]);
    expect(task.request.input).not.toHaveProperty('style_audio');
    expect(task.request.config?.webhook_config).toMatchObject({ endpoint: 'http://127.0.0.1:9/hook' });
  });
});

describe('a result file dropped on the composer (issue 22, item 2)', () => {
  /** The song of the first test, its exported WAV (parameters inside) and the library's own file. */
  let song: Task;
  let wav: string;
  let original: string;

  it('recalls an exported song by the parameters inside it, and the library’s own WAV by its checksum; only dropped files', async () => {
    const task = await h.ok<Task>('tasks.queue', {
      ...SONG,
      input: { ...SONG.input, duration: 4 },
      title: 'Piano',
    });
    song = await saved(task.id);
    const { libraryDir } = await h.ok<{ libraryDir: string }>('app.info', {});
    original = join(libraryDir, song.outputs[0]?.path ?? '');
    const sha = () => createHash('sha256').update(readFileSync(original)).digest('hex');
    const before = sha();
    h.dialogs.folder = join(dir, 'song-exports');
    const exported = await h.ok<ExportResult>('tasks.export', { ids: [task.id] });
    wav = join(
      exported.tasks[0]?.folder ?? '',
      exported.tasks[0]?.files.find((f) => f.endsWith('.wav')) ?? '',
    );
    expect(sha()).toBe(before); // the library's file is byte for byte the same
    expect(createHash('sha256').update(readFileSync(wav)).digest('hex')).not.toBe(before);

    // a file the user never dropped is refused, and so is a path that is not a full one
    const ungiven = await h.call('tasks.recallFile', { path: wav });
    expect(ungiven.ok === false && ungiven.error).toMatchObject({ kind: 'not-given', field: 'path' });
    const relative = await h.call('tasks.recallFile', { path: 'song.wav' });
    expect(relative.ok === false && relative.error).toMatchObject({ kind: 'not-given', field: 'path' });

    h.backend.grantDroppedFile(wav);
    const recall = await h.ok<FileRecall>('tasks.recallFile', { path: wav });
    expect(recall).toMatchObject({
      origin: 'embedded',
      task: { id: task.id, title: 'Piano' },
      outputIndex: 0,
      taskType: 'txt2audio',
      draft: { input: { style_prompt: 'calm piano', duration: 4 } },
    });
    expect(recall.source).toMatch(/^the WAV comment of .*\.wav \(task “Piano” in this library\)$/);
    // a library file may be read by the window: found by its checksum
    const byChecksum = await h.ok<FileRecall>('tasks.recallFile', { path: original });
    expect(byChecksum).toMatchObject({ origin: 'library', task: { id: task.id }, outputIndex: 0 });
    // a sound the app did not make: said in words
    const stranger = join(dir, 'stranger.wav');
    writeFileSync(stranger, WAV);
    h.backend.grantDroppedFile(stranger);
    const unknown = await h.call('tasks.recallFile', { path: stranger });
    expect(unknown.ok === false && unknown.error.message).toBe(
      `stranger.wav: this sound has no Media Task Studio parameters in it and no result in this library has its checksum, ${CANNOT}`,
    );
    // a file of another kind is judged by its bytes, then its name: never read as a task.json
    const refusal = async (name: string, bytes: string | Buffer) => {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      h.backend.grantDroppedFile(file);
      const got = await h.call('tasks.recallFile', { path: file });
      return got.ok === false ? got.error.message : 'recalled';
    };
    expect(await refusal('notes.txt', 'hello')).toBe(
      'notes.txt is a text file, not a picture, sound, video or 3D model the app made, nor a task.json it exported',
    );
    expect(await refusal('fake.png', 'this is not a picture')).toBe(
      'fake.png is not a PNG image: its content is text, not a picture',
    );
    expect(await refusal('empty.mp4', '')).toBe('empty.mp4 is not an MP4 video: the file is empty');
    expect(await refusal('noise.bin', Buffer.from([0, 1, 2, 3, 250, 251, 0, 7]))).toBe(
      'noise.bin is not a picture, sound, video or 3D model the app made, nor a task.json it exported',
    );
  });

  it('Queue again from an export… takes a result file as it takes a task.json: a summary, then the user’s yes', async () => {
    // the exported song: its parameters inside, a re-run of the song here
    h.dialogs.file = wav;
    const preview = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    // the file dialog offers the task.json and the files the app makes
    const offered = h.dialogs.offered.at(-1)?.[0]?.extensions;
    expect(offered).toEqual(expect.arrayContaining(['json', 'png', 'jpg', 'wav', 'mp3', 'mp4', 'glb']));
    expect(h.dialogs.asked.at(-1)).toBe(PICKER_TITLE);
    expect(preview.recall).toMatchObject({ origin: 'embedded', task: { id: song.id } });
    expect(preview).toMatchObject({
      taskType: 'txt2audio',
      rerunOf: { id: song.id, title: 'Piano' },
      inputs: [],
      webhook: null,
    });
    const again = await h.ok<Task>('tasks.queueTaskFile', { importId: preview.importId, ...yes });
    expect(again).toMatchObject({ state: 'queued', parentId: song.id, parentOutput: null });
    expect(again.request.input).toMatchObject({ style_prompt: 'calm piano', duration: 4 });

    // the library's own file, with nothing embedded: the task of its checksum
    h.dialogs.file = original;
    const byChecksum = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    expect(byChecksum.recall).toMatchObject({ origin: 'library', task: { id: song.id }, outputIndex: 0 });
    expect(byChecksum.rerunOf).toEqual({ id: song.id, title: 'Piano' });

    // a picture another library exported: its inputs only as the export's own copies beside it,
    // its webhook never read, even with keepWebhook
    const folder = join(dir, 'from-a-friend');
    mkdirSync(folder, { recursive: true });
    const target = await writePng(join(folder, 'input-target_image.png'), 90, 70);
    const face = await writePng(join(folder, 'input-swap_image.png'), 64, 64);
    const plain = readFileSync(await writePng(join(dir, 'plain.png'), 40, 30));
    const request = {
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      input: { target_image: { $file: 'inputs/a.png' }, swap_image: { $file: 'inputs/b.png' } },
      config: { webhook_config: { endpoint: 'https://collector.example/h', secret: 's' } },
    };
    const record = recallRecord(request, { id: 'elsewhere-1', title: 'Friend swap' });
    const png = await writePngWithRecord(join(folder, 'friend-swap.png'), plain, JSON.stringify(record));
    h.dialogs.file = png;
    const friend = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    expect(friend).toMatchObject({ title: 'Friend swap', priceMicros: 10_000, rerunOf: null, webhook: null });
    expect(friend.recall?.source).toBe('the PNG text chunk of friend-swap.png');
    expect(friend.inputs.map((i) => [i.field, i.source, 'name' in i ? i.name : null])).toEqual([
      ['target_image', 'export-file', 'input-target_image.png'],
      ['swap_image', 'export-file', 'input-swap_image.png'],
    ]);
    const swap = await h.ok<Task>('tasks.queueTaskFile', {
      importId: friend.importId,
      ...yes,
      keepWebhook: true,
    });
    expect(swap).toMatchObject({ title: 'Friend swap', parentId: null });
    expect(swap.request.config).toBeUndefined();
    const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(swap.inputs.map((i) => i.sha256)).toEqual([sha256(target), sha256(face)]);

    // a picture the app did not make: why it cannot be queued again, in words
    h.dialogs.file = await writePng(join(dir, 'holiday.png'), 30, 20);
    const stranger = await h.call('tasks.readTaskFile', {});
    expect(stranger.ok === false && stranger.error.message).toBe(
      `holiday.png: this picture has no Media Task Studio parameters in it and no result in this library has its checksum, ${CANNOT}`,
    );
    await saved(again.id);
    await saved(swap.id);
  });
});
