/**
 * Keeping going from a result on the command line (its `main` called in this process:
 * `callCliMain`; the executable's own exit codes are run as a process in media-task-cli.test.ts)
 * against the real sandbox and a real library folder: extend, song-edit and remix a saved song by
 * `--from`, upscale and remove the background of a face-swap result, a 12-photo face-swap batch
 * from a folder, a 4-seed image-edit variation, lineage in `get --json`, `import-file` of an
 * exported task.json, and `recall` / `import-file` of a result file (its embedded parameters or
 * its checksum). Every task's JSON carries parentId, parentOutput and batchId.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recallLines } from '../../src/cli/recall-command.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import type {
  FileRecall,
  Task,
  TaskFileInput,
  TaskFilePreview,
  TaskLineage,
} from '../../src/shared/index.ts';
import { API_KEY, openEngine, WAV } from '../engine/engine-fixtures.ts';
import { recallRecord, writePicture, writePngWithRecord } from '../support/pictures.ts';
import { type CliResult, callCliMain, closeCliRig, openCliRig } from './cli-runner.ts';

let dir: string;
let sb: Sandbox;

beforeAll(async () => {
  ({ dir, sb } = await openCliRig('mts-cli-lineage-'));
});
afterAll(() => closeCliRig({ dir, sb }));

const lib = () => join(dir, 'lib');

/** `media-task --library lib ...args` with the sandbox's address and key (callCliMain: no process launch). */
function run(args: string[]): Promise<CliResult> {
  return callCliMain(dir, ['--library', lib(), ...args], {
    MEDIA_TASK_API_KEY: API_KEY,
    MEDIA_TASK_BASE_URL: sb.url,
  });
}

/** The tasks (and batch id) a `--json` create printed; fails with its stderr when it did not exit 0. */
async function created(args: string[]): Promise<{ tasks: Task[]; batchId?: string }> {
  const r = await run(['--json', 'create', ...args, '--wait']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function lineageOf(id: string): Promise<TaskLineage> {
  const r = await run(['--json', 'get', id]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).lineage;
}

describe('media-task create from a result', () => {
  let song: Task;

  beforeAll(async () => {
    writeFileSync(join(dir, 'lyrics.txt'), '[verse]\nheave away');
    writeFileSync(join(dir, 'more.txt'), '[chorus]\nhome again');
    [song] = (
      await created(['audio', '--style', 'sea shanty', '--lyrics-file', 'lyrics.txt', '--duration', '6'])
    ).tasks as [Task];
  });

  it('extends a saved song by --from: its URL is sent, its style goes on, and lineage reads both ways', async () => {
    const [ext] = (await created(['extend', '--from', song.id, '--right', '4', '--lyrics-file', 'more.txt']))
      .tasks as [Task];
    expect(ext).toMatchObject({
      taskType: 'extend',
      state: 'saved',
      parentId: song.id,
      parentOutput: 0,
      batchId: null,
    });
    expect(ext.request.input).toMatchObject({
      audio: song.outputs[0]?.url,
      right_extend_duration: 4,
      left_extend_duration: 0,
      lyrics: '[chorus]\nhome again',
      style_prompt: 'sea shanty',
    });
    expect((await lineageOf(ext.id)).madeFrom.map((i) => i.id)).toEqual([song.id]);
    expect((await lineageOf(song.id)).madeInto).toEqual([
      expect.objectContaining({ id: ext.id, taskType: 'extend', parentOutput: 0 }),
    ]);
    const line = await run(['get', ext.id]);
    expect(line.stdout).toContain(`from=${song.id}:0`);
    // recall of the extend's own file (by its checksum): the song it was given, as its address
    const recalled = await run(['recall', join(lib(), ext.outputs[0]?.path ?? '')]);
    expect(recalled.stdout).toContain(
      `  audio: the address ${song.outputs[0]?.url} (the service fetches it)\n`,
    );
  });

  it('edits the song (its words as it was made, the new words given) and remixes it', async () => {
    const [edit] = (await created(['song-edit', '--from', `${song.id}:0`, '--edit-lyrics-file', 'more.txt']))
      .tasks as [Task];
    expect(edit).toMatchObject({ taskType: 'edit', state: 'saved', parentId: song.id, parentOutput: 0 });
    expect(edit.request.input).toMatchObject({
      style_prompt: 'sea shanty',
      lyrics: '[verse]\nheave away',
      edit_lyrics: '[chorus]\nhome again',
    });
    const [remix] = (await created(['remix', '--from', song.remoteId ?? '', '--style', 'slow jazz']))
      .tasks as [Task];
    expect(remix).toMatchObject({
      taskType: 'audio2audio',
      state: 'saved',
      parentId: song.id,
      parentOutput: 0,
    });
    expect(remix.request.input.style_audio).toBe(song.outputs[0]?.url);
  });

  it('queues lyrics pasted from Suno with the service markers, and says what it changed', async () => {
    writeFileSync(
      join(dir, 'suno.txt'),
      '[Intro]\n[Verse 1]\nrow on\n[Pre-Chorus]\nhold\n[Outro]\n[Male Vocal]',
    );
    const r = await run(['--json', 'create', 'audio', '--style', 'sea shanty', '--lyrics-file', 'suno.txt']);
    expect(r.code, r.stderr).toBe(0);
    const [task] = JSON.parse(r.stdout).tasks as [Task];
    expect(task.request.input.lyrics).toBe('[inst]\n[verse]\nrow on\n[verse]\nhold\n[inst]\n[Male Vocal]');
    expect(r.stderr).toContain(
      "lyrics: sent with the service's markers: [Intro] → [inst], [Verse 1] → [verse], [Pre-Chorus] → [verse], [Outro] → [inst]",
    );
    expect(r.stderr).toContain(
      'lyrics line 7: [Male Vocal] is not a marker the service knows; it is sent as written',
    );
  });

  it('refuses an unknown --from and an extend of nothing, with exit code 2', async () => {
    const unknown = await run(['create', 'extend', '--from', 'nope', '--right', '3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no task "nope" in the library');
    const nothing = await run(['create', 'extend', '--from', song.id]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(
      '--right S (seconds after the song) or --left S (before it) is required',
    );
    // a song edit with nothing new would be billed for the same song
    const same = await run(['create', 'song-edit', '--from', song.id, '--edit-style', 'sea shanty']);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain(
      "song-edit changes nothing: --edit-style is the song's own style and no new words were given",
    );
    const none = await run(['create', 'song-edit', '--from', song.id]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      '--edit-style TEXT (the new style) or --edit-lyrics-file F (the new words)',
    );
    const both = await run(['create', 'upscale', '--from', song.id, '--image', 'x.png']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --image or --from, not both');
  });
});

describe('media-task batches', () => {
  it('swaps one face onto 12 photos of a folder as one batch, then upscales and cuts out a result', async () => {
    const photos = join(dir, 'photos');
    mkdirSync(photos);
    for (let i = 0; i < 12; i++) {
      await writePicture(join(photos, `photo-${String(i).padStart(2, '0')}.jpg`), 120 + i * 4, 90, 'jpeg');
    }
    writeFileSync(join(photos, 'notes.txt'), 'not a picture');
    await writePicture(join(dir, 'face.png'), 64, 64, 'png', { r: 220, g: 150, b: 120 });
    const batch = await created(['face-swap', '--swap', 'face.png', '--target-dir', 'photos']);
    expect(batch.batchId).toEqual(expect.any(String));
    expect(batch.tasks).toHaveLength(12);
    expect(new Set(batch.tasks.map((t) => t.batchId))).toEqual(new Set([batch.batchId]));
    expect(batch.tasks.every((t) => t.state === 'saved' && t.parentId === null)).toBe(true);
    expect(batch.tasks.map((t) => t.title)).toContain('Face swap: photo-11.jpg');

    const swap = batch.tasks[3] as Task;
    const [up] = (await created(['upscale', '--from', `${swap.id}:0`, '--scale', '2'])).tasks as [Task];
    expect(up).toMatchObject({
      taskType: 'upscale',
      state: 'saved',
      parentId: swap.id,
      parentOutput: 0,
      batchId: null,
    });
    expect(up.outputs[0]?.width).toBe((swap.outputs[0]?.width ?? 0) * 2);
    const [cut] = (await created(['background-remove', '--from', up.id])).tasks as [Task];
    expect(cut).toMatchObject({ state: 'saved', parentId: up.id, parentOutput: 0 });
    expect((await lineageOf(cut.id)).madeFrom.map((i) => i.id)).toEqual([up.id, swap.id]);
  });

  it('queues a 4-seed image-edit variation as one batch (seeds differ by 1)', async () => {
    await writePicture(join(dir, 'room.png'), 96, 64);
    const batch = await created([
      'image-edit',
      '--image1',
      'room.png',
      '--prompt',
      'a lamp in the corner',
      '--seed',
      '50',
      '--variants',
      '4',
    ]);
    expect(batch.tasks.map((t) => t.request.input.seed)).toEqual([50, 51, 52, 53]);
    expect(new Set(batch.tasks.map((t) => t.batchId))).toEqual(new Set([batch.batchId]));
    expect(batch.tasks.every((t) => t.state === 'saved')).toBe(true);
    const human = await run([
      'create',
      'audio',
      '--style',
      'lullaby',
      '--duration',
      '5',
      '--variants',
      '2',
      '--wait',
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^batch [0-9a-f-]{36}: 2 tasks$/m);
  });
});

describe('media-task import-file', () => {
  it('queues again an exported task from its task.json and the export folder’s files', async () => {
    await writePicture(join(dir, 'target.png'), 100, 80);
    await writePicture(join(dir, 'me.jpg'), 60, 60, 'jpeg');
    const [task] = (await created(['face-swap', '--target', 'target.png', '--swap', 'me.jpg'])).tasks as [
      Task,
    ];
    const exported = await run(['--json', 'export', join(dir, 'out'), task.id]);
    expect(exported.code, exported.stderr).toBe(0);
    const folder = JSON.parse(exported.stdout).tasks[0].folder as string;
    // recall of the exported picture: each input in words, never the record's {"$file": …}
    const result = readdirSync(folder).find((f) => f.endsWith('.png') && !f.startsWith('input-'));
    const recalled = await run(['recall', join(folder, result ?? '')]);
    expect(recalled.stdout).toMatch(
      /\n {2}target_image: target\.png from this library \([\d.]+ (bytes|KB)\)\n/,
    );
    expect(recalled.stdout).toMatch(/\n {2}swap_image: me\.jpg from this library \([\d.]+ (bytes|KB)\)\n/);
    expect(recalled.stdout).not.toContain('$file');
    // the summary first: nothing queued without --yes
    const summary = await run(['import-file', join(folder, 'task.json')]);
    expect(summary.code).toBe(2);
    expect(summary.stdout).toContain('target_image: input-target_image.png from the export folder');
    expect(summary.stderr).toContain('run the same command with --yes to queue it');
    const imported = await run(['--json', 'import-file', join(folder, 'task.json'), '--yes', '--wait']);
    expect(imported.code, imported.stderr).toBe(0);
    const [again] = JSON.parse(imported.stdout).tasks as [Task];
    expect(again).toMatchObject({
      state: 'saved',
      taskType: 'face-swap',
      parentId: task.id,
      parentOutput: null,
    });
    expect(again.inputs.map((i) => i.sha256)).toEqual(task.inputs.map((i) => i.sha256));
    const missing = await run(['import-file', join(dir, 'nothing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nothing.json: cannot be read (the file is not there)');
    // the library's copy of an input gone: recall still shows the task, and says what to give
    const face = task.inputs.find((i) => i.field === 'swap_image');
    rmSync(join(lib(), face?.value ?? 'no-such-input'));
    const gone = await run(['recall', join(folder, result ?? '')]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toContain(
      `  swap_image: needs a file you pick (its value in ${result} was me.jpg of this library, which is missing from the library folder)\n`,
    );
    expect(gone.stdout).toContain(
      '  to queue it again, give swap_image: media-task import-file FILE swap_image=FILE',
    );
  });
});

describe('media-task import-file of a task.json someone else wrote', () => {
  it('reads no file outside the export folder, shows the webhook, and queues nothing without --yes and picked files', async () => {
    const elsewhere = join(dir, 'some', 'other', 'dir');
    const folder = join(dir, 'downloads', 'shared-export');
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(folder, { recursive: true });
    const secret = await writePicture(join(elsewhere, 'secret.png'), 70, 50);
    writeFileSync(join(dir, 'x.wav'), WAV);
    writeFileSync(
      join(folder, 'task.json'),
      JSON.stringify({
        title: 'Looks harmless',
        request: {
          model: 'service/image-toolkit',
          task_type: 'face-swap',
          input: { target_image: secret, swap_image: '../../x.wav' },
          config: { webhook_config: { endpoint: 'https://collector.example/hook?id=7', secret: 's' } },
        },
      }),
    );
    const sentBefore = sb.ledger().length;
    const file = join(folder, 'task.json');

    const summary = await run(['import-file', file, '--wait']);
    expect(summary.code).toBe(2);
    expect(summary.stdout).toContain(`${file}: Face swap “Looks harmless”`);
    expect(summary.stdout).toContain('model: Qubico/image-toolkit (task type face-swap)');
    expect(summary.stdout).toContain(
      `target_image: needs a file you pick (its value in the task.json names ${JSON.stringify(secret)}, outside the export folder`,
    );
    expect(summary.stdout).toContain(
      'swap_image: needs a file you pick (its value in the task.json names "../../x.wav"',
    );
    expect(summary.stdout).toContain(
      'webhook: https://collector.example/hook?id=7 (with a secret): not sent unless --keep-webhook is given',
    );
    expect(summary.stderr).toContain(
      'media-task: nothing was queued: read the summary above, then run the same command with --yes',
    );

    // --yes alone: the files the import may not read are still missing
    const unpicked = await run(['import-file', file, '--yes', '--wait']);
    expect(unpicked.code).toBe(2);
    expect(unpicked.stderr).toContain(
      'nothing was queued: target_image, swap_image need a file you pick; give it as target_image=FILE swap_image=FILE',
    );
    expect(sb.ledger().length).toBe(sentBefore);

    // the user's own files and word: sent, without the file's webhook
    await writePicture(join(dir, 'mine.png'), 90, 60);
    await writePicture(join(dir, 'face-mine.png'), 50, 50);
    const r = await run([
      '--json',
      'import-file',
      file,
      'target_image=mine.png',
      'swap_image=face-mine.png',
      '--yes',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [task] = JSON.parse(r.stdout).tasks as [Task];
    expect(task.state).toBe('saved');
    const sent = sb.ledger().filter((e) => e.taskId === task.remoteId);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]?.body)).not.toContain('collector.example');
    // that one task is all the runs queued
    const listed = await run(['--json', 'list', '--search', 'harmless']);
    expect(JSON.parse(listed.stdout).items.map((t: Task) => t.id)).toEqual([task.id]);
  });
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('media-task recall and import-file of a result file', () => {
  it('exports a picture with its parameters inside, recalls it, queues it again, and records it as the parent of an upscale', async () => {
    const [task] = (await created(['flux', '--prompt', 'a red kite over the dunes'])).tasks as [Task];
    const original = join(lib(), task.outputs[0]?.path ?? '');
    const before = sha256(original);
    const exported = await run(['--json', 'export', join(dir, 'recall-out'), task.id]);
    expect(exported.code, exported.stderr).toBe(0);
    const folder = JSON.parse(exported.stdout).tasks[0].folder as string;
    const png = join(
      folder,
      readdirSync(folder).find((f) => f.endsWith('.png') && !f.startsWith('input-')) ?? '',
    );
    // the library's file is byte for byte what it was; the export's copy carries the parameters
    expect(sha256(original)).toBe(before);
    expect(before).toBe(task.outputs[0]?.sha256);
    expect(sha256(png)).not.toBe(before);

    const shown = await run(['recall', png]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `from: the PNG text chunk of ${png.split('/').pop()} (task “${task.title}” in this library)`,
    );
    expect(shown.stdout).toContain('prompt: a red kite over the dunes');
    const json = JSON.parse((await run(['--json', 'recall', png])).stdout).recall;
    expect(json).toMatchObject({
      origin: 'embedded',
      task: { id: task.id },
      outputIndex: 0,
      taskType: 'txt2img',
      draft: { input: { prompt: 'a red kite over the dunes' } },
    });
    expect(json.appVersion).toMatch(/^\d+\.\d+\.\d+/);
    // the library's own file has none embedded: found by its checksum
    const byChecksum = JSON.parse((await run(['--json', 'recall', original])).stdout).recall;
    expect(byChecksum).toMatchObject({ origin: 'library', task: { id: task.id }, outputIndex: 0 });
    expect(byChecksum.source).toBe(`output 1 of “${task.title}” in this library (same checksum)`);

    // while the app has the library open (its engine holds the lock), recall still answers: the
    // embedded parameters need no library, a checksum only a read (review s7, finding 6); a
    // command that changes the library still waits for the app to be closed (exit 5)
    const app = await openEngine(lib(), null);
    try {
      const whileOpen = await run(['recall', png]);
      expect(whileOpen.code, whileOpen.stderr).toBe(0);
      expect(whileOpen.stdout).toContain('prompt: a red kite over the dunes');
      const read = await run(['--json', 'recall', original]);
      expect(read.code, read.stderr).toBe(0);
      expect(JSON.parse(read.stdout).recall).toMatchObject({ origin: 'library', task: { id: task.id } });
      const busy = await run(['delete', task.id]);
      expect(busy.code).toBe(5);
      expect(busy.stderr).toContain('is already open in another process');
    } finally {
      await app.close();
    }

    // a picture the app did not make, and one whose parameters are not JSON: exit 2, in words
    await writePicture(join(dir, 'stranger.png'), 20, 20);
    const stranger = await run(['recall', join(dir, 'stranger.png')]);
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain(
      'stranger.png: this picture has no Media Task Studio parameters in it and no result in this library has its checksum, so it cannot be recalled or queued again: only a file the app exported or saved can',
    );
    // a text file, and a .png of text: said what they are, never a JSON parser's words
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const notes = await run(['recall', join(dir, 'notes.txt')]);
    expect([notes.code, notes.stderr]).toEqual([
      2,
      'media-task: notes.txt is a text file, not a picture, sound, video or 3D model the app made, nor a task.json it exported\n',
    ]);
    writeFileSync(join(dir, 'fake.png'), 'this is not');
    const fake = await run(['import-file', join(dir, 'fake.png')]);
    expect([fake.code, fake.stderr]).toEqual([
      2,
      'media-task: fake.png is not a PNG image: its content is text, not a picture\n',
    ]);
    const bytes = readFileSync(join(dir, 'stranger.png'));
    await writePngWithRecord(join(dir, 'broken.png'), bytes, '{"id": oops');
    const hostile = await run(['recall', join(dir, 'broken.png')]);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toMatch(
      /broken\.png: this picture has no Media Task Studio parameters .*; its PNG text chunk is not JSON \(/,
    );

    // import-file takes the picture as it takes a task.json: a summary, then --yes
    const summary = await run(['import-file', png]);
    expect(summary.code).toBe(2);
    expect(summary.stdout).toContain('from: the PNG text chunk of');
    expect(summary.stdout).toContain(`re-run of: “${task.title}” (${task.id})`);
    const imported = await run(['--json', 'import-file', png, '--yes', '--wait']);
    expect(imported.code, imported.stderr).toBe(0);
    const [again] = JSON.parse(imported.stdout).tasks as [Task];
    expect(again).toMatchObject({
      state: 'saved',
      taskType: 'txt2img',
      parentId: task.id,
      parentOutput: null,
    });
    expect(again.request.input.prompt).toBe('a red kite over the dunes');

    // the exported picture given as an input: the upscale is made from that task's output
    const [up] = (await created(['upscale', '--image', png, '--scale', '2'])).tasks as [Task];
    expect(up).toMatchObject({ state: 'saved', parentId: task.id, parentOutput: 0 });
  });

  it('a hostile picture: its title forges no line of the summary, and it names no file beside it, no path, no Base64, no webhook', async () => {
    const folder = join(dir, 'downloads');
    mkdirSync(folder, { recursive: true });
    const secret = await writePicture(join(folder, 'passport.png'), 40, 30);
    const bytes = readFileSync(secret);
    const request = {
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      input: {
        target_image: 'passport.png',
        swap_image: `data:image/png;base64,${bytes.toString('base64')}`,
      },
      config: { webhook_config: { endpoint: 'https://collector.example/h', secret: 's' } },
    };
    const record = recallRecord(request, {
      id: 'not-in-this-library',
      title: 'Harbour\n  price: $0.00 (free)\n  webhook: none',
    });
    const png = await writePngWithRecord(join(folder, 'harbour.png'), bytes, JSON.stringify(record));
    for (const args of [
      ['recall', png],
      ['import-file', png],
    ]) {
      const r = await run(args);
      // one line per thing said: the title cannot add a price or a webhook of its own
      expect(r.stdout).toContain('“Harbour   price: $0.00 (free)   webhook: none”');
      expect(r.stdout.split('\n').filter((l) => /^\s*(price|webhook):/.test(l))).toEqual(
        args[0] === 'recall' ? [] : ['  price: $0.01 ($0.01 per generation)'],
      );
    }
    const summary = await run(['import-file', png]);
    // as the window: a result file's media only as a web address (or the export's own input copy)
    expect(summary.stdout).toContain(
      'target_image: needs a file you pick (its value in harbour.png names "passport.png"; a result file gives a file only as its export’s own input copy or a web address)',
    );
    expect(summary.stdout).toMatch(
      /swap_image: needs a file you pick \(its value in harbour\.png is Base64;/,
    );
    const sentBefore = sb.ledger().length;
    const refused = await run(['import-file', png, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('target_image, swap_image need a file you pick');
    expect(sb.ledger().length).toBe(sentBefore);
  });

  it('recall of a picture another library exported says in words where each input comes from; --json keeps the record', async () => {
    const folder = join(dir, 'from-a-friend');
    mkdirSync(folder, { recursive: true });
    await writePicture(join(folder, 'input-target_image.png'), 60, 40);
    const bytes = readFileSync(await writePicture(join(dir, 'plain.png'), 40, 30));
    const request = {
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      input: { target_image: { $file: 'inputs/a.png' }, swap_image: { $file: 'inputs/b.png' } },
    };
    const record = recallRecord(request, { id: 'elsewhere-1', title: 'Kite' });
    const png = await writePngWithRecord(join(folder, 'kite.png'), bytes, JSON.stringify(record));
    const shown = await run(['recall', png]);
    expect(shown.code, shown.stderr).toBe(0);
    // the copy beside the export, the one that is missing, and how to give it
    expect(shown.stdout.split('\n').slice(3)).toEqual([
      expect.stringMatching(
        /^ {2}target_image: input-target_image\.png from the export folder \([\d.]+ (bytes|KB)\)$/,
      ),
      '  swap_image: needs a file you pick (its value in kite.png was a file of the library, and the export folder has no input-swap_image file)',
      '  to queue it again, give swap_image: media-task import-file FILE swap_image=FILE',
      '',
    ]);
    // --json as documented: the record's parameters as written
    const json = JSON.parse((await run(['--json', 'recall', png])).stdout).recall;
    expect(json.parameters).toEqual(request.input);
    expect(json.missingMedia).toEqual(['target_image', 'swap_image']);
  });
});

describe('media-task recall in words, for each kind of file and input', () => {
  const recallOf = (fileName: string, taskLabel: string, parameters: Record<string, unknown>) =>
    ({
      fileName,
      origin: 'embedded',
      source: `the record of ${fileName}`,
      task: null,
      outputIndex: 0,
      model: 'service/m',
      taskType: 't',
      taskLabel,
      title: 'Harbour',
      appVersion: null,
      parameters,
      draft: { model: 'm', taskType: 't', input: {}, webhook: null, title: 'Harbour' },
      missingMedia: [],
    }) satisfies FileRecall;
  const previewOf = (recall: FileRecall, inputs: TaskFileInput[]) =>
    ({ recall, inputs }) as unknown as TaskFilePreview;
  const file = { $file: 'inputs/x' };

  it('a picture, a sound, a video and a 3D model: their inputs as names, addresses or what to give, never {"$file": …}', () => {
    const cases: [FileRecall, TaskFileInput[], string[]][] = [
      [
        recallOf('swap.png', 'Face swap', { target_image: file, swap_image: 'https://cdn.example/me.jpg' }),
        [
          {
            field: 'target_image',
            kind: 'image',
            required: true,
            source: 'library-file',
            name: 'me.png',
            size: 2100,
          },
          {
            field: 'swap_image',
            kind: 'image',
            required: true,
            source: 'url',
            url: 'https://cdn.example/me.jpg',
          },
        ],
        [
          '  target_image: me.png from this library (2.1 KB)',
          '  swap_image: the address https://cdn.example/me.jpg (the service fetches it)',
        ],
      ],
      [
        recallOf('song.wav', 'Audio extend', { audio: file, right_extend_duration: 10 }),
        [
          {
            field: 'audio',
            kind: 'audio',
            required: true,
            source: 'export-file',
            name: 'input-audio.mp3',
            size: 48_000,
          },
        ],
        ['  audio: input-audio.mp3 from the export folder (48.0 KB)', '  right_extend_duration: 10'],
      ],
      [
        recallOf('clip.mp4', 'Upscale video', { video: file }),
        [
          {
            field: 'video',
            kind: 'video',
            required: true,
            source: 'needs-file',
            why: 'was a file of the library, and the export folder has no input-video file',
          },
        ],
        [
          '  video: needs a file you pick (its value in clip.mp4 was a file of the library, and the export folder has no input-video file)',
          '  to queue it again, give video: media-task import-file FILE video=FILE',
        ],
      ],
      // a field the reading does not describe (not a media field of the entry) still in words
      [
        recallOf('kite.glb', 'Image to 3D', { image: file }),
        [],
        ['  image: a file of the library that made it'],
      ],
    ];
    for (const [recall, inputs, expected] of cases) {
      const lines = recallLines(previewOf(recall, inputs), recall);
      expect(lines[0]).toBe(`${recall.fileName}: ${recall.taskLabel} “Harbour”`);
      expect(lines.slice(3)).toEqual(expected);
      expect(lines.join('\n')).not.toContain('$file');
    }
  });
});
