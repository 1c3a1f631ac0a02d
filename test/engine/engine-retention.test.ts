/**
 * Retention (issue 22, item 4) in the headless core, on a real SQLite library with the engine's
 * clock in the test's hand: nothing moves until the rules are switched on; the preview says what
 * would go (by kind, with the bytes) and changes nothing; a run moves only ended tasks the keep
 * rules leave, to Recently deleted, all with one deletedAt; it runs again a day later and at open
 * once a day has passed. The library's size by kind follows every save, delete and kind change.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import type { NewTask } from '../../src/core/store/index.ts';
import type { OutputKind, TaskState } from '../../src/shared/index.ts';
import { DEFAULT_RETENTION_RULES, type RetentionRules } from '../../src/shared/task/retention.ts';
import { imageTask, songTask } from '../store/store-fixtures.ts';
import { closeRun, freshRun, openEngine } from './engine-fixtures.ts';
import { DAY, HOUR, TestClock } from './test-clock.ts';

const START = Date.parse('2026-06-01T12:00:00.000Z');

let dir: string;
let engine: TaskEngine | null;

beforeEach(async () => {
  ({ dir, engine } = await freshRun());
});
afterEach(() => closeRun({ engine, sb: null, dir }));

function daysAgo(clock: TestClock, days: number): string {
  return new Date(clock.now() - days * DAY).toISOString();
}

/** Puts a task in the library as made `days` ago, in `state`, with one output of `bytes` when saved. */
function put(
  e: TaskEngine,
  clock: TestClock,
  id: string,
  days: number,
  state: TaskState,
  kind: OutputKind,
  bytes: number,
  extra: Partial<NewTask> = {},
): void {
  const base =
    kind === 'audio'
      ? songTask({ id, createdAt: daysAgo(clock, days) })
      : imageTask({ id, createdAt: daysAgo(clock, days) });
  const entryId = {
    audio: 'ace-step/txt2audio',
    image: 'qwen-image/image-edit',
    video: 'hunyuan/txt2video',
    '3d': 'trellis/text-to-3d',
    file: null,
  }[kind];
  const [model, taskType] = (entryId ?? 'x/x').split('/') as [string, string];
  e.store.insertTask({ ...base, title: id, entryId, model: `service/${model}`, taskType, ...extra });
  if (state === 'queued') return;
  e.store.transition(id, state, { patch: { remoteId: `r-${id}` } });
  if (state !== 'saved') return;
  e.store.replaceOutputs(id, [{ kind, url: `https://example.test/${id}`, field: 'url' }]);
  e.store.updateOutput(id, 0, { state: 'saved', path: `2026/01/${id}/output-1`, size: bytes });
}

const rules = (over: Partial<RetentionRules> = {}): RetentionRules => ({
  ...DEFAULT_RETENTION_RULES,
  olderThanDays: 30,
  ...over,
});

const trashed = (e: TaskEngine) =>
  e.store
    .listTasks({ trashed: true, limit: 100 })
    .items.map((t) => t.id)
    .sort();

/** A library of every case: what goes, what each keep rule keeps, and what is never touched. */
function fill(e: TaskEngine, clock: TestClock): void {
  put(e, clock, 'old-song', 100, 'saved', 'audio', 1000);
  put(e, clock, 'old-failed-video', 100, 'failed', 'video', 0);
  put(e, clock, 'favourite', 100, 'saved', 'image', 200);
  e.store.setFavorite('favourite', true);
  put(e, clock, 'on-board', 100, 'saved', 'image', 300);
  e.store.addToBoard(e.store.createBoard('Keepers').id, ['on-board']);
  put(e, clock, 'used', 100, 'saved', 'image', 400);
  put(e, clock, 'made-from-used', 5, 'saved', 'image', 50, { parentId: 'used', parentOutput: 0 });
  put(e, clock, 'model-3d', 100, 'saved', '3d', 5000);
  put(e, clock, 'young', 26.5, 'saved', 'image', 70); // 29.5 days old when the rules are set
  // never touched, however old: running, uncertain, not saved yet, queued
  put(e, clock, 'running', 100, 'processing', 'image', 0);
  put(e, clock, 'uncertain', 100, 'uncertain', 'image', 0);
  put(e, clock, 'queued', 100, 'queued', 'image', 0);
}

describe('retention', () => {
  it('moves nothing until switched on, previews by kind, then moves only what the rules let go', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    engine = await openEngine(lib, null, { clock });
    fill(engine, clock);
    expect(engine.retention.view()).toEqual({ rules: DEFAULT_RETENTION_RULES, lastRun: null });
    expect(DEFAULT_RETENTION_RULES.enabled).toBe(false);
    await clock.advance(3 * DAY, engine);
    await engine.close();
    engine = await openEngine(lib, null, { clock });
    expect(trashed(engine)).toEqual([]);
    // finished at the service, its result not downloaded yet
    put(engine, clock, 'not-saved', 100, 'completed', 'image', 0);
    engine.store.replaceOutputs('not-saved', [
      { kind: 'image', url: 'https://example.test/n', field: 'url' },
    ]);

    const kept3d = rules({ keepKinds: ['3d'] });
    const preview = engine.retention.preview(kept3d);
    expect(preview).toEqual({
      before: new Date(clock.now() - 30 * DAY).toISOString(),
      tasks: 2,
      bytes: 1000,
      byKind: [
        { kind: 'audio', tasks: 1, bytes: 1000 },
        { kind: 'video', tasks: 1, bytes: 0 },
      ],
    });
    expect(trashed(engine)).toEqual([]);
    // each keep rule off lets its tasks go too
    const none = rules({ keepFavorites: false, keepBoards: false, keepUsedAsInputs: false });
    expect(engine.retention.preview(none)).toMatchObject({
      tasks: 6,
      bytes: 1000 + 200 + 300 + 400 + 5000,
      byKind: [
        { kind: 'image', tasks: 3, bytes: 900 },
        { kind: 'audio', tasks: 1, bytes: 1000 },
        { kind: 'video', tasks: 1, bytes: 0 },
        { kind: '3d', tasks: 1, bytes: 5000 },
      ],
    });

    const view = await engine.retention.setRules({ ...kept3d, enabled: true });
    expect(trashed(engine)).toEqual(['old-failed-video', 'old-song']);
    const deletedAt = new Date(clock.now()).toISOString();
    expect(view.lastRun).toEqual({ ...preview, deletedAt, at: deletedAt });
    for (const id of ['running', 'uncertain', 'not-saved', 'queued'])
      expect(engine.store.getTask(id)?.deletedAt, id).toBeNull();
    // one delete: Undo takes all of it back
    expect(engine.restore({ deletedAt })).toEqual({ done: 2, skipped: [] });

    // a day on, the engine's own timer runs the rules again: 'young' is 30 days old by then
    await clock.advance(DAY + 1000, engine);
    // and 'not-saved' has ended meanwhile: its download failed (no such address), so it may go;
    // the two the Undo took back count their days from it, so they stay (review s7, finding 12)
    expect(engine.store.getTask('not-saved')?.state).toBe('failed');
    expect(trashed(engine)).toEqual(['not-saved', 'young']);
    expect(engine.retention.view().lastRun?.tasks).toBe(2);

    // at open: not again within a day of the last run, then once a day has passed
    await engine.close();
    engine = await openEngine(lib, null, { clock });
    put(engine, clock, 'older-now', 40, 'saved', 'audio', 9);
    expect(trashed(engine)).not.toContain('older-now');
    await engine.close();
    await clock.advance(DAY);
    engine = await openEngine(lib, null, { clock });
    await engine.idle(); // the run goes on after the opening
    expect(trashed(engine)).toContain('older-now');

    // switched off: nothing moves, at open or a day on
    await engine.retention.setRules({ ...kept3d, enabled: false });
    put(engine, clock, 'after-off', 90, 'saved', 'audio', 1);
    await clock.advance(2 * DAY, engine);
    expect(trashed(engine)).not.toContain('after-off');
    expect(await engine.retention.run()).toBeNull();
  });

  /** Rules on (run once on an empty library), then 7 old pictures and a young one; a day on. */
  async function dueRun(lib: string, clock: TestClock, batchTasks: number): Promise<void> {
    const e = await openEngine(lib, null, { clock });
    await e.retention.setRules(rules({ enabled: true }));
    for (let i = 0; i < 7; i++) put(e, clock, `old-${i}`, 100 + i, 'saved', 'image', 10);
    put(e, clock, 'young', 1, 'saved', 'image', 10);
    await e.close();
    await clock.advance(DAY + HOUR);
    engine = await openEngine(lib, null, { clock, retention: { batchTasks } });
  }
  const OLD = Array.from({ length: 7 }, (_, i) => `old-${i}`).sort();
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const trashEvents = (e: TaskEngine, id: string) =>
    e.store.events(id).filter((ev) => ev.detail === 'moved to Recently deleted').length;

  it('opens and answers its first page before a due run, which goes on after it in batches', async () => {
    const clock = new TestClock(START);
    await dueRun(join(dir, 'lib'), clock, 2);
    // the first page is answered with nothing moved yet: the opening did not wait for the run
    const first = engine!.store.listTasks({ limit: 50 });
    expect(first.items.map((t) => t.id).sort()).toEqual([...OLD, 'young'].sort());
    expect(trashed(engine!)).toEqual([]);
    // a batch, then the event loop goes on (a page read or a state change goes between batches)
    await turn();
    expect(trashed(engine!).length).toBeGreaterThan(0);
    expect(trashed(engine!).length).toBeLessThan(OLD.length);
    expect(engine!.store.listTasks({ limit: 50 }).items).toHaveLength(
      OLD.length + 1 - trashed(engine!).length,
    );
    await engine!.idle();
    expect(trashed(engine!)).toEqual(OLD);
    const deletedAt = new Date(clock.now()).toISOString();
    expect(engine!.store.trashedAt(deletedAt).sort()).toEqual(OLD);
    expect(engine!.retention.view().lastRun).toMatchObject({ tasks: 7, bytes: 70, deletedAt, at: deletedAt });
  });

  it('goes on at the next opening with a run the app quit in the middle of: nothing moved twice or lost', async () => {
    const clock = new TestClock(START);
    const lib = join(dir, 'lib');
    await dueRun(lib, clock, 2);
    const deletedAt = new Date(clock.now()).toISOString();
    const lastBefore = engine!.retention.view().lastRun;
    await turn();
    const movedFirst = trashed(engine!);
    await engine!.close(); // quits in the middle of the run
    expect(movedFirst.length).toBeGreaterThan(0);
    expect(movedFirst.length).toBeLessThan(OLD.length);
    // an hour on: the run goes on where it was, with its own deletedAt (one Undo takes it all back)
    await clock.advance(HOUR);
    engine = await openEngine(lib, null, { clock, retention: { batchTasks: 2 } });
    expect(trashed(engine)).toEqual(movedFirst);
    expect(engine.retention.view().lastRun).toEqual(lastBefore);
    await engine.idle();
    expect(trashed(engine)).toEqual(OLD);
    expect(engine.store.trashedAt(deletedAt).sort()).toEqual(OLD);
    for (const id of OLD) expect(trashEvents(engine, id), id).toBe(1);
    expect(engine.retention.view().lastRun).toMatchObject({ tasks: 7, bytes: 70, deletedAt, at: deletedAt });
    expect(engine.restore({ deletedAt })).toEqual({ done: 7, skipped: [] });
    expect(engine.store.integrityCheck()).toBe('ok');
  });

  it('switched off in the middle of a run: it stops after its batch and what it moved is its last run', async () => {
    const clock = new TestClock(START);
    await dueRun(join(dir, 'lib'), clock, 2);
    const deletedAt = new Date(clock.now()).toISOString();
    await turn();
    const view = await engine!.retention.setRules(rules({ enabled: false }));
    const moved = trashed(engine!);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(OLD.length);
    expect(view.lastRun).toMatchObject({ tasks: moved.length, deletedAt, at: deletedAt });
    await engine!.idle();
    await clock.advance(2 * DAY, engine!);
    expect(trashed(engine!)).toEqual(moved);
  });

  it('previews the oldest tasks only, then says "at least"; the command line looks at all', async () => {
    const clock = new TestClock(START);
    engine = await openEngine(join(dir, 'lib'), null, { clock, retention: { previewTasks: 3 } });
    for (let i = 0; i < 5; i++) put(engine, clock, `old-${i}`, 100 + i, 'saved', 'image', 10);
    put(engine, clock, 'young', 1, 'saved', 'image', 10);
    // it says how many of the oldest it looked at (the window's "nothing of the 3 oldest")
    expect(engine.retention.preview(rules())).toMatchObject({
      tasks: 3,
      bytes: 30,
      atLeast: true,
      looked: 3,
    });
    expect(engine.retention.preview(rules(), Number.POSITIVE_INFINITY)).toEqual(
      expect.not.objectContaining({ atLeast: true }),
    );
    expect(engine.retention.preview(rules(), Number.POSITIVE_INFINITY)).toMatchObject({
      tasks: 5,
      bytes: 50,
    });
    // exactly as many old tasks as it looks at: all of them, no "at least"
    expect(engine.retention.preview(rules(), 5)).not.toHaveProperty('atLeast');
  });

  it('says how far a run is in the status (at its start, as it goes, at its end); the window need not wait for it', async () => {
    const clock = new TestClock(START);
    engine = await openEngine(join(dir, 'lib'), null, { clock, retention: { batchTasks: 2 } });
    for (let i = 0; i < 7; i++) put(engine, clock, `old-${i}`, 100 + i, 'saved', 'image', 10);
    const told: unknown[] = [];
    engine.onStatus((s) => told.push(s.retentionRun));
    const deletedAt = new Date(clock.now()).toISOString();
    // switched on from the window: answered at once, the run goes on after
    const view = await engine.retention.setRules(rules({ enabled: true }), { wait: false });
    expect(view.rules.enabled).toBe(true);
    expect(trashed(engine)).toEqual([]);
    expect(engine.status().retentionRun).toEqual({ deletedAt, tasks: 0, bytes: 0 });
    expect(told).toEqual([{ deletedAt, tasks: 0, bytes: 0 }]);
    await turn();
    const moved = trashed(engine).length;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(OLD.length);
    expect(engine.status().retentionRun).toEqual({ deletedAt, tasks: moved, bytes: moved * 10 });
    await engine.idle();
    expect(engine.status().retentionRun).toBeNull();
    expect(told.at(-1)).toBeNull();
    expect(engine.retention.view().lastRun).toMatchObject({ tasks: 7, deletedAt });
  });

  /** Puts `ids` in Recently deleted `days` ago, each with its own folder and file on disk. */
  it("keeps the library's size by kind from the sizes recorded at save", async () => {
    const clock = new TestClock(START);
    engine = await openEngine(join(dir, 'lib'), null, { clock });
    const size = () => engine!.retention.librarySize();
    expect(size()).toMatchObject({ bytes: 0, trashedBytes: 0 });
    put(engine, clock, 'song', 1, 'saved', 'audio', 1000);
    put(engine, clock, 'pic', 1, 'saved', 'image', 200);
    put(engine, clock, 'clip', 1, 'saved', 'file', 3000);
    expect(size()).toEqual({
      byKind: [
        { kind: 'image', tasks: 1, bytes: 200 },
        { kind: 'audio', tasks: 1, bytes: 1000 },
        { kind: 'video', tasks: 0, bytes: 0 },
        { kind: '3d', tasks: 0, bytes: 0 },
        { kind: 'file', tasks: 1, bytes: 3000 },
      ],
      bytes: 4200,
      trashedBytes: 0,
    });
    // a plain file whose saved bytes show a video is counted as one
    engine.store.updateOutput('clip', 0, { kind: 'video' });
    expect(size().byKind.find((k) => k.kind === 'video')).toEqual({ kind: 'video', tasks: 1, bytes: 3000 });
    expect(size().byKind.find((k) => k.kind === 'file')).toEqual({ kind: 'file', tasks: 0, bytes: 0 });
    // in Recently deleted it is still on disk; deleted forever it is not
    engine.trash({ ids: ['song'] });
    expect(size()).toMatchObject({ bytes: 4200, trashedBytes: 1000 });
    await engine.deleteForever({ ids: ['song'] });
    expect(size()).toMatchObject({ bytes: 3200, trashedBytes: 0 });
    expect(size().byKind.find((k) => k.kind === 'audio')).toEqual({ kind: 'audio', tasks: 0, bytes: 0 });
    expect(engine.store.integrityCheck()).toBe('ok');
  });
});
