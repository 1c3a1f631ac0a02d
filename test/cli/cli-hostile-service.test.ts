/**
 * `media-task` in front of a service that answers with terminal control sequences and echoes the
 * key (security review, issue 17, items 5 and 7): the account name, a task's error and strings a
 * library file holds reach the terminal as words only (no ESC, no C1 control, no carriage
 * return), `--json` keeps the data with every control character escaped, and the key is in no
 * output and nowhere in the library's SQLite file. Every printer goes through one function.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, removeDir, tempDir } from '../engine/engine-fixtures.ts';
import { type RawServer, sendJson, startRawServer } from '../service/raw-http-server.ts';
import { type CliResult, runCli } from './cli-runner.ts';

const TASK_ID = '0b6f3c2a-9d4e-4f1a-8b7c-5e2d1a0f9c83';
const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const TITLE = '\x1b]2;pwned\x1b\\';
const ERASE = '\x1b[2J\x1b[K';
const C1 = '\x9b2J\x9d0;t\x9c';
const HOSTILE = `${OSC52}${TITLE}${ERASE}${C1}\r`;
/** Any control character a terminal acts on: C0 but tab and line feed, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** Right-to-left override, left-to-right isolate and its end. */
const [RLO, LRI, PDI] = ['\u202e', '\u2066', '\u2069'];
/** Every direction control a terminal or an editor may act on. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let dir: string;
let service: RawServer;

beforeAll(async () => {
  dir = await tempDir('mts-cli-hostile-');
  service = await startRawServer((req, res) => {
    const key = String(req.headers['x-api-key']);
    if (req.url.endsWith('/account/info')) {
      return sendJson(res, 200, {
        code: 200,
        data: { account_name: `${HOSTILE}Ann ${key}${HOSTILE}`, credits: 100, equivalent_in_usd: 2 },
        message: 'success',
      });
    }
    const failed = req.method === 'GET';
    sendJson(res, 200, {
      code: 200,
      message: 'success',
      data: {
        task_id: TASK_ID,
        model: 'Qubico/ace-step',
        task_type: 'txt2audio',
        status: failed ? `failed${HOSTILE}` : 'pending',
        input: { style_prompt: `echo ${key}` },
        output: null,
        meta: {},
        logs: null,
        error: failed
          ? {
              code: 500,
              message: `${HOSTILE}model crashed for ${key}${OSC52}`,
              raw_message: key,
              detail: null,
            }
          : null,
      },
    });
  });
});

afterAll(async () => {
  await service?.close();
  if (dir) await removeDir(dir);
});

function run(args: string[]): Promise<CliResult> {
  return runCli(dir, args, { MEDIA_TASK_API_KEY: API_KEY, MEDIA_TASK_BASE_URL: service.url });
}

/** What a terminal would show: no control character, no key. */
function expectPlain(r: CliResult): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toMatch(CONTROL);
    expect(text).not.toContain(API_KEY);
  }
}

describe('media-task and what the service says', () => {
  const lib = () => join(dir, 'lib');

  it('prints the account name as words, without the key', async () => {
    const text = await run(['account']);
    expect(text.code).toBe(0);
    expectPlain(text);
    expect(text.stdout).toContain('Balance for Ann [redacted] at');
    const json = await run(['--json', 'account']);
    expectPlain(json);
    expect(JSON.parse(json.stdout)).toMatchObject({ accountName: 'Ann [redacted]', balanceUsd: 2 });
  });

  it("prints a failed task's error as words, and keeps the key out of the library file", async () => {
    const created = await run(['--library', lib(), 'create', 'audio', '--style', 'calm', '--wait']);
    expect(created.code).toBe(4);
    expectPlain(created);
    expect(created.stdout).toContain('the service could not complete the task: model crashed for [redacted]');
    for (const args of [['list'], ['--json', 'get', TASK_ID]]) {
      const r = await run(['--library', lib(), ...args]);
      expect(r.code).toBe(0);
      expectPlain(r);
    }
    // the engine has closed: the database and its journal are whole on disk
    for (const file of readdirSync(lib()).filter((f) => f.startsWith('library.sqlite'))) {
      expect(readFileSync(join(lib(), file)).includes(API_KEY)).toBe(false);
    }
    const db = new DatabaseSync(join(lib(), 'library.sqlite'), { readOnly: true });
    try {
      const row = db.prepare('SELECT remote_status, error_message FROM tasks').get() as Record<
        string,
        string
      >;
      expect(row).toEqual({
        remote_status: 'failed',
        error_message: 'the service could not complete the task: model crashed for [redacted]',
      });
    } finally {
      db.close();
    }
  });

  it('prints strings a library file holds without their control sequences; --json escapes them', async () => {
    const title = `Night ${HOSTILE}drive\tmix${C1}`;
    const db = new DatabaseSync(join(lib(), 'library.sqlite'));
    try {
      db.prepare('UPDATE tasks SET title = ?, error_message = ?').run(title, `bad ${OSC52}words`);
    } finally {
      db.close();
    }
    const list = await run(['--library', lib(), 'list']);
    expectPlain(list);
    expect(list.stdout).toContain('Night drive\tmix');
    const get = await run(['--library', lib(), 'get', TASK_ID]);
    expectPlain(get);
    expect(get.stdout).toContain('bad words');
    const json = await run(['--library', lib(), '--json', 'list']);
    expectPlain(json);
    // the data is all there, each control character written as \u00XX
    expect(JSON.parse(json.stdout).items[0].title).toBe(title);
  });

  it('prints board names and titles without direction overrides (a name reading as another); board add refuses them', async () => {
    // a library written elsewhere: U+202E turns "gpj.exe" around on a terminal that shows
    // direction, an isolate hides what follows it (Trojan Source)
    const board = `Holiday${RLO}gpj.exe`;
    let taskId = '';
    const db = new DatabaseSync(join(lib(), 'library.sqlite'));
    try {
      db.prepare('UPDATE tasks SET title = ?').run(`Night${LRI}drive${PDI}${RLO}mix`);
      db.prepare("INSERT INTO boards (name, created_at) VALUES (?, '2026-01-01T00:00:00Z')").run(board);
      const { id } = db.prepare('SELECT id FROM boards WHERE name = ?').get(board) as { id: number };
      ({ id: taskId } = db.prepare('SELECT id FROM tasks').get() as { id: string });
      db.prepare("INSERT INTO board_tasks (board_id, task_id, added_at) VALUES (?, ?, '2026-01-01')").run(
        id,
        taskId,
      );
    } finally {
      db.close();
    }
    const boards = await run(['--library', lib(), 'boards']);
    expect(boards.code).toBe(0);
    expect(boards.stdout).not.toMatch(BIDI);
    expect(boards.stdout).toContain('Holidaygpj.exe  1 task');
    const get = await run(['--library', lib(), 'get', TASK_ID]);
    expect(get.stdout).not.toMatch(BIDI);
    expect(get.stdout).toContain('Nightdrivemix');
    // --json keeps the data, each direction control written as \u202e
    const json = await run(['--library', lib(), '--json', 'boards']);
    expect(json.stdout).not.toMatch(BIDI);
    expect(json.stdout).toContain('Holiday\\u202egpj.exe');
    expect(JSON.parse(json.stdout)[0].name).toBe(board);
    // a new board cannot be given such a name at all
    const added = await run(['--library', lib(), 'board', 'add', `Trip${RLO}3pm.sh`, taskId]);
    expect(added.code).toBe(2);
    expect(added.stderr).toContain('a board name cannot hold direction controls');
  });

  it("prints the engine's log lines without the control sequences a library file holds", async () => {
    // a library written elsewhere: the task in Recently deleted, an output recorded outside its folder
    const db = new DatabaseSync(join(lib(), 'library.sqlite'));
    try {
      db.prepare('UPDATE tasks SET deleted_at = ?').run(new Date().toISOString());
      const { id } = db.prepare('SELECT id FROM tasks').get() as { id: string };
      db.prepare(
        `INSERT INTO task_outputs (task_id, idx, kind, url, field, state, path)
         VALUES (?, 0, 'audio', 'https://x.example/a.mp3', 'audio_url', 'saved', ?)`,
      ).run(id, `../elsewhere/${C1}${HOSTILE}.mp3`);
    } finally {
      db.close();
    }
    const emptied = await run(['--library', lib(), 'trash', '--empty', '--yes']);
    expect(emptied.code).toBe(0);
    // the engine says what it left alone, in words
    expect(emptied.stderr).toContain('outside the task’s own folder; it was not touched');
    expectPlain(emptied);
  });

  it('every printer of the command line goes through terminal-output.ts', () => {
    const cliDir = join(import.meta.dirname, '../../src/cli');
    const direct = readdirSync(cliDir)
      .filter((f) => f.endsWith('.ts') && f !== 'terminal-output.ts')
      .filter((f) =>
        /process\.(stdout|stderr)\.write|console\.(log|error|warn|info)/.test(
          readFileSync(join(cliDir, f), 'utf8'),
        ),
      );
    expect(direct).toEqual([]);
  });
});
