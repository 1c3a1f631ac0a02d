/**
 * `media-task` with inputs a user gets wrong: each gives exit 2 and a message naming what is
 * wrong; a refused key or an unreachable service shows the task as it really is (queued). The
 * commands are `main` called in this process (`callCliMain`; the executable's own exit codes are
 * run as a process in media-task-cli.test.ts), but for the FIFO given as a prompt list: a
 * regression there would block, which only a child process survives.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takePromptList } from '../../src/cli/prompt-list-option.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { API_KEY } from '../engine/engine-fixtures.ts';
import { closedPort } from '../service/raw-http-server.ts';
import { hugePng } from '../support/oversized-pictures.ts';
import { type CliResult, callCliMain, closeCliRig, openCliRig, runCli } from './cli-runner.ts';

let dir: string;
let sb: Sandbox;

beforeAll(async () => {
  ({ dir, sb } = await openCliRig('mts-cli-bad-'));
});
afterAll(() => closeCliRig({ dir, sb }));

function run(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return callCliMain(dir, args, env);
}

describe('media-task bad inputs', () => {
  it('a file given as the library folder: exit 2 naming it', async () => {
    const file = join(dir, 'not-a-folder.txt');
    writeFileSync(file, 'x');
    const r = await run(['--library', file, 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`library folder ${file} is a file, not a folder`);
  });

  it('unreadable option files: exit 2 with the reason', async () => {
    const lib = join(dir, 'lib-files');
    const rawFrom = (file: string) =>
      run(['--library', lib, 'create', 'raw', '--model', 'm', '--task-type', 't', '--input-json', file]);
    mkdirSync(join(dir, 'a-folder'), { recursive: true });
    const folder = await run([
      '--library',
      lib,
      'create',
      'audio',
      '--style',
      'x',
      '--lyrics-file',
      'a-folder',
    ]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('--lyrics-file: cannot read a-folder: is a folder, not a file');
    const missing = await rawFrom('nope.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--input-json: cannot read nope.json: file not found');
    writeFileSync(join(dir, 'array.json'), '[1, 2]');
    const array = await rawFrom('array.json');
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('--input-json: array.json must hold a JSON object, got an array');
    const listed = await run(['--library', lib, '--json', 'list']);
    expect(JSON.parse(listed.stdout).items).toEqual([]);
  });

  it('a --prompt-list that is a FIFO, binary or over 2 MB: refused at once naming why (third review of issue 22)', async () => {
    // a FIFO blocked the command for good; /dev/zero would be read until memory ran out
    const lib = join(dir, 'lib-files');
    const list = (file: string) =>
      runCli(dir, ['--library', lib, 'create', 'image', '--prompt-list', file, '--yes']);
    execFileSync('mkfifo', [join(dir, 'prompts.fifo')]);
    const fifo = await list('prompts.fifo');
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain(
      '--prompt-list: cannot read prompts.fifo: it is not a regular file (a FIFO, device or socket)',
    );
    // the same reading in this process: a picture given by mistake, a list over 2 MB
    const photo = join(dir, 'photo.png');
    writeFileSync(photo, hugePng(40, 40));
    expect(() => takePromptList(['--prompt-list', photo])).toThrow(
      `--prompt-list: cannot read ${photo}: it is not text (UTF-8)`,
    );
    const long = join(dir, 'long.txt');
    writeFileSync(long, 'a dune at dawn\n'.repeat(150_000));
    expect(() => takePromptList(['--prompt-list', long])).toThrow(
      `--prompt-list: cannot read ${long}: it is 2,250,000 bytes; a text file given to an option is at most 2,000,000`,
    );
    writeFileSync(long, 'a dune at {dawn|dusk}\n\nharbour lights\n');
    expect(takePromptList(['--prompt-list', long]).prompts).toEqual([
      'a dune at {dawn|dusk}',
      'harbour lights',
    ]);
  });

  it('a picture whose header claims 99,000,000 x 1 px: exit 2 naming its size, refused from the header', async () => {
    const wide = join(dir, 'wide.png');
    writeFileSync(wide, hugePng(99_000_000, 1));
    const lib = join(dir, 'lib-wide');
    const face = await run([
      '--library',
      lib,
      '--sandbox',
      'create',
      'face-swap',
      '--target',
      wide,
      '--swap',
      wide,
    ]);
    expect(face.code).toBe(2);
    expect(face.stderr).toContain('target_image: image is 99000000 x 1 px; each side must be under 2048 px');
    const edit = await run([
      '--library',
      lib,
      '--sandbox',
      'create',
      'image-edit',
      '--image1',
      wide,
      '--prompt',
      'x',
    ]);
    expect(edit.code).toBe(2);
    expect(edit.stderr).toContain('image1: image is 99000000 x 1 px; each side must be under 2048 px');
    const listed = await run(['--library', lib, '--json', 'list']);
    expect(JSON.parse(listed.stdout).items).toEqual([]);
  });

  it('a base URL that is not a URL: exit 2 naming --base-url', async () => {
    const r = await run(['--library', join(dir, 'lib-url'), '--base-url', 'notaurl', 'list'], {
      MEDIA_TASK_API_KEY: API_KEY,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--base-url: .*must start with https:\/\//);
  });

  it('an http base URL off this computer, or a key no header can carry: exit 2, the key never printed', async () => {
    const http = await run(
      ['--library', join(dir, 'lib-http'), '--base-url', 'http://api.example.com', 'list'],
      {
        MEDIA_TASK_API_KEY: API_KEY,
      },
    );
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(/--base-url: .*http:\/\/ is allowed only for this computer/);
    const spaced = 'engine test\u00a0key-123';
    const key = await run(['--library', join(dir, 'lib-key'), 'create', 'audio', '--style', 'x'], {
      MEDIA_TASK_API_KEY: spaced,
      MEDIA_TASK_BASE_URL: sb.url,
    });
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/MEDIA_TASK_API_KEY: the API key contains a space/);
    expect(key.stderr).not.toContain('key-123');
  });

  it('importing an id the service does not know: exit 2', async () => {
    const env = { MEDIA_TASK_API_KEY: API_KEY, MEDIA_TASK_BASE_URL: sb.url };
    const unknown = await run(
      ['--library', join(dir, 'lib-imp'), 'import', '00000000-0000-4000-8000-000000000000'],
      env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/does not know this task/);
    const malformed = await run(['--library', join(dir, 'lib-imp'), 'import', 'not-a-uuid'], env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/not a UUID/);
  });

  it('a refused key: the task is shown queued (not submitting) and the hint names MEDIA_TASK_API_KEY', async () => {
    const r = await run(
      ['--library', join(dir, 'lib-key'), 'create', 'audio', '--style', 'x', '--duration', '3'],
      {
        MEDIA_TASK_API_KEY: 'wrong-key',
        MEDIA_TASK_BASE_URL: sb.url,
      },
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/\squeued\s/);
    expect(r.stderr).toContain('check MEDIA_TASK_API_KEY');
    expect(r.stderr).not.toMatch(/cannot be reached/);
  });

  it('an unreachable service: the task is shown queued, with the note that it is sent later', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await run(
      ['--library', join(dir, 'lib-off'), 'create', 'audio', '--style', 'x', '--duration', '3'],
      {
        MEDIA_TASK_API_KEY: API_KEY,
        MEDIA_TASK_BASE_URL: url,
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\squeued\s/);
    expect(r.stderr).toMatch(/cannot be reached now; it will be sent later/);
  });
});
