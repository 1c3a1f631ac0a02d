/**
 * Every call of the contract through `backend.handle`, with the real engine, the real sandbox
 * (demo mode on the first run) and real files: good arguments do what they say, bad arguments
 * are refused with the field named, and engine errors come back with their kind.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyForms } from '../../src/renderer/src/features/compose/compose-model.ts';
import { formProblems } from '../../src/renderer/src/features/compose/compose-problems.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import {
  type DraftView,
  type ExportResult,
  type MediaCheck,
  STUDIO_CALLS,
  type StateCounts,
  type StudioSettings,
  songEditChangesNothing,
  type Task,
  type TaskChange,
  type TaskPage,
  type TrashOutcome,
} from '../../src/shared/index.ts';
import { runCli } from '../cli/cli-runner.ts';
import { hugePng, hugeWebp } from '../support/oversized-pictures.ts';
import {
  closeBackendRig,
  type Harness,
  openBackendRig,
  SONG,
  savedTask,
  waitUntil,
  writePng,
} from './backend-fixtures.ts';

const BAD_ARGS: Record<string, [unknown, string]> = {
  'app.info': [{ extra: 1 }, 'extra'],
  'settings.get': [{ extra: 1 }, 'extra'],
  'settings.update': [{ baseUrl: 'ftp://example.org' }, 'baseUrl'],
  'settings.setApiKey': [{ key: 'short' }, 'key'],
  'settings.confirmKeyAddresses': [{ extra: 1 }, 'extra'],
  'settings.clearApiKey': [{ extra: 1 }, 'extra'],
  'settings.chooseLibraryDir': [{ extra: 1 }, 'extra'],
  'engine.status': [{ extra: 1 }, 'extra'],
  'account.get': [{ extra: 1 }, 'extra'],
  'account.history': [{ page: 1, since: 'last week' }, 'since'],
  'tasks.checkNow': [{ id: '' }, 'id'],
  'tasks.retryDownloads': [{ id: '' }, 'id'],
  'media.check': [{ field: 'image1', value: 'x', kind: '3d' }, 'kind'],
  'tasks.queue': [{ model: '', taskType: 'txt2audio', input: {} }, 'model'],
  'tasks.list': [{ limit: 0 }, 'limit'],
  'tasks.count': [{ states: ['nope'] }, 'states.0'],
  'tasks.get': [{ id: '' }, 'id'],
  'tasks.events': [{}, 'id'],
  'tasks.expectedTime': [{ model: 'ace-step', taskType: 'txt2audio', input: 'duration 30' }, 'input'],
  'tasks.cancel': [{ id: 5 }, 'id'],
  'tasks.resubmit': [{ id: 'x'.repeat(101) }, 'id'],
  'tasks.discard': [{ id: null }, 'id'],
  'tasks.settle': [{ id: 'a', remoteId: '' }, 'remoteId'],
  'tasks.importRemote': [{ ids: [] }, 'ids'],
  'tasks.draftOf': [{ id: {} }, 'id'],
  'tasks.setFavorite': [{ id: 'a', favorite: 'yes' }, 'favorite'],
  'tasks.rename': [{ id: 'a', title: '' }, 'title'],
  'tasks.delete': [{}, 'selection'],
  'tasks.restore': [{ deletedAt: 'yesterday' }, 'deletedAt'],
  'tasks.deleteForever': [{ selection: { ids: [] } }, 'selection.ids'],
  'tasks.emptyTrash': [{ extra: 1 }, 'extra'],
  'tasks.selectionIds': [{ selection: { ids: ['x'.repeat(101)] } }, 'selection.ids.0'],
  'tasks.export': [{ ids: [] }, 'ids'],
  'tasks.reveal': [{ id: 'a', index: -1 }, 'index'],
  'tasks.dragOut': [{ id: 'a' }, 'index'],
  'tasks.savePoster': [{ id: 'a', index: 0, png: '' }, 'png'],
  'tasks.queueBatch': [{ drafts: [] }, 'drafts'],
  'tasks.cancelBatch': [{ batchId: '' }, 'batchId'],
  'tasks.batches': [{ batchId: 5 }, 'batchId'],
  'tasks.lineage': [{}, 'id'],
  'tasks.readTaskFile': [{ file: '/etc/passwd' }, 'file'],
  'tasks.recallFile': [{ path: '' }, 'path'],
  'tasks.queueTaskFile': [
    { importId: 'a', files: {}, keepWebhook: 'yes', acceptUnknownPrice: false },
    'keepWebhook',
  ],
  'tasks.retryFailed': [{ batchId: '' }, 'batchId'],
  'tasks.retries': [{ ids: Array.from({ length: 501 }, (_, i) => `t${i}`) }, 'ids'],
  'compose.saveForms': [{ version: 2 }, 'version'],
  'compose.loadForms': [{ extra: 1 }, 'extra'],
  'cost.summary': [{ extra: 1 }, 'extra'],
  'boards.list': [{ extra: 1 }, 'extra'],
  'boards.create': [{ name: '  ' }, 'name'],
  'boards.rename': [{ id: 0, name: 'x' }, 'id'],
  'boards.delete': [{ id: 'a' }, 'id'],
  'boards.add': [{ id: 1, selection: { ids: [] } }, 'selection.ids'],
  'boards.remove': [{ id: 1 }, 'selection'],
  'library.size': [{ extra: 1 }, 'extra'],
  'retention.get': [{ extra: 1 }, 'extra'],
  'retention.preview': [
    {
      enabled: false,
      olderThanDays: 0,
      keepFavorites: true,
      keepBoards: true,
      keepUsedAsInputs: true,
      keepKinds: [],
    },
    'olderThanDays',
  ],
  'retention.set': [
    {
      enabled: true,
      olderThanDays: 30,
      keepFavorites: true,
      keepBoards: true,
      keepUsedAsInputs: true,
      keepKinds: ['sound'],
    },
    'keepKinds.0',
  ],
};

let dir: string;
let h: Harness;
let song: Task;

beforeAll(async () => {
  ({ dir, h } = await openBackendRig());
});
afterAll(() => closeBackendRig({ dir, h }));

describe('arguments', () => {
  it('has a bad-argument case for every call of the contract', () => {
    expect(Object.keys(BAD_ARGS).sort()).toEqual(Object.keys(STUDIO_CALLS).sort());
  });

  it.each(Object.entries(BAD_ARGS))(
    '%s refuses bad arguments naming the field',
    async (name, [args, field]) => {
      const r = await h.call(name, args);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.kind).toBe('invalid-input');
      expect(r.error.field).toBe(field);
      expect(r.error.message.startsWith(`${field}: `)).toBe(true);
    },
  );

  it('refuses an unknown call and a prototype name', async () => {
    for (const name of ['tasks.explode', '__proto__', 'constructor']) {
      const r = await h.call(name, {});
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe('unknown-call');
    }
  });
});

describe('first run in demo mode', () => {
  it('describes the app and runs the sandbox', async () => {
    const info = await h.ok<{ version: string; sandboxUrl: string | null; libraryDir: string }>('app.info');
    expect(info.version).toBe('9.9.9');
    expect(info.sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    // demo mode keeps its own library, apart from the one paid tasks go to
    expect(info.libraryDir).toBe(join(dir, 'demo-library'));
    const settings = await h.ok<StudioSettings>('settings.get');
    expect(settings).toMatchObject({
      firstRun: true,
      demoMode: true,
      hasApiKey: false,
      keyStorage: 'weak',
      baseUrl: '',
    });
    const status = await h.ok<{ service: string; serviceConfigured: boolean }>('engine.status');
    expect(status).toMatchObject({ service: 'sandbox', serviceConfigured: true });
  });

  it('queues a song that completes through the sandbox, with events', async () => {
    song = await h.ok<Task>('tasks.queue', SONG);
    expect(song.state).toBe('queued');
    const saved = await savedTask(h, song.id, 'the song to be saved');
    expect(saved.outputs[0]?.path).toMatch(/\.wav$/);
    const statesSent = () =>
      h.events
        .filter((e) => e.event === 'tasks.changed')
        .flatMap((e) =>
          (e.payload as { taskId: string; task: Task | null }[]).filter((c) => c.taskId === song.id),
        )
        .map((c) => c.task?.state);
    await waitUntil(
      () => statesSent().includes('saved'),
      'the saved state in a tasks.changed delivery',
      2_000,
    );
    expect(statesSent()).toEqual(expect.arrayContaining(['pending', 'saved']));
    const events = await h.ok<{ to: string }[]>('tasks.events', { id: song.id });
    expect(events.map((e) => e.to)).toEqual(expect.arrayContaining(['queued', 'submitting', 'saved']));
  });

  it('notifies a finished task once', async () => {
    const finished: Task[] = [];
    h.backend.onTaskFinished((t) => finished.push(t));
    const t = await h.ok<Task>('tasks.queue', {
      ...SONG,
      input: { ...SONG.input, style_prompt: 'notify me' },
    });
    await waitUntil(() => finished.find((f) => f.id === t.id), 'the finish notice', 12_000);
    await h.ok('tasks.setFavorite', { id: t.id, favorite: true });
    // the batch carrying the favourite is emitted and then shown to the finish watch in one step
    await waitUntil(
      () =>
        h.events.some(
          (e) =>
            e.event === 'tasks.changed' &&
            (e.payload as TaskChange[]).some((c) => c.taskId === t.id && c.task?.favorite === true),
        ),
      'the favourite in a tasks.changed delivery',
      2_000,
    );
    expect(finished.filter((f) => f.id === t.id)).toHaveLength(1);
  });
});

describe('library calls', () => {
  it('lists, counts, favourites and renames', async () => {
    const page = await h.ok<TaskPage>('tasks.list', { search: 'calm', limit: 10 });
    expect(page.items.map((i) => i.id)).toContain(song.id);
    const count = await h.ok<{ total: number; byState: Record<string, number> }>('tasks.count', {
      states: ['saved'],
    });
    expect(count.total).toBeGreaterThanOrEqual(1);
    const fav = await h.ok<Task>('tasks.setFavorite', { id: song.id, favorite: true });
    expect(fav.favorite).toBe(true);
    const renamed = await h.ok<Task>('tasks.rename', { id: song.id, title: 'Evening piano' });
    expect(renamed.title).toBe('Evening piano');
    const favs = await h.ok<TaskPage>('tasks.list', { favorite: true });
    expect(favs.items.map((i) => i.id)).toContain(song.id);
  });

  it('refuses a cursor it did not make, naming it', async () => {
    const r = await h.call('tasks.list', { cursor: 'not-a-cursor' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: 'invalid-input', field: 'cursor' });
  });

  it('gives the draft of a task', async () => {
    const draft = await h.ok<DraftView>('tasks.draftOf', { id: song.id });
    expect(draft).toMatchObject({ model: SONG.model, taskType: 'txt2audio', webhook: null });
    expect(draft.input.style_prompt).toBe('calm piano');
    const missing = await h.call('tasks.draftOf', { id: 'no-such-task' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toMatchObject({ kind: 'not-found', field: 'id' });
  });

  it('exports to a folder chosen in the dialog, and stops when cancelled', async () => {
    h.dialogs.folder = null;
    expect(await h.ok('tasks.export', { ids: [song.id] })).toBeNull();
    h.dialogs.folder = join(dir, 'export-b');
    const asked = await h.ok<ExportResult>('tasks.export', { ids: [song.id] });
    expect(asked.folder).toBe(join(dir, 'export-b'));
    const folder = asked.tasks[0]?.folder ?? '';
    expect(existsSync(join(folder, 'task.json'))).toBe(true);
    expect(asked.tasks[0]?.files.some((f) => f.endsWith('.wav'))).toBe(true);
    expect(h.dialogs.asked.length).toBe(2);
    // the folder the user chose may be named again; one the page makes up may not (security review, item 4)
    const again = await h.ok<ExportResult>('tasks.export', {
      ids: [song.id],
      destDir: join(dir, 'export-b'),
    });
    expect(again.tasks[0]?.folder).not.toBe(folder);
    const madeUp = await h.call('tasks.export', { ids: [song.id], destDir: join(dir, 'export-a') });
    expect(madeUp.ok).toBe(false);
    if (!madeUp.ok) expect(madeUp.error).toMatchObject({ kind: 'not-given', field: 'destDir' });
    expect(existsSync(join(dir, 'export-a'))).toBe(false);
    const relative = await h.call('tasks.export', { ids: [song.id], destDir: 'relative/dir' });
    expect(relative.ok).toBe(false);
    if (!relative.ok) expect(relative.error).toMatchObject({ kind: 'invalid-input', field: 'destDir' });
  });

  it('uses a chosen folder only for what it was chosen for (security review, issue 17, item 4)', async () => {
    // an export destination never becomes the library folder
    const exportDir = join(dir, 'export-purpose');
    h.dialogs.folder = exportDir;
    await h.ok<ExportResult>('tasks.export', { ids: [song.id] });
    const asLibrary = await h.call('settings.update', { libraryDir: exportDir });
    expect(asLibrary.ok).toBe(false);
    if (!asLibrary.ok) {
      expect(asLibrary.error).toMatchObject({ kind: 'not-given', field: 'libraryDir' });
      expect(asLibrary.error.message).toMatch(/chosen as an export destination, not as the library folder/);
    }
    expect((await h.ok<StudioSettings>('settings.get')).libraryDir).not.toBe(exportDir);
    // nor the library folder an export destination
    const libraryDir = join(dir, 'library-purpose');
    h.dialogs.folder = libraryDir;
    await h.ok('settings.chooseLibraryDir');
    const asExport = await h.call('tasks.export', { ids: [song.id], destDir: libraryDir });
    expect(asExport.ok).toBe(false);
    if (!asExport.ok) {
      expect(asExport.error).toMatchObject({ kind: 'not-given', field: 'destDir' });
      expect(asExport.error.message).toMatch(/chosen as the library folder, not as an export destination/);
    }
    expect(existsSync(libraryDir)).toBe(false);
  });

  it('reveals and drags out the output file inside the library', async () => {
    await h.ok('tasks.reveal', { id: song.id });
    await h.ok('tasks.dragOut', { id: song.id, index: 0 });
    const [reveal, drag] = h.shell.calls.filter((c) => c.op !== 'notify');
    expect(reveal?.op).toBe('reveal');
    expect(drag?.op).toBe('startDrag');
    const file = reveal?.args[0] ?? '';
    expect(file.startsWith(h.backend.libraryDir())).toBe(true);
    expect(readFileSync(file).subarray(0, 4).toString()).toBe('RIFF');
    const saved = await h.ok<Task>('tasks.get', { id: song.id });
    const url = `/${saved.outputs[0]?.path}`;
    expect(h.backend.resolveMediaPath(url)).toBe(file);
    expect(h.backend.resolveMediaPath('/library.sqlite')).toBeNull();
    const noOutput = await h.call('tasks.dragOut', { id: song.id, index: 7 });
    expect(noOutput.ok).toBe(false);
    if (!noOutput.ok) expect(noOutput.error).toMatchObject({ kind: 'not-found', field: 'index' });
  });

  it('maps engine refusals to their kinds', async () => {
    const resubmit = await h.call('tasks.resubmit', { id: song.id });
    expect(resubmit.ok).toBe(false);
    if (!resubmit.ok) expect(resubmit.error.kind).toBe('not-allowed');
    const discard = await h.call('tasks.discard', { id: song.id });
    if (!discard.ok) expect(discard.error.kind).toBe('not-allowed');
    expect(discard.ok).toBe(false);
    const empty = await h.call('tasks.queue', { ...SONG, input: { duration: 10, style_prompt: '' } });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error).toMatchObject({ kind: 'invalid-input', field: 'style_prompt' });
  });

  it("says a field rule's refusal in the catalog's words, the ones the composer shows beside the field", async () => {
    const refusal = async (draft: { model: string; taskType: string; input: Record<string, unknown> }) => {
      const r = await h.call('tasks.queue', draft);
      expect(r.ok).toBe(false);
      return r.ok ? null : { field: r.error.field, message: r.error.message };
    };
    const flux = { model: 'flux1-schnell', taskType: 'txt2img' };
    // the same sentences as the composer's (e2e compose-live-check, compose-other-tab), after the key
    expect(await refusal({ ...SONG, input: { style_prompt: 'calm piano', duration: 500 } })).toEqual({
      field: 'duration',
      message: 'duration: Duration must be from 1 to 240 seconds',
    });
    expect(await refusal({ ...SONG, input: { duration: 10 } })).toEqual({
      field: 'style_prompt',
      message: 'style_prompt: Write a style prompt or add a reference audio',
    });
    expect(await refusal({ ...SONG, input: { ...SONG.input, lyrics: 'la '.repeat(2000) } })).toEqual({
      field: 'lyrics',
      message: 'lyrics: Lyrics are 6,000 characters; the limit is 5,000',
    });
    expect(await refusal({ ...flux, input: { prompt: 'a fox', guidance_scale: 9 } })).toEqual({
      field: 'guidance_scale',
      message: 'guidance_scale: Guidance must be from 1.5 to 5',
    });
    expect(await refusal({ ...flux, input: { prompt: 'a fox', batch_size: 1.5 } })).toEqual({
      field: 'batch_size',
      message: 'batch_size: Pictures must be a whole number',
    });
    expect(await refusal({ ...flux, input: { prompt: 'a fox', width: 1536, height: 1024 } })).toEqual({
      field: 'width',
      message: 'width: Width x height must be at most 1,048,576 pixels (1536 x 1024 is 1,572,864)',
    });
    const edit = { model: 'qwen-image', taskType: 'image-edit' };
    expect(await refusal({ ...edit, input: { image1: '', prompt: 'a hat' } })).toEqual({
      field: 'image1',
      message: 'image1: Add a picture to edit',
    });
    expect(await refusal({ ...edit, input: { image1: 'https://example.test/a.png', prompt: '  ' } })).toEqual(
      { field: 'prompt', message: 'prompt: Write a prompt that describes the edit' },
    );
  });

  it('says a missing media input in one sentence: the composer beside its slot, the engine and the CLI', async () => {
    // the composer: the From a result tab opens on Extend with no song in its slot
    const composer = formProblems('fromResult', emptyForms()).find((p) => p.field === 'source_audio');
    expect(composer?.message).toBe('Add the song to extend');
    const sentence = composer?.message ?? '';
    const engine = await h.call('tasks.queue', {
      model: 'ace-step',
      taskType: 'extend',
      input: { right_extend_duration: 10 },
    });
    expect(engine.ok ? null : engine.error.message).toBe(`audio: ${sentence}`);
    // the CLI refuses the command line before it opens a library; how to give it is a hint after the sentence
    const cli = await runCli(dir, ['create', 'extend', '--right', '10']);
    expect(cli.code).toBe(2);
    expect(cli.stderr.split('\n')[0]).toBe(
      `media-task: --audio: ${sentence} (FILE|URL or --from TASK_ID[:OUTPUT])`,
    );
  });

  it("refuses a song edit that changes nothing (it would be billed for the same song), in the composer's words", async () => {
    const edit = (change: Record<string, unknown>) => ({
      model: 'ace-step',
      taskType: 'edit',
      input: {
        audio: { $output: { taskId: song.id, index: 0 } },
        style_prompt: 'lofi piano, rain',
        lyrics: '[verse]\nsoft light',
        ...change,
      },
    });
    const before = (await h.ok<{ total: number }>('tasks.count', {})).total;
    for (const [change, words] of [
      [{}, 'Write a new style or new lyrics: the edit changes nothing yet'],
      [
        { edit_style_prompt: '  ', edit_lyrics: '' },
        'Write a new style or new lyrics: the edit changes nothing yet',
      ],
      [
        { edit_style_prompt: 'lofi piano, rain', edit_lyrics: '[Verse 1]\nsoft light' },
        'The new style and lyrics are the song’s own: write what should change',
      ],
    ] as const) {
      const r = await h.call('tasks.queue', edit(change));
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      // the composer's sentence beside the new style (songEditChangesNothing), after the key
      expect(r.error).toMatchObject({ kind: 'invalid-input', field: 'edit_style_prompt' });
      expect(r.error.message).toBe(`edit_style_prompt: ${words}`);
      expect(songEditChangesNothing(edit(change).input)).toBe(words);
    }
    expect((await h.ok<{ total: number }>('tasks.count', {})).total).toBe(before);
  });

  it('cancels a task queued while offline, then deletes it (to Recently deleted, then for good)', async () => {
    h.backend.setNetworkOnline(false);
    const t = await h.ok<Task>('tasks.queue', { ...SONG, input: { ...SONG.input, style_prompt: 'offline' } });
    expect((await h.ok<{ online: boolean }>('engine.status')).online).toBe(false);
    const cancelled = await h.ok<Task>('tasks.cancel', { id: t.id });
    expect(cancelled.state).toBe('cancelled');
    h.backend.setNetworkOnline(true);
    const moved = await h.ok<TrashOutcome>('tasks.delete', { selection: { ids: [t.id] } });
    expect(moved).toMatchObject({ moved: 1, running: 0, skipped: [] });
    expect((await h.ok<Task>('tasks.get', { id: t.id })).deletedAt).toBe(moved.deletedAt);
    expect(await h.ok('tasks.deleteForever', { selection: { ids: [t.id] } })).toEqual({
      done: 1,
      skipped: [],
    });
    expect(await h.ok('tasks.get', { id: t.id })).toBeNull();
  });

  it('deletes "all that match the filter, except these" without the window naming them, and brings them back', async () => {
    h.backend.setNetworkOnline(false);
    const queued: Task[] = [];
    for (let i = 0; i < 5; i++)
      queued.push(
        await h.ok<Task>('tasks.queue', {
          ...SONG,
          title: `Bulk ${i}`,
          input: { ...SONG.input, style_prompt: `bulk ${i}` },
        }),
      );
    const filter = { search: 'bulk' };
    expect((await h.ok<StateCounts>('tasks.count', filter)).total).toBe(5);
    const ids = await h.ok<string[]>('tasks.selectionIds', {
      selection: { filter, except: [queued[0]!.id] },
    });
    expect(ids).toEqual(
      queued
        .slice(1)
        .map((t) => t.id)
        .reverse(),
    );
    const moved = await h.ok<TrashOutcome>('tasks.delete', {
      selection: { filter, except: [queued[0]!.id] },
    });
    h.backend.setNetworkOnline(true);
    // queued ones are cancelled first: never sent
    expect(moved).toMatchObject({ moved: 4, running: 0, skipped: [] });
    expect((await h.ok<StateCounts>('tasks.count', filter)).total).toBe(1);
    expect((await h.ok<StateCounts>('tasks.count', { ...filter, trashed: true })).byState.cancelled).toBe(4);
    const listed = await h.ok<TaskPage>('tasks.list', { ...filter, trashed: true });
    expect(listed.items.map((t) => t.id).sort()).toEqual(ids.slice().sort());
    expect(await h.ok('tasks.restore', { deletedAt: moved.deletedAt })).toEqual({ done: 4, skipped: [] });
    expect((await h.ok<StateCounts>('tasks.count', filter)).total).toBe(5);
    await h.ok('tasks.delete', { selection: { filter, except: [] } });
    expect(await h.ok('tasks.restore', { selection: { ids: [queued[1]!.id] } })).toEqual({
      done: 1,
      skipped: [],
    });
    expect(await h.ok('tasks.emptyTrash', {})).toEqual({ done: 4, skipped: [] });
    expect(await h.ok('tasks.get', { id: queued[0]!.id })).toBeNull();
    expect((await h.ok<StateCounts>('tasks.count', filter)).total).toBe(1);
  });
});

describe('media checks, budget and cost', () => {
  it('checks files and URLs before queueing', async () => {
    const good = await writePng(join(dir, 'face.png'), 64, 48);
    const big = await writePng(join(dir, 'big.png'), 3000, 3000);
    // before the user gives the app the file, the page cannot have it read, nor learn that it exists
    const notGiven = await h.ok<MediaCheck>('media.check', {
      field: 'target_image',
      value: good,
      kind: 'image',
    });
    expect(notGiven).toMatchObject({ ok: false, source: null, size: null });
    expect(notGiven.message).toMatch(/^target_image: this file was not given to the app/);
    const missing = await h.ok<MediaCheck>('media.check', {
      field: 'target_image',
      value: join(dir, 'nope.png'),
      kind: 'image',
    });
    expect(missing.message).toBe(notGiven.message);
    const queued = await h.call('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'face-swap',
      input: { target_image: good, swap_image: good },
    });
    expect(queued.ok).toBe(false);
    if (!queued.ok) expect(queued.error).toMatchObject({ kind: 'not-given', field: 'target_image' });
    h.backend.grantDroppedFile(good);
    h.backend.grantDroppedFile(big);
    const ok = await h.ok<MediaCheck>('media.check', {
      field: 'target_image',
      value: good,
      kind: 'image',
      faceSwap: true,
    });
    expect(ok).toMatchObject({ ok: true, source: 'file', mime: 'image/png', width: 64, height: 48 });
    const tooBig = await h.ok<MediaCheck>('media.check', { field: 'image1', value: big, kind: 'image' });
    expect(tooBig.ok).toBe(false);
    expect(tooBig.message).toMatch(/^image1: /);
    const gif = await h.ok<MediaCheck>('media.check', {
      field: 'swap_image',
      value: 'https://example.org/a.gif',
      kind: 'image',
      faceSwap: true,
    });
    expect(gif.ok).toBe(false);
    expect(gif.message).toMatch(/^swap_image: /);
  });

  it('checks a dropped MP4 for a video field: accepted with its size, a picture or an MP4 over 720p refused', async () => {
    const clip = join(dir, 'clip.mp4');
    writeFileSync(clip, generateVideoMp4({ prompt: 'dropped', seconds: 1, width: 320, height: 176 }));
    const wide = join(dir, 'wide.mp4');
    writeFileSync(wide, generateVideoMp4({ prompt: 'wide', seconds: 0.1, width: 1920, height: 1080 }));
    const face = await writePng(join(dir, 'not-a-video.png'), 16, 16);
    for (const file of [clip, wide, face]) h.backend.grantDroppedFile(file);
    const ok = await h.ok<MediaCheck>('media.check', { field: 'video', value: clip, kind: 'video' });
    expect(ok).toMatchObject({ ok: true, source: 'file', mime: 'video/mp4', width: 320, height: 176 });
    expect(ok.size).toBe(statSync(clip).size);
    const tooWide = await h.ok<MediaCheck>('media.check', { field: 'video', value: wide, kind: 'video' });
    expect(tooWide).toMatchObject({
      ok: false,
      message: 'video: video is 1920 x 1080 px; it must fit in 1280 x 720 (720p)',
    });
    const picture = await h.ok<MediaCheck>('media.check', { field: 'video', value: face, kind: 'video' });
    expect(picture.message).toBe('video: "not-a-video.png" is a PNG image, not an MP4 video');
    // the catalog's video upscale narrows the kind's limits to 10-240 frames
    const short = join(dir, 'short.mp4');
    writeFileSync(short, generateVideoMp4({ prompt: 'short', seconds: 0.5, fps: 10 }));
    h.backend.grantDroppedFile(short);
    const queued = await h.call('tasks.queue', {
      model: 'video-toolkit',
      taskType: 'upscale',
      input: { video: short },
    });
    expect(queued.ok).toBe(false);
    if (!queued.ok) expect(queued.error.message).toBe('video: video has 5 frames; at least 10');
  });

  it('refuses from the header a picture claiming 99,000,000 x 1 px (file or Base64), and a task with it', async () => {
    const wide = join(dir, 'wide.png');
    writeFileSync(wide, hugePng(99_000_000, 1));
    h.backend.grantDroppedFile(wide);
    const file = await h.ok<MediaCheck>('media.check', {
      field: 'target_image',
      value: wide,
      kind: 'image',
      faceSwap: true,
    });
    expect(file).toMatchObject({
      ok: false,
      message: 'target_image: image is 99000000 x 1 px; each side must be under 2048 px',
    });
    const webp = `data:image/webp;base64,${hugeWebp(16_777_216, 1).toString('base64')}`;
    const inline = await h.ok<MediaCheck>('media.check', { field: 'image1', value: webp, kind: 'image' });
    expect(inline).toMatchObject({
      ok: false,
      message: 'image1: image is 16777216 x 1 px; each side must be under 2048 px',
    });
    const queued = await h.call('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'face-swap',
      input: { target_image: wide, swap_image: wide },
    });
    expect(queued.ok).toBe(false);
    if (!queued.ok)
      expect(queued.error.message).toBe(
        'target_image: image is 99000000 x 1 px; each side must be under 2048 px',
      );
  });

  it('refuses a task over the budget and reports the cost', async () => {
    const settings = await h.ok<StudioSettings>('settings.update', { budgetMicros: 1 });
    expect(settings.budgetMicros).toBe(1);
    const r = await h.call('tasks.queue', SONG);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('budget');
    const cost = await h.ok<{ budgetMicros: number | null; tasks: number }>('cost.summary');
    expect(cost.budgetMicros).toBe(1);
    expect(cost.tasks).toBeGreaterThanOrEqual(2);
    await h.ok('settings.update', { budgetMicros: null });
  });

  it('forwards menu commands as events', () => {
    h.backend.emitMenuCommand('new-song');
    expect(h.events.some((e) => e.event === 'menu.command' && e.payload === 'new-song')).toBe(true);
  });

  it('never returns a stack', () => {
    expect(JSON.stringify(h.results)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  });
});
