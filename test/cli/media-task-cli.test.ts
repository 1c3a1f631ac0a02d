/**
 * The `media-task` command line, run as a user would (a child process), against the real
 * sandbox and a real library folder.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLibraryLock } from '../../src/core/library/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { API_KEY } from '../engine/engine-fixtures.ts';
import { writePicture } from '../support/pictures.ts';
import { type CliResult, closeCliRig, openCliRig, runCli } from './cli-runner.ts';

let dir: string;
let sb: Sandbox;

beforeAll(async () => {
  ({ dir, sb } = await openCliRig('mts-cli-'));
});
afterAll(() => closeCliRig({ dir, sb }));

function run(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
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
    expect(exported.stdout).toMatch(/exported 1 task/);
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
    const watched = await run(['--library', libDir, '--json', 'watch', '--until-idle'], service());
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
    const r = await run(
      ['--library', join(dir, 'lib4'), 'create', 'face-swap', '--target', 'huge.png', '--swap', 'huge.png'],
      service(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/target_image.*3000 x 3000/);
    const unknown = await run(['--library', join(dir, 'lib4'), 'create', 'audio', '--styel', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option --styel/);
    const asJson = await run(['--library', join(dir, 'lib4'), '--json', 'create', 'audio', '--styel', 'x']);
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
    const r = await run(
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
      const r = await run(
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
    // a live process holds the lock: this test process
    const lock = acquireLibraryLock(libDir);
    try {
      const second = await run(['--library', libDir, 'list']);
      expect(second.code).toBe(5);
      expect(second.stderr).toMatch(/already open in another process \(pid \d+\)/);
    } finally {
      lock.release();
    }
    expect((await run(['--library', libDir, 'list'])).code).toBe(0);
  });
});
