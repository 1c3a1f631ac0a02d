/**
 * Keeping going from a result, in the engine: a previous result named in a draft
 * (`{ $output: { taskId, index } }`) is sent as the service's URL while that is trusted, else as
 * the saved library file (inline here: the sandbox has no upload endpoint), and the queued event
 * says which; the parent is recorded by itself and lineage reads both ways; results that cannot
 * be used are refused naming the field. Batches: all queued with one id or none (a bad draft, the
 * budget as a whole), summaries, cancelling what is still local. Export and import of task.json.
 * Real engine, real SQLite file, real sandbox over HTTP.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BudgetExceededError,
  type EngineClock,
  PriceUnknownError,
  SYSTEM_CLOCK,
  type TaskEngine,
} from '../../src/core/engine/index.ts';
import { InputValidationError } from '../../src/core/inputs/index.ts';
import { exportTasks } from '../../src/core/library/index.ts';
import { readEmbeddedParams } from '../../src/core/recall/embedded-params.ts';
import { bytesSource } from '../../src/core/recall/file-edits.ts';
import type { LedgerEntry, Sandbox } from '../../src/sandbox/index.ts';
import { batchCancelText, MODELS, type Task, type TaskChange } from '../../src/shared/index.ts';
import { writePicture } from '../support/pictures.ts';
import { openEngine, removeDir, sandbox, tempDir, waitForState } from './engine-fixtures.ts';

const HOUR = 60 * 60 * 1000;

let dir: string;
let lib: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;
/** How far the engine's clock is ahead of the system's. */
let shift = 0;
const clock: EngineClock = { now: () => Date.now() + shift, schedule: SYSTEM_CLOCK.schedule };

beforeEach(async () => {
  dir = await tempDir('mts-lineage-');
  lib = join(dir, 'lib');
  sb = null;
  engine = null;
  shift = 0;
});

afterEach(async () => {
  await engine?.close();
  await sb?.stop();
  await removeDir(dir);
});

const ref = (taskId: string, index = 0) => ({ $output: { taskId, index } });

async function savedSong(e: TaskEngine): Promise<Task> {
  const song = await e.queueTask({
    model: MODELS.audio,
    taskType: 'txt2audio',
    input: { style_prompt: 'sea shanty, accordion', lyrics: '[verse]\nheave away', duration: 6 },
    title: 'Harbour song',
  });
  return waitForState(e, song.id, ['saved']);
}

/** What the sandbox received for the task with this remote id. */
function received(remoteId: string | null): Record<string, unknown> {
  const entry = sb?.ledger().find((e: LedgerEntry) => e.taskId === remoteId);
  return ((entry?.body as { input?: Record<string, unknown> } | undefined)?.input ?? {}) as Record<
    string,
    unknown
  >;
}

function extendDraft(songId: string, extra: Record<string, unknown> = {}) {
  return {
    model: MODELS.audio,
    taskType: 'extend',
    input: { audio: ref(songId), right_extend_duration: 4, style_prompt: 'sea shanty', ...extra },
  };
}

describe('a previous result as an input', () => {
  it('extends a saved song by its service URL; the parent is recorded and lineage reads both ways', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb, { clock });
    const song = await savedSong(engine);
    const extend = await engine.queueTask(extendDraft(song.id));
    expect([extend.parentId, extend.parentOutput, extend.batchId]).toEqual([song.id, 0, null]);
    expect(extend.inputs).toEqual([
      expect.objectContaining({ field: 'audio', source: 'url', value: song.outputs[0]?.url }),
    ]);
    expect(extend.request.input.audio).toBe(song.outputs[0]?.url);
    expect(engine.store.events(extend.id)[0]?.detail).toBe(
      `audio: output 0 of "Harbour song" sent as the service's URL`,
    );
    const done = await waitForState(engine, extend.id, ['saved']);
    expect(received(done.remoteId).audio).toBe(song.outputs[0]?.url);
    expect(done.outputs[0]?.kind).toBe('audio');

    expect(engine.lineage(done.id)?.madeFrom).toEqual([
      expect.objectContaining({ id: song.id, title: 'Harbour song', taskType: 'txt2audio', state: 'saved' }),
    ]);
    expect(engine.lineage(song.id)?.madeInto).toEqual([
      expect.objectContaining({ id: done.id, taskType: 'extend', parentOutput: 0 }),
    ]);

    // deleting the song: the extend keeps its title and the output used, and says so in a change
    const changes: TaskChange[] = [];
    const stop = engine.onTaskChanges((delivered) => changes.push(...delivered));
    await engine.deleteTask(song.id);
    const unlinked = engine.store.getTask(done.id);
    expect([unlinked?.parentId, unlinked?.parentOutput, unlinked?.parentGone]).toEqual([
      null,
      0,
      'Harbour song',
    ]);
    await expect.poll(() => changes.find((c) => c.taskId === done.id)?.task?.parentGone).toBe('Harbour song');
    expect(changes.find((c) => c.taskId === song.id)?.task).toBeNull();
    stop();
    // its export says so too: no parent id, the output used, and the deleted parent's title
    const out = await exportTasks(lib, [unlinked as Task], join(dir, 'export-unlinked'));
    const sidecar = JSON.parse(readFileSync(join(out.tasks[0]?.folder ?? '', 'task.json'), 'utf8'));
    expect(sidecar).toMatchObject({ parent_id: null, parent_output: 0, parent_gone: 'Harbour song' });
  });

  it('sends the saved library file once the URL is no longer trusted, and says so', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb, { clock });
    const song = await savedSong(engine);
    shift = 2 * HOUR;
    const remix = await engine.queueTask({
      model: MODELS.audio,
      taskType: 'audio2audio',
      input: { style_audio: ref(song.id), style_prompt: 'slow jazz ballad' },
    });
    const input = remix.inputs[0];
    expect(input).toMatchObject({ field: 'style_audio', source: 'file', sha256: song.outputs[0]?.sha256 });
    expect(remix.request.input.style_audio).toEqual({ $file: input?.value });
    expect(engine.store.events(remix.id)[0]?.detail).toMatch(
      /^style_audio: output 0 of "Harbour song" sent from the library file \(its URL may have expired/,
    );
    const done = await waitForState(engine, remix.id, ['saved']);
    // inline (the sandbox here has no upload endpoint): the file's bytes as Base64, no data: prefix
    const sent = String(received(done.remoteId).style_audio);
    const file = readFileSync(join(lib, song.outputs[0]?.path ?? ''));
    expect(Buffer.from(sent, 'base64').equals(file)).toBe(true);
    expect([done.parentId, done.parentOutput]).toEqual([song.id, 0]);
  });

  it('uses a loopback URL only at the service in use: another sandbox means the file', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb, { clock });
    const song = await savedSong(engine);
    await engine.close();
    await sb.stop();
    sb = await sandbox();
    engine = await openEngine(lib, sb, { clock });
    const extend = await engine.queueTask(extendDraft(song.id));
    expect(extend.inputs[0]?.source).toBe('file');
    expect(engine.store.events(extend.id)[0]?.detail).toMatch(
      /sent from the library file \(its URL is on this computer/,
    );
    await waitForState(engine, extend.id, ['saved']);
  });

  it('refuses what cannot be used, naming the field, and queues nothing', async () => {
    engine = await openEngine(lib, null, { clock });
    const face = await writePicture(join(dir, 'face.png'), 64, 64);
    const swap = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'face-swap',
      input: { target_image: face, swap_image: face },
      title: 'Swap',
    });
    const refusal = (draft: Parameters<TaskEngine['queueTask']>[0]) =>
      engine?.queueTask(draft).then(
        () => 'queued',
        (err: Error) => `${err.name}: ${err.message}`,
      );
    const extend = (audio: unknown) => ({
      model: MODELS.audio,
      taskType: 'extend',
      input: { audio, right_extend_duration: 3 },
    });
    expect(await refusal(extend(ref(swap.id)))).toBe(
      'InputValidationError: audio: "Swap" has no output 0 (it has no outputs yet)',
    );
    expect(await refusal(extend(ref('missing')))).toMatch(
      /^InputValidationError: audio: the result it names is gone: no task missing/,
    );
    expect(await refusal(extend({ $output: { taskId: swap.id } }))).toMatch(
      /^InputValidationError: audio: a previous result is written/,
    );
    expect(
      await refusal({
        model: MODELS.audio,
        taskType: 'extend',
        input: { audio: 'https://example.com/a.mp3', style_prompt: ref(swap.id), right_extend_duration: 3 },
      }),
    ).toBe(
      'InputValidationError: style_prompt: takes no picture or audio, so a previous result cannot go here',
    );
    expect(
      await refusal({ model: MODELS.audio, taskType: 'stretch', input: { audio: ref(swap.id) } }),
    ).toMatch(/^InputValidationError: task_type: "stretch" is not a task type the app knows/);
    expect(await refusal({ ...extend('https://example.com/a.mp3'), parentOutput: 0 })).toBe(
      'InputValidationError: parentOutput: is given without parentId',
    );
    // an image where audio goes, once the picture exists
    engine.store.replaceOutputs(swap.id, [
      { kind: 'image', url: 'https://cdn.example/s.png', field: 'image_url' },
    ]);
    expect(await refusal(extend(ref(swap.id)))).toBe(
      'InputValidationError: audio: takes audio, and output 0 of "Swap" is image',
    );
    expect(engine.store.countTasks({}).total).toBe(1);
  });
});

describe('batches', () => {
  async function editDrafts(n: number, seed = 7) {
    const picture = await writePicture(join(dir, 'photo.png'), 96, 64);
    return Array.from({ length: n }, (_, k) => ({
      model: MODELS.imageEdit,
      taskType: 'image-edit',
      input: { image1: picture, prompt: 'a lighthouse at dusk', seed: seed + k },
    }));
  }

  it('queues a 4-seed variation as one batch, summarised until it ends', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb);
    const { batchId, tasks } = await engine.queueBatch(await editDrafts(4, 100));
    expect(tasks.map((t) => t.batchId)).toEqual([batchId, batchId, batchId, batchId]);
    expect(tasks.map((t) => t.request.input.seed)).toEqual([100, 101, 102, 103]);
    expect(new Set(tasks.map((t) => t.inputs[0]?.value)).size).toBe(1); // one library file for all
    const open = engine.batches();
    expect(open).toEqual([
      expect.objectContaining({
        batchId,
        total: 4,
        estimateMicros: 100_000,
        taskIds: tasks.map((t) => t.id),
      }),
    ]);
    for (const t of tasks) await waitForState(engine, t.id, ['saved']);
    expect(engine.batches()).toEqual([]);
    expect(engine.batches(batchId)).toEqual([
      expect.objectContaining({ total: 4, done: 4, failed: 0, queued: 0 }),
    ]);
    const seeds = tasks.map((t) => received(engine?.store.getTask(t.id)?.remoteId ?? null).seed);
    expect(seeds).toEqual([100, 101, 102, 103]);
  });

  it('checks the budget for the batch as a whole: over it, nothing is queued and no file kept', async () => {
    engine = await openEngine(lib, null);
    engine.setBudget(60_000);
    const drafts = await editDrafts(3);
    await expect(engine.queueBatch(drafts)).rejects.toThrow(BudgetExceededError);
    await expect(engine.queueBatch(drafts)).rejects.toThrow(
      'this batch of 3 tasks ($0.075) would take the total to $0.075, over your budget of $0.06; raise the budget in Settings to queue them',
    );
    expect(engine.store.countTasks({}).total).toBe(0);
    expect(existsSync(join(lib, 'inputs')) ? readdirSync(join(lib, 'inputs')) : []).toEqual([]);
    const two = await engine.queueBatch(drafts.slice(0, 2));
    expect(two.tasks).toHaveLength(2);
    // an unknown price under a budget needs the user's word, for the batch or the draft
    const upscale = {
      model: MODELS.imageToolkit,
      taskType: 'upscale',
      input: { image: drafts[0]?.input.image1 },
    };
    engine.setBudget(1_000_000);
    await expect(engine.queueBatch([drafts[0] as never, upscale])).rejects.toThrow(PriceUnknownError);
    await expect(engine.queueBatch([drafts[0] as never, upscale])).rejects.toThrow(
      /^draft 2 of 2: the service publishes no price for upscale/,
    );
    expect((await engine.queueBatch([upscale], { acceptUnknownPrice: true })).tasks).toHaveLength(1);
    expect(engine.store.countTasks({}).total).toBe(3);
  });

  it('refuses the whole batch for one bad draft, naming it, with its field', async () => {
    engine = await openEngine(lib, null);
    const drafts = await editDrafts(3);
    (drafts[1] as { input: Record<string, unknown> }).input.prompt = '';
    const err = await engine.queueBatch(drafts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputValidationError);
    expect((err as InputValidationError).message).toBe(
      'draft 2 of 3: prompt: Write a prompt that describes the edit',
    );
    expect((err as InputValidationError).field).toBe('prompt');
    expect(engine.store.countTasks({}).total).toBe(0);
    await expect(engine.queueBatch([])).rejects.toThrow(/a batch takes 1 to 100 drafts/);
  });

  it('cancels what is still only queued here; what was sent goes on', async () => {
    engine = await openEngine(lib, null);
    const { batchId, tasks } = await engine.queueBatch(await editDrafts(3));
    engine.store.transition(tasks[0]?.id ?? '', 'submitting', { from: ['queued'] }); // as if being sent
    expect(engine.cancelBatch(batchId)).toEqual({
      batchId,
      cancelled: 2,
      cancelledAfterUncertain: 0,
      alreadySent: 1,
      ended: 0,
      uncertain: 0,
    });
    expect(tasks.map((t) => engine?.store.getTask(t.id)?.state)).toEqual([
      'submitting',
      'cancelled',
      'cancelled',
    ]);
    expect(engine.store.events(tasks[1]?.id ?? '').at(-1)?.detail).toBe('cancelled with its batch');
    expect(engine.cancelBatch(batchId)).toEqual({
      batchId,
      cancelled: 0,
      cancelledAfterUncertain: 0,
      alreadySent: 1,
      ended: 2,
      uncertain: 0,
    });
    expect(engine.batches(batchId)[0]).toMatchObject({ cancelled: 2, active: 1, queued: 0 });
    expect(() => engine?.cancelBatch('nope')).toThrow('no batch nope in the library');
  });

  it('counts the tasks whose create answer was lost as waiting for a decision, not as ended', async () => {
    sb = await sandbox();
    // a service without task history: the app cannot settle them by itself
    sb.setFaults({ resetAfterBodyRate: 1, applyTo: 'create', noTaskHistory: true });
    engine = await openEngine(lib, sb);
    const { batchId, tasks } = await engine.queueBatch(await editDrafts(3));
    for (const t of tasks) await waitForState(engine, t.id, ['uncertain']);
    // one is queued again on the user's word, with no service to send it to
    engine.setService(null);
    engine.resubmit(tasks[2]?.id ?? '');
    const view = engine.cancelBatch(batchId);
    expect(view).toEqual({
      batchId,
      cancelled: 1,
      cancelledAfterUncertain: 1,
      alreadySent: 0,
      ended: 0,
      uncertain: 2,
    });
    // the one cancelled had been sent once: it is not said to be unbilled
    expect(batchCancelText(view)).toBe(
      'cancelled 1 task still queued on this computer; it had been sent once before (the answer was lost) and may have been billed for that; 2 are waiting for your decision (they may have reached the service)',
    );
  });
});

describe('export and import of task.json', () => {
  const yes = { files: {}, keepWebhook: false, acceptUnknownPrice: false };
  const importAgain = async (e: TaskEngine, file: string) => e.queueTaskFile(await e.readTaskFile(file), yes);

  it('keeps the lineage in task.json and queues the task again from it, inputs from the export folder', async () => {
    sb = await sandbox();
    engine = await openEngine(lib, sb);
    const target = await writePicture(join(dir, 'target.png'), 120, 90);
    const face = await writePicture(join(dir, 'face.jpg'), 60, 60, 'jpeg', { r: 200, g: 60, b: 60 });
    const swap = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'face-swap',
      input: { target_image: target, swap_image: face },
      title: 'Beach portrait',
    });
    const saved = await waitForState(engine, swap.id, ['saved']);
    const up = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'upscale',
      input: { image: ref(saved.id), scale: 2 },
    });
    const upscaled = await waitForState(engine, up.id, ['saved']);

    const out = await exportTasks(lib, [saved, upscaled], join(dir, 'export'));
    const [swapFolder, upFolder] = out.tasks.map((t) => t.folder);
    // the picture's own copy carries the parameters, but never an input's checksum (the library
    // names an input file by it), a path of this computer or a webhook (third review of issue 22)
    const picture = out.tasks[0]?.files.find((f) => f.startsWith('output')) ?? '';
    const bytes = readFileSync(join(swapFolder ?? '', picture));
    const embedded = await readEmbeddedParams(bytesSource(bytes), bytes.length);
    expect(embedded.found?.request.input).toEqual({
      target_image: { $file: 'input-target_image.png' },
      swap_image: { $file: 'input-swap_image.jpg' },
    });
    const shared = bytes.toString('latin1');
    for (const input of saved.inputs) expect(shared).not.toContain(input.sha256 ?? 'no checksum');
    expect(shared).not.toContain(dir);
    expect(shared).not.toContain('inputs/');
    const sidecar = JSON.parse(readFileSync(join(upFolder ?? '', 'task.json'), 'utf8'));
    expect(sidecar).toMatchObject({ parent_id: saved.id, parent_output: 0, batch_id: null });
    const swapSidecar = JSON.parse(readFileSync(join(swapFolder ?? '', 'task.json'), 'utf8'));
    expect(swapSidecar.inputs.map((i: { field: string; file: string }) => [i.field, i.file])).toEqual([
      ['target_image', 'input-target_image.png'],
      ['swap_image', 'input-swap_image.jpg'],
    ]);

    const reading = await engine.readTaskFile(join(swapFolder ?? '', 'task.json'));
    // the app's own export: every input from the export folder, nothing to pick
    expect(reading.preview.inputs.map((i) => [i.field, i.source])).toEqual([
      ['target_image', 'export-file'],
      ['swap_image', 'export-file'],
    ]);
    expect(reading.preview).toMatchObject({ title: 'Beach portrait', taskType: 'face-swap', webhook: null });
    expect(reading.preview.rerunOf?.id).toBe(saved.id);
    const again = await engine.queueTaskFile(reading, yes);
    expect(again).toMatchObject({
      state: 'queued',
      title: 'Beach portrait',
      taskType: 'face-swap',
      parentId: saved.id,
      parentOutput: null,
    });
    expect(again.inputs.map((i) => i.sha256)).toEqual(saved.inputs.map((i) => i.sha256));
    expect(again.request.input).toEqual(saved.request.input);
    await waitForState(engine, again.id, ['saved']);

    // into another library: no parent there; a missing input file is refused, naming it
    await engine.close();
    engine = await openEngine(join(dir, 'other'), sb);
    const elsewhere = await importAgain(engine, join(swapFolder ?? '', 'task.json'));
    expect([elsewhere.parentId, elsewhere.parentOutput]).toEqual([null, null]);
    rmSync(join(swapFolder ?? '', 'input-swap_image.jpg'));
    await expect(importAgain(engine, join(swapFolder ?? '', 'task.json'))).rejects.toThrow(
      `task.json: input "swap_image" is the file input-swap_image.jpg, which is not in ${swapFolder}`,
    );
    writeFileSync(join(dir, 'not-a-task.json'), '{"title": "x"}');
    await expect(engine.readTaskFile(join(dir, 'not-a-task.json'))).rejects.toThrow(
      /^not-a-task\.json: is not a task exported by this app/,
    );
    await expect(engine.readTaskFile(join(dir, 'absent.json'))).rejects.toThrow(
      'absent.json: cannot be read (the file is not there)',
    );
  });
});
