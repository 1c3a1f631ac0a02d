import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidCursorError, type LibraryStore, toFtsQuery } from '../../src/core/store/index.ts';
import {
  familyOf,
  type ListQuery,
  TASK_TYPES,
  type TaskListItem,
  type TaskState,
} from '../../src/shared/index.ts';
import { allPages, faceSwapTask, imageTask, songTask, tempLibraries } from './store-fixtures.ts';

/** The family of the (one) catalog entry of a task type these tests store. */
const familyOfType = (taskType: string) => familyOf(TASK_TYPES.find((e) => e.taskType === taskType));

describe('listing a fixed library', () => {
  const libs = tempLibraries();
  let store: LibraryStore;
  /** What the store should hold, kept alongside it: [id, createdAt, favorite, state, taskType, text]. */
  const model: {
    id: string;
    createdAt: string;
    insertedAt: number;
    favorite: boolean;
    state: TaskState;
    taskType: string;
  }[] = [];

  beforeAll(() => {
    store = libs.open();
    const times = ['2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z'];
    const states: TaskState[] = ['queued', 'pending', 'saved', 'failed', 'saved', 'saved'];
    store.transaction(() => {
      for (let i = 0; i < 150; i++) {
        const make = [songTask, imageTask, faceSwapTask][i % 3] as typeof songTask;
        // Many tasks share each timestamp, and they are not inserted in time order.
        const createdAt = times[(i * 7) % 3] as string;
        const t = store.insertTask(
          make({ id: `t${String(i).padStart(3, '0')}`, createdAt, favorite: i % 5 === 0 }),
        );
        const state = states[i % states.length] as TaskState;
        if (state !== 'queued') store.transition(t.id, state);
        model.push({
          id: t.id,
          createdAt,
          insertedAt: i,
          favorite: i % 5 === 0,
          state,
          taskType: t.taskType,
        });
      }
    });
  });
  afterAll(() => libs.cleanup());

  const newest = (a: (typeof model)[number], b: (typeof model)[number]) =>
    a.createdAt === b.createdAt ? b.insertedAt - a.insertedAt : a.createdAt < b.createdAt ? 1 : -1;

  it('pages newest first with no duplicate and no gap, whatever the page size', () => {
    const expected = [...model].sort(newest).map((m) => m.id);
    for (const limit of [1, 7, 50, 149, 150, 200]) {
      const { ids, pages } = allPages(store, { limit });
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(150 / limit)));
    }
  });

  it('starredFirst puts favorites first, each group newest first', () => {
    const expected = [...model]
      .sort((a, b) => (a.favorite === b.favorite ? newest(a, b) : a.favorite ? -1 : 1))
      .map((m) => m.id);
    expect(allPages(store, { order: 'starredFirst', limit: 13 }).ids).toEqual(expected);
  });

  it('applies each filter, alone and together, on every page', () => {
    const check = (query: ListQuery, keep: (m: (typeof model)[number]) => boolean) => {
      const expected = [...model]
        .filter(keep)
        .sort(newest)
        .map((m) => m.id);
      expect(allPages(store, { ...query, limit: 11 }).ids).toEqual(expected);
      expect(store.countTasks(query).total).toBe(expected.length);
    };
    check({ family: 'song' }, (m) => familyOfType(m.taskType) === 'song');
    check({ taskType: 'face-swap' }, (m) => m.taskType === 'face-swap');
    check({ states: ['saved'] }, (m) => m.state === 'saved');
    check({ states: ['failed', 'queued', 'failed'] }, (m) => m.state === 'failed' || m.state === 'queued');
    check({ states: [] }, () => false);
    check({ favorite: true }, (m) => m.favorite);
    check({ favorite: false }, (m) => !m.favorite);
    check({ createdFrom: '2025-01-02T00:00:00Z' }, (m) => m.createdAt >= '2025-01-02');
    check({ createdTo: '2025-01-02T00:00:00Z' }, (m) => m.createdAt < '2025-01-02');
    check(
      {
        createdFrom: '2025-01-02T00:00:00+00:00',
        createdTo: '2025-01-03T00:00:00.000Z',
        states: ['saved', 'failed'],
        family: 'image-edit',
      },
      (m) =>
        m.createdAt.startsWith('2025-01-02') &&
        ['saved', 'failed'].includes(m.state) &&
        m.taskType === 'image-edit',
    );
  });

  it('counts by state, with and without filters', () => {
    const counts = store.countTasks();
    expect(counts.total).toBe(150);
    expect(counts.byState).toMatchObject({ queued: 25, pending: 25, saved: 75, failed: 25, cancelled: 0 });
    const some = store.countTasks({ states: ['saved', 'failed'], family: 'song' });
    expect(Object.keys(some.byState).sort()).toEqual(['failed', 'saved']);
    expect(some.total).toBe(
      model.filter((m) => m.taskType === 'txt2audio' && ['saved', 'failed'].includes(m.state)).length,
    );
    // The running totals and a real count agree (the time range forces the real count).
    const fromTotals = store.countTasks({ favorite: true });
    const counted = store.countTasks({ favorite: true, createdFrom: '2000-01-01T00:00:00Z' });
    expect(counted).toEqual(fromTotals);
    expect(store.countInStates(['saved', 'failed'])).toBe(100);
    expect(store.countInStates([])).toBe(0);
  });

  it('lists items with outputs but without inputs', () => {
    const item = store.listTasks({ taskType: 'face-swap', limit: 1 }).items[0] as TaskListItem;
    expect(item).toBeDefined();
    expect('inputs' in item).toBe(false);
    expect(item.outputs).toEqual([]);
    expect(store.getTask(item.id)?.inputs).toHaveLength(2);
  });

  it('refuses a forged cursor or one made for the other order', () => {
    const page = store.listTasks({ limit: 5 });
    expect(page.nextCursor).not.toBeNull();
    expect(() => store.listTasks({ order: 'starredFirst', cursor: page.nextCursor })).toThrow(
      InvalidCursorError,
    );
    expect(() => store.listTasks({ cursor: 'not-a-cursor' })).toThrow(InvalidCursorError);
    expect(() => store.listTasks({ cursor: Buffer.from('{"v":1}').toString('base64url') })).toThrow(
      InvalidCursorError,
    );
    expect(() => store.listTasks({ limit: 0 })).toThrow(/Page size/);
    expect(store.listTasks({ limit: 5000 }).items).toHaveLength(150);
  });

  it('gives the same pages as a model for random filters (property)', () => {
    const stateArb = fc.constantFrom<TaskState>('queued', 'pending', 'saved', 'failed', 'cancelled');
    fc.assert(
      fc.property(
        fc.record(
          {
            family: fc.constantFrom('song', 'face-swap', 'image-edit', 'other' as const),
            states: fc.uniqueArray(stateArb, { maxLength: 3 }),
            favorite: fc.boolean(),
            createdFrom: fc.constantFrom('2025-01-02T00:00:00.000Z', '2025-01-01T12:00:00.000Z'),
          },
          { requiredKeys: [] },
        ),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('newest' as const, 'starredFirst' as const),
        (filter, limit, order) => {
          const keep = (m: (typeof model)[number]) =>
            (filter.family === undefined || familyOfType(m.taskType) === filter.family) &&
            (filter.states === undefined || filter.states.includes(m.state)) &&
            (filter.favorite === undefined || m.favorite === filter.favorite) &&
            (filter.createdFrom === undefined || m.createdAt >= filter.createdFrom);
          const sorted = [...model].filter(keep).sort((a, b) => {
            if (order === 'starredFirst' && a.favorite !== b.favorite) return a.favorite ? -1 : 1;
            return newest(a, b);
          });
          expect(allPages(store, { ...filter, limit, order }).ids).toEqual(sorted.map((m) => m.id));
          expect(store.countTasks(filter).total).toBe(sorted.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('search', () => {
  const libs = tempLibraries();
  let store: LibraryStore;
  const ids: Record<string, string> = {};

  beforeAll(() => {
    store = libs.open();
    ids.jazz = store.insertTask(
      songTask({ title: 'Night drive', style: 'smooth jazz saxophone', lyrics: '[verse] city lights' }),
    ).id;
    ids.rock = store.insertTask(
      songTask({ title: 'Garage', style: 'punk rock', lyrics: '[chorus] jazzercise all day' }),
    ).id;
    ids.cafe = store.insertTask(imageTask({ title: 'Café terrace', prompt: 'a cosy café at dusk' })).id;
    ids.bike = store.insertTask(
      imageTask({ title: 'Bikes', prompt: 'red bicycle, "quoted" words AND more' }),
    ).id;
    ids.swap = store.insertTask(faceSwapTask({ title: 'Swap with Saxophone player' })).id;
  });
  afterAll(() => libs.cleanup());

  const found = (search: string, extra: ListQuery = {}) =>
    store
      .listTasks({ search, ...extra })
      .items.map((i) => i.id)
      .sort();
  const sortedIds = (...names: string[]) => names.map((n) => ids[n]).sort();

  it('finds words in prompts, lyrics and titles', () => {
    expect(found('smooth')).toEqual(sortedIds('jazz'));
    expect(found('city lights')).toEqual(sortedIds('jazz'));
    expect(found('garage')).toEqual(sortedIds('rock'));
    expect(found('blurry')).toEqual(sortedIds('cafe', 'bike')); // negative prompt
    expect(found('saxophone')).toEqual(sortedIds('jazz', 'swap'));
  });

  it('matches the last word as a prefix, the others whole, all of them required', () => {
    expect(found('jaz')).toEqual(sortedIds('jazz', 'rock'));
    expect(found('jazz')).toEqual(sortedIds('jazz', 'rock'));
    expect(found('jazz saxo')).toEqual(sortedIds('jazz'));
    expect(found('jaz saxophone')).toEqual([]);
    expect(found('sax', { family: 'face-swap' })).toEqual(sortedIds('swap'));
    expect(found('sax', { order: 'starredFirst' })).toEqual(sortedIds('jazz', 'swap'));
  });

  it('ignores case and accents', () => {
    expect(found('CAFE')).toEqual(sortedIds('cafe'));
    expect(found('café')).toEqual(sortedIds('cafe'));
  });

  it('treats quotes and FTS operators as plain text', () => {
    expect(found('"quoted"')).toEqual(sortedIds('bike'));
    expect(found('AND more')).toEqual(sortedIds('bike'));
    expect(found('   ')).toHaveLength(5);
    expect(found('*')).toHaveLength(5);
  });

  it('never throws on hostile input', () => {
    const hostile = [
      '"',
      'AND (',
      '*',
      'NEAR(',
      'NEAR(a b, 2)',
      'a OR',
      '-',
      '^x',
      'title:x',
      '{a b}: c',
      "'; DROP TABLE tasks; --",
      '""""',
      '(((',
      'a"b',
      '\u0000',
      '🎵🎵',
    ];
    for (const text of hostile) {
      expect(() => store.listTasks({ search: text }), text).not.toThrow();
      expect(() => store.countTasks({ search: text }), text).not.toThrow();
    }
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (a, b) => {
          store.listTasks({ search: a });
          store.listTasks({ search: `${b} ${a}`, order: 'starredFirst' });
          store.countTasks({ search: a });
        },
      ),
      { numRuns: 300 },
    );
    expect(store.countTasks().total).toBe(5);
  });

  it('a count the totals cannot answer stops past the cap and says so; the totals stay exact', () => {
    const capped = libs.open(libs.dir(), { countCap: 2 });
    capped.transaction(() => {
      for (let i = 0; i < 4; i++) capped.insertTask(songTask({ title: `Sax ${i}` }));
    });
    expect(capped.countTasks({ search: 'sax' })).toMatchObject({ total: 2, capped: true });
    expect(capped.countTasks({ search: 'sax 3' })).toEqual({ total: 1, byState: expect.any(Object) });
    expect(capped.countTasks({ model: 'ace-step' })).toMatchObject({ total: 2, capped: true });
    expect(capped.countTasks({ family: 'song' })).toEqual({ total: 4, byState: expect.any(Object) });
    expect(capped.countTasks()).not.toHaveProperty('capped');
  });

  it('a last word standing for many terms finds the same tasks as one standing for a few', () => {
    const many = libs.open(libs.dir());
    const words = Array.from({ length: 20 }, (_, i) => `quill${String.fromCharCode(97 + i)}`);
    many.transaction(() => {
      for (const word of words) many.insertTask(imageTask({ title: word, prompt: `ink ${word}` }));
    });
    // 'quill' stands for 20 terms (the prefix stays), 'quilla' for one (named), 'QUILLT' for one,
    // 'qu' is a prefix the index keeps
    expect(many.listTasks({ search: 'quill', limit: 200 }).items).toHaveLength(20);
    expect(many.countTasks({ search: 'ink quill' }).total).toBe(20);
    expect(many.listTasks({ search: 'ink quilla' }).items.map((i) => i.title)).toEqual(['quilla']);
    expect(many.countTasks({ search: 'QUILLT' }).total).toBe(1);
    expect(many.listTasks({ search: 'quillz' }).items).toEqual([]);
    expect(many.countTasks({ search: 'qu' }).total).toBe(20);
  });

  it('pages through search results', () => {
    const all = store.listTasks({ search: 'a', limit: 200 }).items.map((i) => i.id);
    const paged = allPages(store, { search: 'a', limit: 1 }).ids;
    expect(paged).toEqual(all);
    expect(store.countTasks({ search: 'sax' }).total).toBe(2);
  });
});

describe('toFtsQuery', () => {
  it('quotes every word and makes the last one a prefix', () => {
    expect(toFtsQuery('lo-fi  piano')).toBe('"lo-fi" "piano"*');
    expect(toFtsQuery('say "hi"')).toBe('"say" """hi"""*');
    expect(toFtsQuery(' * ( ) ')).toBeNull();
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery('a\u0000b')).toBe('"a" "b"*');
  });

  it("names a plain last word by the index's terms it stands for; keeps the prefix for the rest", () => {
    const termsOf = (prefix: string) =>
      (({ pi: ['piano'], ro: ['rock', 'rocket'], q: null })[prefix] as
        | readonly string[]
        | null
        | undefined) ?? [];
    expect(toFtsQuery('lo-fi Pi', termsOf)).toBe('"lo-fi" AND "piano"');
    expect(toFtsQuery('RO', termsOf)).toBe('("rock" OR "rocket")');
    expect(toFtsQuery('jazz q', termsOf)).toBe('"jazz" "q"*');
    expect(toFtsQuery('zz', termsOf)).toBe('"zz"*');
    expect(toFtsQuery('café', termsOf)).toBe('"café"*');
  });
});

describe('unreadable rows', () => {
  const libs = tempLibraries();
  afterEach(() => libs.cleanup());

  it('are reported by id and skipped, never failing the whole list', () => {
    const dir = libs.dir();
    const reported: string[] = [];
    const store = libs.open(dir, { onUnreadableTask: (e) => reported.push(e.taskId) });
    store.insertTask(songTask({ id: 'good-1', createdAt: '2025-01-01T00:00:00Z' }));
    store.insertTask(songTask({ id: 'broken', createdAt: '2025-01-02T00:00:00Z' }));
    store.insertTask(songTask({ id: 'good-2', createdAt: '2025-01-03T00:00:00Z' }));
    store.insertTask(songTask({ id: 'odd-state', createdAt: '2025-01-04T00:00:00Z' }));
    const raw = libs.raw(dir);
    raw.exec("UPDATE tasks SET request_json = '{not json' WHERE id = 'broken'");
    raw.exec("UPDATE tasks SET state = 'teleported' WHERE id = 'odd-state'");

    const page = store.listTasks({ limit: 2 });
    expect(page.items.map((i) => i.id)).toEqual(['good-2']);
    expect(page.unreadable).toEqual([
      { id: 'odd-state', message: expect.stringMatching(/Task odd-state .*state/) },
    ]);
    expect(page.nextCursor).not.toBeNull();
    const everything = allPages(store, { limit: 1 });
    expect(everything.ids).toEqual(['good-2', 'good-1']);

    expect(() => store.getTask('broken')).toThrow(/Task broken .*request_json is not valid JSON/);
    expect(() => store.getTask('odd-state')).toThrow(/Task odd-state .*state/);
    expect(store.nextQueued(10).map((t) => t.id)).toEqual(['good-1', 'good-2']);
    expect(reported).toContain('broken');
    // A broken task can still be deleted.
    expect(store.deleteTask('broken').deleted).toBe(true);
  });
});
