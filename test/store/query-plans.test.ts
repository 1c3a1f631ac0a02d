/**
 * Each query the store runs must walk an index and stop, never scan the table or sort every row,
 * so that it costs the same with 100 or 100,000 tasks. Checked with EXPLAIN QUERY PLAN on the very
 * SQL the store builds, before and after ANALYZE (which `close()` may run through PRAGMA optimize).
 */
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCountQuery } from '../../src/core/store/count-query.ts';
import { FIXED_SQL } from '../../src/core/store/fixed-statements.ts';
import type { PagePosition } from '../../src/core/store/list-cursor.ts';
import {
  type BuiltQuery,
  buildListQuery,
  buildOldestInStatesQuery,
} from '../../src/core/store/list-query.ts';
import { RETENTION_SQL } from '../../src/core/store/retention-records.ts';
import { MAX_NAMED_TERMS, prefixTermsOf } from '../../src/core/store/search-terms.ts';
import { StatementCache } from '../../src/core/store/statement-cache.ts';
import type { ListOrder, ListQuery, TaskFilter } from '../../src/shared/index.ts';
import { faceSwapTask, imageTask, songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
let raw: DatabaseSync;

beforeAll(() => {
  const dir = libs.dir();
  const store = libs.open(dir);
  store.transaction(() => {
    for (let i = 0; i < 300; i++) {
      const make = [songTask, imageTask, faceSwapTask][i % 3] as typeof songTask;
      const t = store.insertTask(
        make({ createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() }),
      );
      if (i % 4 === 0) store.transition(t.id, 'saved', { patch: { endedAt: '2025-02-01T00:00:00Z' } });
      if (i % 10 === 0) store.transition(t.id, 'processing', { patch: { nextPollAt: i } });
    }
  });
  raw = libs.raw(dir);
});
afterAll(() => libs.cleanup());

function plan(query: BuiltQuery | { sql: string; params: Record<string, unknown> }): string[] {
  return raw
    .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .all(query.params as never)
    .map((r) => String(r.detail));
}

/** No full scan of a table and no sort, except sorting the few rows each UNION ALL arm returns. */
function expectIndexedWalk(steps: string[]): void {
  const merged = steps.some((s) => s.startsWith('MERGE (UNION ALL)'));
  for (const step of steps) {
    expect(step, steps.join(' | ')).not.toMatch(/^SCAN (tasks|t|task_\w+)$/);
    if (!merged) expect(step, steps.join(' | ')).not.toMatch(/TEMP B-TREE/);
  }
}

const AT: PagePosition = { key: 1, seq: 123_456_789, cut: false };
const LIST_SHAPES: [string, ListQuery][] = [
  ['newest', {}],
  ['starredFirst', { order: 'starredFirst' }],
  ['favorite', { favorite: true }],
  ['family', { family: 'song' }],
  ['family with a type of another family', { family: 'face-swap' }],
  ['family less its types that make something else', { family: 'other' }],
  ['family and states', { family: 'song', states: ['saved', 'failed'] }],
  ['family in an order with a key', { family: 'song', order: 'title' }],
  ['taskType', { taskType: 'face-swap' }],
  ['makes (one walk per entry)', { makes: 'image' }],
  ['model and states', { model: 'ace-step', states: ['saved', 'failed'] }],
  ['one state', { states: ['saved'] }],
  ['three states', { states: ['saved', 'failed', 'queued'] }],
  ['time range', { createdFrom: '2025-01-01T00:00:00Z', createdTo: '2025-01-02T00:00:00Z' }],
  ['search', { search: 'piano' }],
  ['search with filters', { search: 'piano', family: 'song', states: ['saved', 'queued'] }],
];

const ORDER_SHAPES: [string, ListOrder, string][] = [
  ['oldest', 'oldest', 'sqlite_autoindex_tasks_2'],
  ['title', 'title', 'tasks_by_title'],
  ['costliest', 'costliest', 'tasks_by_cost'],
  ['longest', 'longest', 'tasks_by_length'],
  ['starredFirst', 'starredFirst', 'tasks_by_favorite'],
];

describe.each([
  ['without statistics', false],
  ['after ANALYZE', true],
])('query plans %s', (_label, analyze) => {
  beforeAll(() => {
    if (analyze) raw.exec('ANALYZE');
  });

  it.each(LIST_SHAPES)('listTasks %s: first and later pages walk an index', (_name, query) => {
    for (const at of [null, AT]) {
      const built = buildListQuery(query, at, 50);
      expect(built).not.toBeNull();
      expectIndexedWalk(plan(built as BuiltQuery));
    }
  });

  it.each(ORDER_SHAPES)(
    'listTasks in order %s walks its index, and a later page starts from a range of it',
    (_name, order, index) => {
      const first = plan(buildListQuery({ order }, null, 50) as BuiltQuery);
      expect(first.join(' | ')).toContain(`USING INDEX ${index}`);
      expectIndexedWalk(first);
      const ats: PagePosition[] = [{ key: order === 'title' ? 'x' : 1, seq: 5, cut: false }];
      if (order === 'title') ats.push({ key: 'x', seq: 5, cut: true });
      for (const at of ats) {
        const later = plan(buildListQuery({ order }, at, 50) as BuiltQuery);
        expect(later[0], later.join(' | ')).toMatch(new RegExp(`^SEARCH tasks USING INDEX ${index} \\(`));
        expectIndexedWalk(later);
      }
      const searched = plan(buildListQuery({ order, search: 'piano' }, null, 50) as BuiltQuery);
      expect(searched.join(' | ')).toContain(order === 'oldest' ? 'SCAN tasks_fts' : `USING INDEX ${index}`);
      expectIndexedWalk(searched);
    },
  );

  it.each(ORDER_SHAPES.filter(([, order]) => order !== 'oldest'))(
    'listTasks in order %s with many matches walks the order index, checking the filters',
    (_name, order, index) => {
      const filters: ListQuery[] = [
        { family: 'song' },
        { family: 'face-swap', states: ['saved', 'failed'] },
        { states: ['saved', 'failed', 'queued'] },
        { favorite: false, taskType: 'face-swap', states: ['queued'] },
      ];
      for (const filter of filters) {
        for (const at of [null, { key: order === 'title' ? 'x' : 1, seq: 5, cut: false }]) {
          const steps = plan(buildListQuery({ ...filter, order }, at, 50, true) as BuiltQuery);
          expect(steps.join(' | ')).toContain(`USING INDEX ${index}`);
          expectIndexedWalk(steps);
        }
      }
    },
  );

  it('listTasks by Makes or Model walks tasks_by_entry once per entry, the other filters checked', () => {
    for (const filter of [{ makes: 'video' }, { model: 'ace-step', states: ['saved'] }] as ListQuery[]) {
      const steps = plan(buildListQuery(filter, null, 50) as BuiltQuery);
      expect(steps.join(' | ')).toContain('USING INDEX tasks_by_entry (entry_id=?)');
      expect(
        steps.filter((s) => /USING INDEX tasks_by_state/.test(s)),
        steps.join(' | '),
      ).toEqual([]);
      expectIndexedWalk(steps);
    }
  });

  it('listTasks with search walks the full-text index newest first, without sorting the matches', () => {
    const steps = plan(buildListQuery({ search: 'piano' }, null, 50) as BuiltQuery);
    expect(steps[0]).toMatch(/^SCAN tasks_fts VIRTUAL TABLE/);
    expect(steps.join(' | ')).not.toMatch(/TEMP B-TREE/);
  });

  it("a search's last word is named by the index's terms it stands for: FTS5 walks them newest first, no prefix merged", () => {
    const termsOf = prefixTermsOf(new StatementCache(raw));
    // 'pian' stands for 'piano' alone here, 'wind' for 'window'; the other words stay whole; a
    // prefix of up to three characters is kept in the index as one list (migration 22)
    expect(termsOf('pian')).toEqual(['piano']);
    expect(termsOf('wind')).toEqual(['window']);
    expect(termsOf('zzzz')).toEqual([]);
    expect(termsOf('pia')).toBeNull();
    for (const [search, match] of [
      ['Pian', '"piano"'],
      ['lo-fi WIND', '"lo-fi" AND "window"'],
      ['r', '"r"*'],
      ['zzzz', '"zzzz"*'],
      ['pian-', '"pian-"*'],
    ]) {
      const list = buildListQuery({ search }, null, 50, false, false, termsOf) as BuiltQuery;
      expect(list.params.match, search).toBe(match);
      expect(plan(list)[0]).toMatch(/^SCAN tasks_fts VIRTUAL TABLE/);
      expect(plan(list).join(' | ')).not.toMatch(/TEMP B-TREE/);
      expect((buildCountQuery({ search }, 1_001, termsOf) as BuiltQuery).params.match, search).toBe(match);
    }
    expect(MAX_NAMED_TERMS).toBeGreaterThanOrEqual(2);
  });

  it('one task type by title walks tasks_by_type_title and stops, never the whole title index', () => {
    for (const query of [
      { taskType: 'face-swap', order: 'title' },
      { taskType: 'txt2audio', order: 'title', favorite: false },
    ] as ListQuery[]) {
      for (const at of [null, { key: 'x', seq: 5, cut: false }, { key: 'x', seq: 5, cut: true }]) {
        // as the store asks for it when the type is most of the library (a walk of the order's index)
        for (const walkOrder of [false, true]) {
          const steps = plan(buildListQuery(query, at, 50, walkOrder) as BuiltQuery);
          expect(steps.join(' | ')).toContain('USING INDEX tasks_by_type_title (task_type=?');
          expectIndexedWalk(steps);
        }
      }
    }
  });

  it("listTasks on a board finds the board's tasks by its key and each task by id, never walking the library", () => {
    for (const query of [
      { board: 1 },
      { board: 1, family: 'song' as const },
      { board: 1, order: 'title' as const },
    ]) {
      const steps = plan(buildListQuery(query, null, 50) as BuiltQuery);
      const shown = steps.join(' | ');
      expect(shown).toContain('SEARCH board_tasks USING PRIMARY KEY (board_id=?)');
      expect(shown).toMatch(/SEARCH tasks USING INDEX sqlite_autoindex_tasks_\d \(id=\?\)/);
      // the board's own tasks are sorted (a page costs the board's size, not the library's)
      for (const step of steps) expect(step, shown).not.toMatch(/^SCAN (tasks|t|board_tasks)$/);
    }
  });

  it("listTasks on a big board walks the library's list, checking each task against the board's key", () => {
    for (const query of [
      { board: 1 },
      { board: 1, makes: 'image' as const },
      { board: 1, order: 'title' as const },
    ]) {
      for (const at of [null, AT]) {
        const steps = plan(buildListQuery(query, at, 50, false, true) as BuiltQuery);
        const shown = steps.join(' | ');
        expect(shown).toMatch(
          /SEARCH board_tasks (EXISTS )?USING PRIMARY KEY \(board_id=\? AND task_id=\?\)/,
        );
        expect(shown).not.toMatch(/SCAN board_tasks|USING PRIMARY KEY \(board_id=\?\)/);
        expectIndexedWalk(steps);
      }
    }
  });

  it('a count the totals cannot answer walks an index and stops at its cap, never scanning the tasks', () => {
    const shapes: [TaskFilter, string][] = [
      [{ search: 'piano' }, 'SCAN tasks_fts VIRTUAL TABLE'],
      [{ search: 'piano', family: 'song', states: ['saved'] }, 'SCAN tasks_fts VIRTUAL TABLE'],
      [
        { search: 'piano', model: 'ace-step', states: ['saved'] },
        'USING INDEX tasks_by_entry (entry_id=? AND seq=?)',
      ],
      [{ model: 'ace-step' }, 'USING INDEX tasks_by_entry (entry_id=?)'],
      [{ makes: 'image', states: ['saved'] }, 'USING INDEX tasks_by_entry (entry_id=?)'],
      [{ board: 1 }, 'SEARCH board_tasks USING PRIMARY KEY (board_id=?)'],
      [{ board: 1, makes: 'image', states: ['saved'] }, 'SEARCH board_tasks USING PRIMARY KEY (board_id=?)'],
      [{ createdFrom: '2025-01-01T00:00:00Z' }, 'USING INDEX sqlite_autoindex_tasks_2 (seq>?)'],
    ];
    for (const [filter, walk] of shapes) {
      const built = buildCountQuery(filter, 10_001) as BuiltQuery;
      expect(built.sql).toContain('LIMIT $cap');
      const steps = plan(built);
      expect(steps.join(' | '), JSON.stringify(filter)).toContain(walk);
      for (const step of steps) expect(step, steps.join(' | ')).not.toMatch(/^SCAN (tasks|t)$/);
      // a board's count walks its key and stops at the cap: no list of all the board's ids first
      if (filter.board !== undefined) {
        expect(steps.join(' | ')).not.toContain('LIST SUBQUERY');
        expect(steps[1], steps.join(' | ')).toMatch(/^SEARCH board_tasks USING PRIMARY KEY \(board_id=\?\)/);
      }
    }
  });

  it('Recently deleted pages walk tasks_trashed_by_seq and stop, never sorting every deleted task', () => {
    for (const order of ['newest', 'oldest'] as const) {
      for (const at of [null, AT]) {
        const steps = plan(buildListQuery({ trashed: true, order }, at, 50) as BuiltQuery);
        expect(steps.join(' | ')).toContain('USING INDEX tasks_trashed_by_seq');
        expectIndexedWalk(steps);
      }
    }
  });

  it("retention's window walks the seq index and each task's keys, never the table (issue 22, a million tasks)", () => {
    const window = { after: 1, before: 9_000_000_000_000, window: 25 };
    const end = plan({ sql: RETENTION_SQL.windowEnd, params: window });
    expect(end.join(' | ')).toContain(
      'SEARCH tasks USING COVERING INDEX sqlite_autoindex_tasks_2 (seq>? AND seq<?)',
    );
    const keep = { keep_favorites: 1, keep_boards: 1, keep_used: 1 };
    const steps = plan({ sql: RETENTION_SQL.candidates, params: { after: 1, last: 2, ...keep } });
    expectIndexedWalk(steps);
    expect(
      steps.some((s) => /^SEARCH t USING .*seq>\? AND seq<\?/.test(s)),
      steps.join(' | '),
    ).toBe(true);
    expect(steps.join(' | ')).not.toMatch(/TEMP B-TREE/);
  });

  it('the fixed queries walk their indexes', () => {
    expectIndexedWalk(plan(buildOldestInStatesQuery(['submitting', 'downloading'], 10) as BuiltQuery));
    const cases: [keyof typeof FIXED_SQL, string, Record<string, unknown> | unknown[]][] = [
      ['dueForPoll', 'tasks_due_for_poll', { now: 100, limit: 10 }],
      [
        'durationHistory',
        'tasks_finished_by_model',
        { model: 'service/ace-step', task_type: 'txt2audio', limit: 50 },
      ],
      ['nextQueued', 'tasks_by_state', { limit: 5 }],
      ['eventsOf', 'task_events_by_task', ['x']],
      ['taskByRemoteId', 'sqlite_autoindex_tasks', ['x']],
      ['taskById', 'sqlite_autoindex_tasks_1', ['x']],
      ['highestSeqIn', 'sqlite_autoindex_tasks_2', [1, 2]],
      ['inputsOf', 'sqlite_autoindex_task_inputs_1', ['x']],
      ['outputsOf', 'sqlite_autoindex_task_outputs_1', ['x']],
      ['nextPollDue', 'tasks_due_for_poll', []],
      ['pollScheduleById', 'sqlite_autoindex_tasks_1', ['x']],
      ['fileInputUses', 'task_inputs_by_file', ['inputs/x.png']],
      ['fileInputByValue', 'task_inputs_by_file', ['inputs/x.png']],
      ['base64Inputs', 'task_inputs_base64', { task_id: '', idx: -1, limit: 1 }],
    ];
    for (const [name, index, params] of cases) {
      const steps = Array.isArray(params)
        ? raw
            .prepare(`EXPLAIN QUERY PLAN ${FIXED_SQL[name]}`)
            .all(...(params as []))
            .map((r) => String(r.detail))
        : plan({ sql: FIXED_SQL[name], params });
      expect(steps.join(' | '), name).toContain(index);
      expectIndexedWalk(steps);
    }
  });
});
