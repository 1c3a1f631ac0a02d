/**
 * The library list's orders besides newest first (oldest, title, costliest, longest), on a real
 * SQLite file: every page in order, no duplicate and no gap whatever the page size, ties broken
 * the same way on every page, with filters and search, and cursors that survive changes.
 */

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE_NAME,
  InvalidCursorError,
  type LibraryStore,
  MIGRATIONS,
} from '../../src/core/store/index.ts';
import { runMigrations } from '../../src/core/store/migration-runner.ts';
import { familyOf, LIST_ORDERS, type ListOrder, TASK_TYPES, type TaskState } from '../../src/shared/index.ts';
import { allPages, faceSwapTask, imageTask, songTask, tempLibraries } from './store-fixtures.ts';

/** The family of the (one) catalog entry of a task type these tests store. */
const familyOfType = (taskType: string) => familyOf(TASK_TYPES.find((e) => e.taskType === taskType));

interface Modelled {
  id: string;
  createdAt: string;
  inserted: number;
  title: string;
  favorite: boolean;
  state: TaskState;
  taskType: string;
  cost: number;
  length: number | null;
  text: string;
}

/** SQLite's NOCASE: ASCII letters folded, everything else compared as is (code points here). */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const byNumber = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const oldestFirst = (a: Modelled, b: Modelled) =>
  byText(a.createdAt, b.createdAt) || byNumber(a.inserted, b.inserted);
const newestFirst = (a: Modelled, b: Modelled) => -oldestFirst(a, b);

const COMPARE: Record<ListOrder, (a: Modelled, b: Modelled) => number> = {
  newest: newestFirst,
  oldest: oldestFirst,
  starredFirst: (a, b) => byNumber(Number(b.favorite), Number(a.favorite)) || newestFirst(a, b),
  title: (a, b) => byText(nocase(a.title), nocase(b.title)) || oldestFirst(a, b),
  costliest: (a, b) => byNumber(b.cost, a.cost) || newestFirst(a, b),
  longest: (a, b) => byNumber(b.length ?? -1, a.length ?? -1) || newestFirst(a, b),
};

const TITLES = ['apple', 'Banana', 'banana', 'Cherry', 'apple pie', 'Äpfel', 'élan', 'zebra', 'Apple'];
const TIMES = ['2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z'];
const ESTIMATES = [10_000, 25_000, 25_000, 40_000];
const LENGTHS = [null, 30, 30, 95.5, 12.25, null, 180];

describe('list orders on a fixed library', () => {
  const libs = tempLibraries();
  let store: LibraryStore;
  const model: Modelled[] = [];

  beforeAll(() => {
    store = libs.open();
    store.transaction(() => {
      for (let i = 0; i < 140; i++) {
        const make = [songTask, imageTask, faceSwapTask][i % 3] as typeof songTask;
        // ties everywhere: titles, creation times, costs and lengths repeat, inserted out of order
        const createdAt = TIMES[(i * 7) % 3] as string;
        const title = TITLES[(i * 5) % TITLES.length] as string;
        const estimate = ESTIMATES[i % ESTIMATES.length] as number;
        const t = store.insertTask(
          make({
            id: `t${String(i).padStart(3, '0')}`,
            createdAt,
            title,
            favorite: i % 6 === 0,
            estimateMicros: estimate,
          }),
        );
        let cost = estimate;
        let state: TaskState = 'queued';
        if (i % 5 === 1) {
          // never reached the service: costs nothing
          state = 'cancelled';
          store.transition(t.id, state);
          cost = 0;
        } else if (i % 5 === 2) {
          // reported usage replaces the estimate
          state = 'saved';
          const consume = [5_000, 25_000, 90_000][i % 3] as number;
          store.transition(t.id, state, {
            patch: { remoteId: `r-${i}`, usage: { type: 'point', frozen: 0, consume } },
          });
          cost = consume;
        } else if (i % 5 === 3) {
          state = 'failed';
          store.transition(t.id, state, { patch: { remoteId: `r-${i}` } });
        }
        const length = LENGTHS[i % LENGTHS.length] ?? null;
        if (length !== null) {
          // two outputs: the task's length is the longer one
          store.replaceOutputs(t.id, [
            { kind: 'audio', url: `https://example.test/${i}-a.mp3`, field: 'audio' },
            { kind: 'audio', url: `https://example.test/${i}-b.mp3`, field: 'audio' },
          ]);
          store.updateOutput(t.id, 0, { state: 'saved', durationSeconds: length / 2 });
          store.updateOutput(t.id, 1, { state: 'saved', durationSeconds: length });
        }
        const text = t.request.input.prompt ?? t.request.input.style_prompt ?? '';
        model.push({
          id: t.id,
          createdAt,
          inserted: i,
          title,
          favorite: i % 6 === 0,
          state,
          taskType: t.taskType,
          cost,
          length,
          text: String(text),
        });
      }
    });
  });
  afterAll(() => libs.cleanup());

  const expected = (order: ListOrder, keep: (m: Modelled) => boolean = () => true) =>
    model
      .filter(keep)
      .sort(COMPARE[order])
      .map((m) => m.id);

  it.each(['oldest', 'title', 'costliest', 'longest'] as const)(
    '%s: every page in order, no duplicate and no gap, whatever the page size',
    (order) => {
      const want = expected(order);
      for (const limit of [1, 2, 7, 13, 50, 139, 140, 200]) {
        const { ids, pages } = allPages(store, { order, limit });
        expect(ids, `limit ${limit}`).toEqual(want);
        expect(pages).toBe(Math.max(1, Math.ceil(140 / limit)));
      }
    },
  );

  it('title: A to Z without regard to case, equal titles oldest first', () => {
    const titles = allPages(store, { order: 'title', limit: 9 }).ids.map(
      (id) => model.find((m) => m.id === id)?.title,
    );
    const firstOf = (t: string) => titles.indexOf(t);
    expect(firstOf('apple')).toBeLessThan(firstOf('apple pie'));
    expect(firstOf('apple pie')).toBeLessThan(firstOf('Banana'));
    expect(titles.filter((t) => nocase(t ?? '') === 'banana')).toHaveLength(
      model.filter((m) => nocase(m.title) === 'banana').length,
    );
    // 'Apple' and 'apple' are one title to the order: their tasks interleave by creation
    const apples = model.filter((m) => nocase(m.title) === 'apple').sort(oldestFirst);
    const listed = allPages(store, { order: 'title', limit: 4 }).ids;
    expect(listed.filter((id) => apples.some((a) => a.id === id))).toEqual(apples.map((a) => a.id));
    expect(titles.at(-1)).toBe('élan');
  });

  it('costliest: reported usage over the estimate, nothing for a task never created', () => {
    const page = store.listTasks({ order: 'costliest', limit: 200 }).items;
    expect(page[0]?.usage?.consume).toBe(90_000);
    const last = page.at(-1);
    expect(last?.state).toBe('cancelled');
    expect(last?.remoteId).toBeNull();
  });

  it('longest: the longest output first, tasks without a length last (newest first among them)', () => {
    const page = store.listTasks({ order: 'longest', limit: 200 }).items;
    const lengths = page.map((t) => Math.max(-1, ...t.outputs.map((o) => o.durationSeconds ?? -1)));
    expect(lengths[0]).toBe(180);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    const without = model.filter((m) => m.length === null).sort(newestFirst);
    expect(page.slice(-without.length).map((t) => t.id)).toEqual(without.map((m) => m.id));
  });

  it('every order with filters, search and random page sizes gives the model pages (property)', () => {
    const stateArb = fc.constantFrom<TaskState>('queued', 'saved', 'failed', 'cancelled');
    fc.assert(
      fc.property(
        fc.record(
          {
            family: fc.constantFrom('song', 'face-swap', 'image-edit' as const),
            states: fc.uniqueArray(stateArb, { maxLength: 3 }),
            favorite: fc.boolean(),
            createdFrom: fc.constantFrom('2025-01-02T00:00:00.000Z', '2025-01-01T12:00:00.000Z'),
            search: fc.constantFrom('piano', 'bicycle'),
          },
          { requiredKeys: [] },
        ),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(...LIST_ORDERS),
        (filter, limit, order) => {
          const keep = (m: Modelled) =>
            (filter.family === undefined || familyOfType(m.taskType) === filter.family) &&
            (filter.states === undefined || filter.states.includes(m.state)) &&
            (filter.favorite === undefined || m.favorite === filter.favorite) &&
            (filter.createdFrom === undefined || m.createdAt >= filter.createdFrom) &&
            (filter.search === undefined || m.text.includes(filter.search));
          expect(allPages(store, { ...filter, limit, order }).ids).toEqual(expected(order, keep));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a cursor made for another order, or one whose key does not fit the order', () => {
    for (const order of LIST_ORDERS) {
      const page = store.listTasks({ order, limit: 3 });
      expect(page.nextCursor).not.toBeNull();
      for (const other of LIST_ORDERS.filter((o) => o !== order)) {
        expect(() => store.listTasks({ order: other, cursor: page.nextCursor })).toThrow(InvalidCursorError);
      }
    }
    const forged = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
    expect(() =>
      store.listTasks({ order: 'title', cursor: forged({ v: 2, o: 'title', k: 5, s: 1 }) }),
    ).toThrow(InvalidCursorError);
    expect(() =>
      store.listTasks({ order: 'costliest', cursor: forged({ v: 2, o: 'costliest', k: 'x', s: 1 }) }),
    ).toThrow(InvalidCursorError);
    expect(() =>
      store.listTasks({ order: 'oldest', cursor: forged({ v: 2, o: 'oldest', k: 3, s: 1 }) }),
    ).toThrow(InvalidCursorError);
  });
});

describe('cursors of the keyed orders across changes', () => {
  const libs = tempLibraries();
  afterEach(() => libs.cleanup());

  it.each(['title', 'costliest', 'longest'] as const)(
    '%s: deleting the last task of a page does not move the next page',
    (order) => {
      const store = libs.open();
      for (let i = 0; i < 12; i++) {
        const t = store.insertTask(
          songTask({
            id: `s${i}`,
            title: `Song ${i % 4}`,
            estimateMicros: (i % 3) * 1000,
            createdAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
          }),
        );
        store.replaceOutputs(t.id, [{ kind: 'audio', url: 'https://example.test/a.mp3', field: 'audio' }]);
        store.updateOutput(t.id, 0, { durationSeconds: (i % 3) * 10 });
      }
      const everything = allPages(store, { order, limit: 200 }).ids;
      const first = store.listTasks({ order, limit: 5 });
      expect(first.items.map((t) => t.id)).toEqual(everything.slice(0, 5));
      store.deleteTask(everything[4] as string);
      expect(allPages(store, { order, limit: 5, cursor: first.nextCursor }).ids).toEqual(everything.slice(5));
    },
  );

  it('title: titles longer than the cursor holds page exactly across ties, and on after a delete', () => {
    const store = libs.open();
    const long = 'ü'.repeat(150);
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      // three long titles that agree on their first 150 letters, each on three tasks
      const title = `${long}${['b', 'a', 'c'][i % 3]}`;
      ids.push(
        store.insertTask(
          songTask({ id: `l${i}`, title, createdAt: new Date(Date.UTC(2025, 0, 1) + i).toISOString() }),
        ).id,
      );
    }
    store.insertTask(songTask({ id: 'short', title: 'a', createdAt: '2025-02-01T00:00:00Z' }));
    const want = ['short', 'l1', 'l4', 'l7', 'l0', 'l3', 'l6', 'l2', 'l5', 'l8'];
    const paged = allPages(store, { order: 'title', limit: 1 });
    expect(paged.ids).toEqual(want);
    expect(paged.pages).toBe(10);
    // every cursor stays short, whatever the title
    let cursor: string | null = null;
    for (let i = 0; i < 4; i++) {
      const page = store.listTasks({ order: 'title', limit: 1, cursor });
      cursor = page.nextCursor;
      expect(cursor?.length ?? 0).toBeLessThan(1000);
    }
    // four pages ended on l7, whose cursor holds only the start of its title: delete it and go on
    store.deleteTask('l7');
    // nothing after it is lost; the tasks before it that share the cut start (l1, l4) come again
    expect(allPages(store, { order: 'title', limit: 2, cursor }).ids).toEqual([
      'l1',
      'l4',
      'l0',
      'l3',
      'l6',
      'l2',
      'l5',
      'l8',
    ]);
  });

  it('longest follows the outputs: a new duration, a replaced output list, a deleted task', () => {
    const store = libs.open();
    const a = store.insertTask(songTask({ id: 'a', createdAt: '2025-01-01T00:00:00Z' }));
    const b = store.insertTask(songTask({ id: 'b', createdAt: '2025-01-02T00:00:00Z' }));
    store.insertTask(imageTask({ id: 'c', createdAt: '2025-01-03T00:00:00Z' }));
    const order = () => store.listTasks({ order: 'longest' }).items.map((t) => t.id);
    expect(order()).toEqual(['c', 'b', 'a']);
    store.replaceOutputs(a.id, [{ kind: 'audio', url: 'https://example.test/a.mp3', field: 'audio' }]);
    expect(order()).toEqual(['c', 'b', 'a']);
    store.updateOutput(a.id, 0, { state: 'saved', durationSeconds: 61 });
    expect(order()).toEqual(['a', 'c', 'b']);
    store.replaceOutputs(b.id, [{ kind: 'audio', url: 'https://example.test/b.mp3', field: 'audio' }]);
    store.updateOutput(b.id, 0, { durationSeconds: 120 });
    expect(order()).toEqual(['b', 'a', 'c']);
    store.updateOutput(b.id, 0, { durationSeconds: 30 });
    expect(order()).toEqual(['a', 'b', 'c']);
    store.replaceOutputs(a.id, []);
    expect(order()).toEqual(['b', 'c', 'a']);
    store.deleteTask(b.id);
    expect(order()).toEqual(['c', 'a']);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('oldest with a search walks the matches oldest first, page by page', () => {
    const store = libs.open();
    for (let i = 0; i < 10; i++) {
      store.insertTask(
        songTask({
          id: `p${i}`,
          style: i % 2 ? 'piano' : 'drums',
          createdAt: new Date(Date.UTC(2025, 0, 1) + (9 - i) * 1000).toISOString(),
        }),
      );
    }
    expect(allPages(store, { order: 'oldest', search: 'pia', limit: 2 }).ids).toEqual([
      'p9',
      'p7',
      'p5',
      'p3',
      'p1',
    ]);
  });
});

describe('migration 3 on a library made before it', () => {
  const libs = tempLibraries();
  afterEach(() => libs.cleanup());

  it('fills in the length of tasks whose outputs already had one', () => {
    const dir = libs.dir();
    const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    runMigrations(db, MIGRATIONS.slice(0, 2), 'test');
    const insert =
      db.prepare(`INSERT INTO tasks (id, seq, model, task_type, family, title, state, request_json,
      favorite, estimate_micros, created_at, updated_at) VALUES (?, ?, 'm', 'txt2audio', 'song', ?, 'saved',
      '{"model":"m","task_type":"txt2audio","input":{}}', 0, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`);
    insert.run('short', 1, 'zz', 5);
    insert.run('long', 2, 'Aa', 1);
    insert.run('none', 3, 'mm', 9);
    const output = db.prepare(
      "INSERT INTO task_outputs (task_id, idx, kind, url, field, state, duration_seconds) VALUES (?, ?, 'audio', 'u', 'f', 'saved', ?)",
    );
    output.run('short', 0, 20);
    output.run('long', 0, 10);
    output.run('long', 1, 200);
    output.run('none', 0, null);
    db.close();

    const store = libs.open(dir);
    expect(store.listTasks({ order: 'longest' }).items.map((t) => t.id)).toEqual(['long', 'short', 'none']);
    expect(store.listTasks({ order: 'title' }).items.map((t) => t.id)).toEqual(['long', 'none', 'short']);
    expect(store.listTasks({ order: 'costliest' }).items.map((t) => t.id)).toEqual(['none', 'short', 'long']);
    expect(store.integrityCheck()).toBe('ok');
  });
});
