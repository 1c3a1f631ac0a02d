/**
 * Recently deleted after the opening (issue 22, items 4 and 6), on a real SQLite library and real
 * folders with the engine's clock in the test's hand: what has been there for 30 days is deleted
 * for good behind the opening, a batch at a time, rows first, then files, and whatever stops it
 * (a quit, a failed disk) leaves no row naming a removed folder and no folder nobody removes; the
 * Undo of a big delete (a retention run's) takes its tasks back a batch at a time.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import { imageTask } from '../store/store-fixtures.ts';
import { closeRun, freshRun, openEngine } from './engine-fixtures.ts';
import { DAY, HOUR, TestClock } from './test-clock.ts';

const START = Date.parse('2026-06-01T12:00:00.000Z');

let dir: string;
let engine: TaskEngine | null;

beforeEach(async () => {
  ({ dir, engine } = await freshRun());
});
afterEach(() => closeRun({ engine, sb: null, dir }));

/**
 * Runs `use` with a disk that fails to remove a folder (EIO), as a crash between a purge's batch
 * and its files would leave them: node:fs/promises' rm, its named export synced, put back after.
 */
async function withFailingRemoval(use: () => Promise<void>): Promise<void> {
  const real = fsp.rm;
  fsp.rm = () => Promise.reject(Object.assign(new Error('EIO: i/o error, rm'), { code: 'EIO' }));
  syncBuiltinESMExports();
  try {
    await use();
  } finally {
    fsp.rm = real;
    syncBuiltinESMExports();
  }
}

/** A picture made 200 days ago, saved at 2026/01/<id>/output-1 (the folder is the test's to make). */
function putPicture(e: TaskEngine, clock: TestClock, id: string): void {
  e.store.insertTask({
    ...imageTask({ id, title: id, createdAt: new Date(clock.now() - 200 * DAY).toISOString() }),
    model: 'service/qwen-image',
    entryId: 'qwen-image/image-edit',
  });
  e.store.transition(id, 'saved', { patch: { remoteId: `r-${id}` } });
  e.store.replaceOutputs(id, [{ kind: 'image', url: `https://example.test/${id}`, field: 'url' }]);
  e.store.updateOutput(id, 0, { state: 'saved', path: `2026/01/${id}/output-1`, size: 10 });
}

const trashed = (e: TaskEngine) =>
  e.store
    .listTasks({ trashed: true, limit: 100 })
    .items.map((t) => t.id)
    .sort();
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The full-text index's segments (each has its rows in tasks_fts_idx), read beside the engine. */
function searchSegments(lib: string): number {
  const db = new DatabaseSync(join(lib, 'library.sqlite'), { readOnly: true });
  try {
    return Number(db.prepare('SELECT count(DISTINCT segid) AS n FROM tasks_fts_idx').get()?.n);
  } finally {
    db.close();
  }
}

describe('Recently deleted after the opening', () => {
  async function trashedWithFiles(lib: string, clock: TestClock, ids: readonly string[], days: number) {
    const e = await openEngine(lib, null, { clock });
    for (const id of ids) {
      putPicture(e, clock, id);
      mkdirSync(join(lib, '2026', '01', id), { recursive: true });
      writeFileSync(join(lib, '2026', '01', id, 'output-1'), 'picture');
    }
    e.trash({ ids: [...ids] });
    await e.close();
    await clock.advance(days * DAY);
  }
  const folderOf = (lib: string, id: string) => join(lib, '2026', '01', id);
  /** No row in the library names a task whose folder is gone. */
  const rowsKeepTheirFolders = (e: TaskEngine, lib: string, ids: readonly string[]) => {
    for (const id of ids) if (e.store.getTask(id)) expect(existsSync(folderOf(lib, id)), id).toBe(true);
  };
  const GONE = Array.from({ length: 7 }, (_, i) => `gone-${i}`);

  it('clears Recently deleted of what is over 30 days old after the opening, a batch at a time', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    await trashedWithFiles(lib, clock, GONE, 31);
    await trashedWithFiles(lib, clock, ['recent'], 1);
    const lines: string[] = [];
    engine = await openEngine(lib, null, { clock, trashPurge: { batchTasks: 2 }, log: (l) => lines.push(l) });
    // the opening did not wait for it: all still there, files too
    expect(trashed(engine)).toEqual([...GONE, 'recent'].sort());
    await turn();
    await turn();
    const left = trashed(engine);
    expect(left.length).toBeGreaterThan(1);
    expect(left.length).toBeLessThan(GONE.length + 1);
    rowsKeepTheirFolders(engine, lib, GONE);
    await engine.idle();
    expect(trashed(engine)).toEqual(['recent']);
    for (const id of GONE) expect(existsSync(folderOf(lib, id)), id).toBe(false);
    expect(existsSync(folderOf(lib, 'recent'))).toBe(true);
    expect(engine.store.integrityCheck()).toBe('ok');
    // what it did, in the log (the CLI's stderr), counted in words
    expect(lines).toContain('deleted for good 7 tasks in Recently deleted for over 30 days');
  });

  it('a purge cut off between a batch and its files: the next opening removes them, no row names a gone folder', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    await trashedWithFiles(lib, clock, GONE, 31);
    const lines: string[] = [];
    await withFailingRemoval(async () => {
      engine = await openEngine(lib, null, {
        clock,
        trashPurge: { batchTasks: 3, batchMs: 60_000 }, // 3 whatever the machine's load
        log: (l) => lines.push(l),
      });
      await engine!.idle();
    });
    // the first batch's rows went (committed), their folders are still there: the purge stopped
    const left = trashed(engine!);
    expect(left).toHaveLength(GONE.length - 3);
    for (const id of GONE) expect(existsSync(folderOf(lib, id)), id).toBe(true);
    expect(lines.join('\n')).toMatch(/Recently deleted.*EIO/);
    await engine!.close();
    engine = await openEngine(lib, null, { clock, trashPurge: { batchTasks: 3 } });
    rowsKeepTheirFolders(engine, lib, GONE);
    await engine.idle();
    expect(trashed(engine)).toEqual([]);
    for (const id of GONE) expect(existsSync(folderOf(lib, id)), id).toBe(false);
    expect(engine.store.integrityCheck()).toBe('ok');
  });

  it('a list of files left to remove never removes a task the library has, and one that cannot be read is dropped', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    await trashedWithFiles(lib, clock, ['kept'], 1);
    let e = await openEngine(lib, null, { clock });
    const createdAt = e.store.getTask('kept')!.createdAt;
    const output = { index: 0, path: '2026/01/kept/output-1', thumbPath: null };
    e.store.setSetting('trash.purging', [{ id: 'kept', createdAt, outputs: [output], inputFiles: [] }]);
    await e.close();
    e = await openEngine(lib, null, { clock });
    await e.idle();
    expect(existsSync(folderOf(lib, 'kept'))).toBe(true);
    expect(e.store.getSetting('trash.purging')).toBeNull();
    e.store.setSetting('trash.purging', { not: 'a list' });
    await e.close();
    const lines: string[] = [];
    engine = await openEngine(lib, null, { clock, log: (l) => lines.push(l) });
    await engine.idle();
    expect(lines.join('\n')).toMatch(/files a purge left to remove could not be read/);
    expect(engine.store.getSetting('trash.purging')).toBeNull();
    expect(existsSync(folderOf(lib, 'kept'))).toBe(true);
  });

  it('a crafted list of files left to remove touches nothing outside the library: odd ids, stored paths, planted links (security review s7)', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    const outside = join(dir, 'outside');
    const hash = 'a'.repeat(64);
    mkdirSync(join(outside, 'sub'), { recursive: true });
    for (const name of ['victim', `${hash}.png`, 'sub/kept']) writeFileSync(join(outside, name), 'mine');
    let e = await openEngine(lib, null, { clock });
    // a task folder that is a link, a month folder that is a link, the inputs folder a link
    mkdirSync(join(lib, '2026', '01'), { recursive: true });
    await fsp.symlink(join(outside, 'sub'), join(lib, '2026', '01', 'linked'));
    await fsp.symlink(outside, join(lib, '2026', '02'));
    await fsp.rm(join(lib, 'inputs'), { recursive: true, force: true });
    await fsp.symlink(outside, join(lib, 'inputs'));
    const output = (path: string) => ({ index: 0, path, thumbPath: null });
    e.store.setSetting('trash.purging', [
      { id: '../../outside', createdAt: '2026-01-15T00:00:00.000Z', outputs: [], inputFiles: [] },
      { id: '..', createdAt: 'not a date', outputs: [], inputFiles: [] },
      {
        id: 'linked',
        createdAt: '2026-01-15T00:00:00.000Z',
        outputs: [
          output(join(outside, 'victim')),
          output('../outside/victim'),
          output('2026/01/../../outside'),
        ],
        inputFiles: [
          join(outside, 'victim'),
          '../outside/victim',
          'inputs/../../outside/victim',
          `inputs/${hash}.png`,
        ],
      },
      {
        id: 'sub',
        createdAt: '2026-02-15T00:00:00.000Z',
        outputs: [output('2026/02/sub/kept')],
        inputFiles: [],
      },
    ]);
    await e.close();
    const lines: string[] = [];
    e = await openEngine(lib, null, { clock, log: (l) => lines.push(l) });
    await e.idle();
    engine = e;
    for (const name of ['victim', `${hash}.png`, 'sub/kept'])
      expect(existsSync(join(outside, name)), name).toBe(true);
    expect(e.store.getSetting('trash.purging')).toBeNull();
    expect(lines.join('\n')).toMatch(/unsafe task id/);
  });

  it("a batch leaves one segment in the search index (FTS5 writes a segment at each statement's end), never one per task", async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    await trashedWithFiles(lib, clock, GONE, 31);
    const before = searchSegments(lib);
    engine = await openEngine(lib, null, { clock, trashPurge: { batchTasks: GONE.length, batchMs: 60_000 } });
    await engine.idle();
    expect(trashed(engine)).toEqual([]);
    // each task's own DELETE made a segment of its own (7), and every 64 pages of them a merge of
    // 64 pages per level of the index inside a delete: 20-30 ms at a million tasks
    expect(searchSegments(lib)).toBeLessThanOrEqual(before + 1);
    expect(engine.store.integrityCheck()).toBe('ok');
  });

  it('emptying Recently deleted while the purge goes on after the opening: each task deleted once, no error', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    await trashedWithFiles(lib, clock, GONE, 31);
    engine = await openEngine(lib, null, { clock, trashPurge: { batchTasks: 2 } });
    const emptied = await engine.emptyTrash();
    await engine.idle();
    expect(emptied.skipped).toEqual([]);
    expect(trashed(engine)).toEqual([]);
    for (const id of GONE) expect(existsSync(folderOf(lib, id)), id).toBe(false);
  });

  it("takes back a big delete (a retention run's Undo) a batch at a time, the event loop free between", async () => {
    const clock = new TestClock(START);
    engine = await openEngine(join(dir, 'lib'), null, { clock });
    const ids = Array.from({ length: 250 }, (_, i) => `run-${i}`);
    for (const id of ids) putPicture(engine, clock, id);
    const { deletedAt } = engine.trash({ ids });
    const restoring = engine.restoreDeleted(deletedAt);
    // a first batch at once, the rest once the event loop has turned (a page read goes between)
    const left = engine.store.trashedAt(deletedAt).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(ids.length);
    expect(await restoring).toEqual({ done: ids.length, skipped: [] });
    expect(engine.store.trashedAt(deletedAt)).toEqual([]);
  });
});
