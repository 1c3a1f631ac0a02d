/**
 * The commands that only read the library answer while the app has it open (issue 22, after
 * review s7's finding 6): `list` (its filters too), `boards`, `get` (`--json`), `trash`,
 * `batches`, `export`, `retention` and `retention --preview` read library.sqlite beside the engine
 * that holds it, seeing what it has just written (WAL), and print what they print with the library
 * to themselves. They start nothing (retention's daily run and Recently deleted's purge are the
 * app's); a command that changes the library still exits 5 with the lock's sentence. `main` is
 * called in this process (callCliMain) and the app is an engine opened here, as cli-lineage's
 * recall test has it: no process is launched and no service is needed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import type { Task } from '../../src/shared/index.ts';
import { DEFAULT_RETENTION_RULES } from '../../src/shared/task/retention.ts';
import { openEngine, removeDir, SONG, tempDir } from '../engine/engine-fixtures.ts';
import { TestClock } from '../engine/test-clock.ts';
import { songTask } from '../store/store-fixtures.ts';
import { type CliResult, callCliMain } from './cli-runner.ts';

const DAY_MS = 86_400_000;
/** The lock's sentence, but for the holder's pid (engine-lock.pid names it when it is another process's). */
const BUSY = 'is already open in another process; close it first';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('mts-cli-reading-');
});
afterAll(() => removeDir(dir));

const lib = () => join(dir, 'lib');
function run(args: string[]): Promise<CliResult> {
  return callCliMain(dir, ['--library', lib(), ...args]);
}

/** `args` exits 0 with nothing on stderr; its stdout. */
async function answered(args: string[]): Promise<string> {
  const r = await run(args);
  expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
  return r.stdout;
}

/** A saved song made `days` ago, its one result of `bytes` (as the app records one). */
function savedSong(app: TaskEngine, id: string, days: number, bytes: number): void {
  app.store.insertTask(
    songTask({ id, title: id, createdAt: new Date(Date.now() - days * DAY_MS).toISOString() }),
  );
  app.store.transition(id, 'saved', { patch: { remoteId: `r-${id}` } });
  app.store.replaceOutputs(id, [{ kind: 'audio', url: `https://example.test/${id}`, field: 'url' }]);
  app.store.updateOutput(id, 0, { state: 'saved', path: `2026/01/${id}/output-1.wav`, size: bytes });
}

/** The ids a `--json` list or trash printed, sorted. */
const ids = (stdout: string) => (JSON.parse(stdout).items as Task[]).map((t) => t.id).sort();
/** The one line that changes with the time of the call: the day a run now looks before. */
const withoutNow = (text: string) => text.replace(/\(made before [^)]*\)/g, '(made before …)');

describe('media-task reading commands while the app has the library open', () => {
  it('list, boards, get, trash, batches, export and retention answer beside it, alike, starting nothing; a change exits 5', async () => {
    // the app: its rules ran two days ago (its clock), so the daily run is due by now
    const app = await openEngine(lib(), null, {
      clock: new TestClock(Date.now() - 2 * DAY_MS),
      log: () => {},
    });
    let beside: string[];
    let queuedId = '';
    try {
      savedSong(app, 'old', 200, 3 * 1024 * 1024);
      await app.retention.setRules({ ...DEFAULT_RETENTION_RULES, enabled: true, olderThanDays: 90 });
      expect(app.store.getTask('old')?.deletedAt).not.toBeNull();
      savedSong(app, 'old-2', 120, 4096); // a run now would move it
      savedSong(app, 'doomed', 10, 1024);
      app.store.trashTasks(['doomed'], new Date(Date.now() - 40 * DAY_MS).toISOString()); // the purge's, by now
      savedSong(app, 'kite', 1, 2048);
      app.store.addToBoard(app.store.boardNamedOrMade('Keepers').id, ['kite']);
      app.store.setFavorite('kite', true);
      const queued = await app.queueTask({ ...SONG, title: 'neon rain' });
      queuedId = queued.id;

      // list reads what the app has just written (its WAL), by every filter
      expect(ids(await answered(['--json', 'list']))).toEqual([queued.id, 'kite', 'old-2'].sort());
      const { tasks: batch } = await app.queueBatch([SONG, SONG]);
      const all = [...batch.map((t) => t.id), queued.id, 'kite', 'old-2'].sort();
      expect(ids(await answered(['--json', 'list']))).toEqual(all);
      expect(ids(await answered(['--json', 'list', '--board', 'keepers']))).toEqual(['kite']);
      expect(ids(await answered(['--json', 'list', '--favorite']))).toEqual(['kite']);
      expect(ids(await answered(['--json', 'list', '--search', 'neon']))).toEqual([queued.id]);
      expect(ids(await answered(['--json', 'list', '--model', 'ace', '--state', 'queued']))).toHaveLength(3);
      const board = await run(['list', '--board', 'nope']);
      expect([board.code, board.stderr]).toEqual([
        2,
        'media-task: no board named "nope" (the boards: "Keepers")\n',
      ]);
      const got = JSON.parse(await answered(['--json', 'get', queued.id]));
      expect(got.task).toMatchObject({ id: queued.id, state: 'queued', title: 'neon rain' });
      expect(got.events.map((e: { to: string }) => e.to)).toEqual(['queued']);
      expect(got.lineage).toMatchObject({ madeFrom: [] });
      expect(JSON.parse(await answered(['--json', 'batches'])).batches).toHaveLength(1);
      expect(await answered(['export', join(dir, 'out'), queued.id])).toMatch(/^exported 1 task to /);

      // a command that changes the library waits for the app, in the lock's words
      for (const args of [
        ['delete', queued.id],
        ['board', 'add', 'Keepers', queued.id],
        ['retention', '--run'],
        ['retention', '--off'],
        ['trash', '--empty', '--yes'],
        ['cancel', queued.id],
      ]) {
        const busy = await run(args);
        expect([busy.code, busy.stderr.replace(/ \(pid \d+\)/, '')], args.join(' ')).toEqual([
          5,
          `media-task: the library ${lib()} ${BUSY}\n`,
        ]);
      }
      beside = await shown(queued.id);
      expect(beside[4]).toContain('a run now would move 1 task (1 song), 4 KB of results');
    } finally {
      await app.close();
    }
    // nothing was moved or deleted for good by reading: the daily run and the purge are the app's
    expect(ids(await answered(['--json', 'trash']))).toEqual(['doomed', 'old']);
    // with the library to themselves they print the same, and still start nothing
    expect((await shown(queuedId)).map(withoutNow)).toEqual(beside.map(withoutNow));
    expect(ids(await answered(['--json', 'trash']))).toEqual(['doomed', 'old']);
    expect(await answered(['--json', 'list', '--search', 'old-2'])).toContain('"old-2"');
    expect(await answered(['help'])).toContain(
      'retention and retention --preview only read it, so they work beside the app; they start nothing',
    );
  });
});

/** What the reading commands print for people: list, boards, get, trash, retention, its preview. */
async function shown(id: string): Promise<string[]> {
  const out: string[] = [];
  for (const args of [
    ['list'],
    ['boards'],
    ['get', id],
    ['trash'],
    ['retention'],
    ['retention', '--preview'],
  ]) {
    const r = await run(args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    out.push(`${r.stdout}${r.stderr}`);
  }
  return out;
}
