/**
 * The `media-task` command line against the real sandbox and a real library folder: its `main`
 * called in this process (`callCliMain`), and run as a user would (`runCli`, a child process) for
 * what the executable itself does: its exit codes 2 to 5 (and the JSON error), and `watch
 * --until-idle` ending the process. (A launch per command made this file take 21 s of a fresh
 * clone's run.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLibraryLock } from '../../src/core/library/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { estimateCost, formatUsd } from '../../src/shared/index.ts';
import { API_KEY } from '../engine/engine-fixtures.ts';
import { writePicture } from '../support/pictures.ts';
import { type CliResult, callCliMain, closeCliRig, openCliRig, runCli } from './cli-runner.ts';

let dir: string;
let sb: Sandbox;

beforeAll(async () => {
  ({ dir, sb } = await openCliRig('mts-cli-'));
});
afterAll(() => closeCliRig({ dir, sb }));

function run(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return callCliMain(dir, args, env);
}

/** `run` as a child process. */
function runProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(dir, args, env);
}

describe('media-task', () => {
  const lib = () => join(dir, 'lib');
  const service = () => ({ MEDIA_TASK_API_KEY: API_KEY, MEDIA_TASK_BASE_URL: sb.url });

  it('creates a song and waits until it is saved, then lists, gets and exports it', async () => {
    writeFileSync(join(dir, 'lyrics.txt'), '[verse]\nneon nights\n[chorus]\nwe run');
    const created = await run(
      [
        '--library',
        lib(),
        '--json',
        'create',
        'audio',
        '--style',
        'synthwave',
        '--lyrics-file',
        'lyrics.txt',
        '--duration',
        '6',
        '--wait',
      ],
      service(),
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const task = JSON.parse(created.stdout).tasks[0];
    expect(task.state).toBe('saved');
    expect(task.request.input.lyrics).toContain('neon nights');
    expect(existsSync(join(lib(), task.outputs[0].path))).toBe(true);

    const listed = await run(['--library', lib(), 'list', '--search', 'synth', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).items.map((t: { id: string }) => t.id)).toEqual([task.id]);

    const byRemote = await run(['--library', lib(), 'get', task.remoteId]);
    expect(byRemote.code).toBe(0);
    expect(byRemote.stdout).toContain(task.id);
    expect(byRemote.stdout).toContain('saved');

    const exported = await run(['--library', lib(), 'export', join(dir, 'out'), task.id]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^exported 1 task to /);
  });

  it('creates a face swap from two local files with the in-process sandbox', async () => {
    await writePicture(join(dir, 'me.jpg'), 200, 160, 'jpeg');
    await writePicture(join(dir, 'face.png'), 80, 80, 'png');
    const r = await run([
      '--library',
      join(dir, 'lib2'),
      '--sandbox',
      '--time-scale',
      '0.01',
      'create',
      'face-swap',
      '--target',
      'me.jpg',
      '--swap',
      'face.png',
      '--wait',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/saved\s+face-swap/);
  });

  it.skipIf(process.platform !== 'linux')('keeps --sandbox results in the demo library', async () => {
    const home = { XDG_CONFIG_HOME: join(dir, 'xdg'), MEDIA_TASK_LIBRARY: '' };
    const demo = await run(
      [
        '--sandbox',
        '--time-scale',
        '0.01',
        'create',
        'audio',
        '--style',
        'demo only',
        '--duration',
        '5',
        '--wait',
      ],
      home,
    );
    expect(demo.code).toBe(0);
    expect(existsSync(join(dir, 'xdg', 'Media Task Studio', 'demo-library', 'library.sqlite'))).toBe(true);
    const paid = await run(['--json', 'list'], home);
    expect(JSON.parse(paid.stdout).items).toEqual([]);
    const listed = await run(['--sandbox', '--json', 'list', '--search', 'demo'], home);
    expect(JSON.parse(listed.stdout).items).toHaveLength(1);
  });

  it('queues locally without a service and says so', async () => {
    const r = await run([
      '--library',
      join(dir, 'lib3'),
      'create',
      'audio',
      '--style',
      'ambient',
      '--duration',
      '5',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/queued/);
    expect(r.stderr).toMatch(/queued locally/);
  });

  it('watch --until-idle sends what was queued offline, then exits', async () => {
    const libDir = join(dir, 'lib-watch');
    const queued = await run([
      '--library',
      libDir,
      '--json',
      'create',
      'audio',
      '--style',
      'offline song',
      '--duration',
      '5',
    ]);
    expect(queued.code).toBe(0);
    const id = JSON.parse(queued.stdout).tasks[0].id;
    const before = sb.ledger().length;
    const watched = await runProcess(['--library', libDir, '--json', 'watch', '--until-idle'], service());
    expect(watched.code).toBe(0);
    const lines = watched.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const states = lines.filter((l) => l.event === 'task' && l.task.id === id).map((l) => l.task.state);
    expect(states.at(-1)).toBe('saved');
    expect(sb.ledger().length).toBe(before + 1);
  });

  it('exit code 2 for bad input, naming the field, and nothing is queued', async () => {
    await writePicture(join(dir, 'huge.png'), 3000, 3000);
    const r = await runProcess(
      ['--library', join(dir, 'lib4'), 'create', 'face-swap', '--target', 'huge.png', '--swap', 'huge.png'],
      service(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/target_image.*3000 x 3000/);
    const unknown = await run(['--library', join(dir, 'lib4'), 'create', 'audio', '--styel', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option --styel/);
    const asJson = await runProcess([
      '--library',
      join(dir, 'lib4'),
      '--json',
      'create',
      'audio',
      '--styel',
      'x',
    ]);
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stderr)).toEqual({ error: { message: 'unknown option --styel', exitCode: 2 } });
    const listed = await run(['--library', join(dir, 'lib4'), 'list', '--json']);
    expect(JSON.parse(listed.stdout).items).toEqual([]);
    expect(sb.ledger().some((e) => JSON.stringify(e.body).includes('huge'))).toBe(false);
  });

  it('lists in any of the library orders; an unknown order is refused with the list of orders', async () => {
    const library = join(dir, 'lib-orders');
    for (const title of ['banana', 'Apple', 'cherry']) {
      const queued = await run([
        '--library',
        library,
        'create',
        'audio',
        '--style',
        'x',
        '--duration',
        '5',
        '--title',
        title,
      ]);
      expect(queued.code).toBe(0);
    }
    const titles = async (...order: string[]) => {
      const r = await run(['--library', library, '--json', 'list', ...order]);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).items.map((t: { title: string }) => t.title);
    };
    expect(await titles()).toEqual(['cherry', 'Apple', 'banana']);
    expect(await titles('--order', 'oldest')).toEqual(['banana', 'Apple', 'cherry']);
    expect(await titles('--order', 'title')).toEqual(['Apple', 'banana', 'cherry']);
    const bad = await run(['--library', library, 'list', '--order', 'cheapest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--order: unknown order "cheapest" \(one of newest, oldest, starredFirst, title/,
    );
    const both = await run(['--library', library, 'list', '--order', 'title', '--starred-first']);
    expect(both.code).toBe(2);
  });

  it('exit code 3 when the service refuses the key, without printing the key', async () => {
    const r = await runProcess(
      ['--library', join(dir, 'lib5'), 'create', 'audio', '--style', 'x', '--duration', '5', '--wait'],
      {
        MEDIA_TASK_API_KEY: 'not-the-right-key-123',
        MEDIA_TASK_BASE_URL: sb.url,
      },
    );
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).not.toContain('not-the-right-key-123');
  });

  it('exit code 4 when the service fails the task', async () => {
    sb.setFaults({ taskFailureRate: 1 });
    try {
      const r = await runProcess(
        ['--library', join(dir, 'lib6'), 'create', 'audio', '--style', 'x', '--duration', '5', '--wait'],
        service(),
      );
      expect(r.code).toBe(4);
      expect(r.stdout).toMatch(/failed/);
    } finally {
      sb.setFaults({});
    }
  });

  it('exit code 5 when another process has the library open', async () => {
    const libDir = join(dir, 'lib7');
    const first = await run(['--library', libDir, 'list']);
    expect(first.code).toBe(0);
    // a live process holds the lock: this test process. A command that changes the library waits
    // for it (list only reads: it answers beside it, cli-reading.test.ts)
    const lock = acquireLibraryLock(libDir);
    try {
      const second = await runProcess(['--library', libDir, 'board', 'add', 'Keepers', 'some-task']);
      expect(second.code).toBe(5);
      expect(second.stderr).toMatch(/already open in another process \(pid \d+\)/);
    } finally {
      lock.release();
    }
    expect((await run(['--library', libDir, 'list'])).code).toBe(0);
  });

  it('prompt lists: one task per line and per alternative, the count and total first, queued only with --yes', async () => {
    const library = join(dir, 'lib-prompt-list');
    writeFileSync(join(dir, 'prompts.txt'), 'a red fox\n\n  a blue {whale|shark}  \n');
    const creates = () =>
      sb
        .ledger()
        .filter((e) => String((e.body as { input?: { prompt?: unknown } }).input?.prompt).includes('a '))
        .length;
    const before = creates();
    const asked = await run(
      ['--library', library, 'create', 'flux', '--prompt-list', 'prompts.txt'],
      service(),
    );
    expect(asked.code).toBe(2);
    const each = estimateCost({
      model: 'flux1-schnell',
      task_type: 'txt2img',
      input: { prompt: 'a red fox' },
    }).micros as number;
    expect(asked.stdout).toBe(
      `  1. prompt: a red fox\n  2. prompt: a blue whale\n  3. prompt: a blue shark\n3 tasks, ${formatUsd(3 * each)} in all\n`,
    );
    expect(asked.stderr).toMatch(/nothing was queued: .* run the same command with --yes/);
    expect(creates()).toBe(before);

    const queued = await run(
      [
        '--library',
        library,
        '--json',
        'create',
        'flux',
        '--prompt-list',
        'prompts.txt',
        '--negative-prompt',
        '{blur|noise}',
        '--yes',
      ],
      service(),
    );
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toMatch(/6 tasks, .* in all/);
    const { tasks, batchId } = JSON.parse(queued.stdout);
    expect(tasks.map((t: { request: { input: Record<string, string> } }) => t.request.input)).toEqual([
      expect.objectContaining({ prompt: 'a red fox', negative_prompt: 'blur' }),
      expect.objectContaining({ prompt: 'a red fox', negative_prompt: 'noise' }),
      expect.objectContaining({ prompt: 'a blue whale', negative_prompt: 'blur' }),
      expect.objectContaining({ prompt: 'a blue whale', negative_prompt: 'noise' }),
      expect.objectContaining({ prompt: 'a blue shark', negative_prompt: 'blur' }),
      expect.objectContaining({ prompt: 'a blue shark', negative_prompt: 'noise' }),
    ]);
    expect(new Set(tasks.map((t: { batchId: string }) => t.batchId))).toEqual(new Set([batchId]));
    expect(creates()).toBe(before + 6);

    const many = '{a|b|c|d|e|f|g|h|i|j} {a|b|c|d|e|f|g|h|i|j} {a|b}';
    const over = await run(['--library', library, 'create', 'flux', '--prompt', many, '--yes'], service());
    expect(over.code).toBe(2);
    expect(over.stderr).toBe(
      'media-task: --prompt: this makes 200 tasks; at most 100 can be queued at once (use fewer alternatives or lines)\n',
    );
    const nested = await run(['--library', library, 'create', 'flux', '--prompt', 'x {a|{b}}'], service());
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(
      /--prompt: braces inside braces at character 6: alternatives cannot be nested/,
    );
    expect(creates()).toBe(before + 6);
  });

  it('boards: add, list with counts, list --board and --model, kept in the export and back on import', async () => {
    const library = join(dir, 'lib-boards');
    const made = await run([
      '--library',
      library,
      '--json',
      'create',
      'flux',
      '--prompt',
      'city at {dawn|dusk}',
      '--yes',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const [dawn, dusk] = JSON.parse(made.stdout).tasks.map((t: { id: string }) => t.id);
    const song = await run([
      '--library',
      library,
      '--json',
      'create',
      'audio',
      '--style',
      'rain',
      '--duration',
      '5',
    ]);
    const songId = JSON.parse(song.stdout).tasks[0].id;

    const added = await run(['--library', library, 'board', 'add', 'Keepers', dawn, dusk]);
    expect(added.stdout).toBe('made board "Keepers"; added 2 tasks to "Keepers": Keepers  2 tasks\n');
    const again = await run(['--library', library, 'board', 'add', 'keepers', dusk, songId]);
    expect(again.stdout).toBe(
      'added 1 task to "Keepers" (the others were on it already): Keepers  3 tasks\n',
    );
    const ids = async (...args: string[]) => {
      const r = await run(['--library', library, '--json', 'list', ...args]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).items.map((t: { id: string }) => t.id);
    };
    expect(await ids('--board', 'KEEPERS', '--model', 'flux1-schnell')).toEqual([dusk, dawn]);
    expect(await ids('--model', 'ace-step')).toEqual([songId]);
    // a model by the beginning of its name, when one model has it; else the models it could be
    expect(await ids('--model', 'ace')).toEqual([songId]);
    const flux = await run(['--library', library, 'list', '--model', 'flux']);
    expect([flux.code, flux.stderr]).toEqual([
      2,
      'media-task: --model: "flux" could be 2 models: flux1-dev, flux1-schnell; give one\n',
    ]);
    const unknown = await run(['--library', library, 'list', '--board', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('media-task: no board named "nope" (the boards: "Keepers")\n');

    // a task in Recently deleted leaves the board's count and list
    expect((await run(['--library', library, 'delete', dawn])).code).toBe(0);
    const boards = await run(['--library', library, '--json', 'boards']);
    expect(JSON.parse(boards.stdout)).toEqual([{ id: expect.any(Number), name: 'Keepers', tasks: 2 }]);

    const out = join(dir, 'boards-export');
    const exported = await run(['--library', library, '--json', 'export', out, dusk]);
    const folder = JSON.parse(exported.stdout).tasks[0].folder;
    expect(JSON.parse(readFileSync(join(folder, 'task.json'), 'utf8')).boards).toEqual(['Keepers']);
    const other = join(dir, 'lib-boards-import');
    const imported = await run(['--library', other, 'import-file', join(folder, 'task.json'), '--yes']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('  boards: Keepers');
    const there = await run(['--library', other, 'boards']);
    expect(there.stdout).toBe('Keepers  1 task\n');

    const removed = await run(['--library', library, 'board', 'remove', 'Keepers', dusk]);
    expect(removed.stdout).toBe('took 1 task off "Keepers": Keepers  1 task\n');
    const deleted = await run(['--library', library, 'board', 'delete', 'keepers']);
    expect(deleted.stdout).toBe('deleted board "Keepers" (its 1 task stays in the library)\n');
    expect(await ids()).toEqual([songId, dusk]);
  });
});
