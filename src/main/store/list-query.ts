/**
 * SQL for listing and counting tasks: filters, keyset pagination and the opaque cursor.
 *
 * Every list is ordered by `seq` (creation time, then insertion order: see sort-key.ts) and paged
 * with a keyset (`seq < cursor`), never OFFSET, so page 1,000 costs what page 1 costs. Which index
 * walks a page:
 * - no filter: the unique index on seq; `favorite` or `starredFirst`: tasks_by_favorite;
 *   `family`: tasks_by_family; `taskType`: tasks_by_type; createdFrom/createdTo: a seq range.
 * - `states`: one walk of tasks_by_state per state, each stopping at the page size, merged by
 *   UNION ALL (ten states cost ten short walks, not a sort of every match).
 * - `search`, newest first: the FTS5 index itself, walked newest first (rowid = seq), joined to the
 *   task by seq and stopped after a page: the cost does not grow with the number of matches.
 * - `search` with starredFirst: favorites index walked, each row checked against the set of matching
 *   rows (built once per page: grows with the number of matches).
 * Filters beyond the one an index serves are checked row by row during that walk, so a page costs
 * (page size / share of rows passing those filters) row reads.
 */
import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { TaskState } from '../../shared/index.ts';
import { toFtsQuery } from './fts-query.ts';
import { seqFloor } from './sort-key.ts';
import { InvalidCursorError, LibraryStoreError } from './store-errors.ts';
import type { ListOrder, ListQuery, TaskFilter } from './store-types.ts';
import { toStoredIso } from './stored-time.ts';
import { TASK_TABLE } from './task-columns.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export type Params = Record<string, SQLInputValue>;

export interface BuiltQuery {
  sql: string;
  params: Params;
}

/** Where the previous page ended. */
export interface PagePosition {
  favorite: 0 | 1;
  seq: number;
}

const CursorSchema = z.strictObject({
  v: z.literal(1),
  o: z.enum(['newest', 'starredFirst']),
  f: z.union([z.literal(0), z.literal(1)]),
  s: z.number().int(),
});

export function encodeCursor(order: ListOrder, at: PagePosition): string {
  const body = { v: 1, o: order, f: at.favorite, s: at.seq };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, order: ListOrder): PagePosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('The list cursor is not one this store made');
  }
  const parsed = CursorSchema.safeParse(value);
  if (!parsed.success) throw new InvalidCursorError('The list cursor is not one this store made');
  if (parsed.data.o !== order) {
    throw new InvalidCursorError(`The list cursor was made for order "${parsed.data.o}", not "${order}"`);
  }
  return { favorite: parsed.data.f, seq: parsed.data.s };
}

/** Where a page whose last row is `row` ended. */
export function positionOf(row: Record<string, unknown>): PagePosition {
  return { favorite: Number(row.favorite) === 1 ? 1 : 0, seq: Number(row.seq) };
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1)
    throw new LibraryStoreError(`Page size must be a positive integer, got ${limit}`);
  return Math.min(limit, MAX_PAGE_SIZE);
}

/** Distinct states of the filter, or null when the filter has none. */
export function filterStates(filter: TaskFilter): TaskState[] | null {
  return filter.states === undefined ? null : [...new Set(filter.states)];
}

/** The FTS5 expression of the filter's search text, or null when there is nothing to search for. */
export function searchMatch(filter: TaskFilter): string | null {
  return filter.search === undefined ? null : toFtsQuery(filter.search);
}

/**
 * WHERE terms for family, task type, favorite and the creation range, on columns of `t` (an alias
 * or the table name), filling `params`.
 */
function attributeTerms(filter: TaskFilter, t: string, params: Params): string[] {
  const terms: string[] = [];
  if (filter.family !== undefined) {
    terms.push(`${t}.family = $family`);
    params.family = filter.family;
  }
  if (filter.taskType !== undefined) {
    terms.push(`${t}.task_type = $task_type`);
    params.task_type = filter.taskType;
  }
  if (filter.favorite !== undefined) {
    terms.push(`${t}.favorite = $favorite`);
    params.favorite = filter.favorite ? 1 : 0;
  }
  if (filter.createdFrom !== undefined) {
    terms.push(`${t}.seq >= $seq_from`);
    params.seq_from = seqFloor(toStoredIso(filter.createdFrom, 'createdFrom'), 'createdFrom');
  }
  if (filter.createdTo !== undefined) {
    terms.push(`${t}.seq < $seq_to`);
    params.seq_to = seqFloor(toStoredIso(filter.createdTo, 'createdTo'), 'createdTo');
  }
  return terms;
}

function statesTerm(states: readonly TaskState[], t: string, params: Params): string {
  const names = states.map((state, i) => {
    params[`state${i}`] = state;
    return `$state${i}`;
  });
  return names.length === 1 ? `${t}.state = ${names[0]}` : `${t}.state IN (${names.join(', ')})`;
}

function where(terms: readonly string[]): string {
  return terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`;
}

const TASK_COLUMNS = TASK_TABLE.selectList();

function keysetTerm(order: ListOrder, at: PagePosition | null, t: string, params: Params): string | null {
  if (at === null) return null;
  params.after_seq = at.seq;
  if (order === 'newest') return `${t}.seq < $after_seq`;
  params.after_favorite = at.favorite;
  return `(${t}.favorite, ${t}.seq) < ($after_favorite, $after_seq)`;
}

function orderBy(order: ListOrder): string {
  return order === 'starredFirst' ? 'favorite DESC, seq DESC' : 'seq DESC';
}

/** Newest first with a search: walk the FTS index by rowid (= seq) descending, join each hit to its task. */
function searchNewestQuery(
  query: ListQuery,
  match: string,
  at: PagePosition | null,
  params: Params,
): BuiltQuery {
  params.match = match;
  const terms = ['tasks_fts MATCH $match', ...attributeTerms(query, 't', params)];
  if (at !== null) {
    terms.push('tasks_fts.rowid < $after_seq');
    params.after_seq = at.seq;
  }
  const states = filterStates(query);
  if (states !== null) terms.push(statesTerm(states, 't', params));
  const sql =
    `SELECT ${TASK_TABLE.selectList('t')} FROM tasks_fts CROSS JOIN tasks AS t ON t.seq = tasks_fts.rowid` +
    `${where(terms)} ORDER BY tasks_fts.rowid DESC LIMIT $limit`;
  return { sql, params };
}

/**
 * One page (plus one row, to know whether another page follows). Returns null when the filter
 * cannot match anything (an empty `states` list).
 */
export function buildListQuery(query: ListQuery, at: PagePosition | null, size: number): BuiltQuery | null {
  const order = query.order ?? 'newest';
  const params: Params = { limit: size + 1 };
  const states = filterStates(query);
  if (states !== null && states.length === 0) return null;
  const match = searchMatch(query);
  if (match !== null && order === 'newest') return searchNewestQuery(query, match, at, params);
  const terms = attributeTerms(query, 'tasks', params);
  if (match !== null) {
    // `+seq`: check each walked row against the match set instead of sorting every match.
    terms.push('+tasks.seq IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH $match)');
    params.match = match;
  }
  const keyset = keysetTerm(order, at, 'tasks', params);
  if (keyset !== null) terms.push(keyset);
  const select = `SELECT ${TASK_COLUMNS} FROM tasks`;
  const tail = ` ORDER BY ${orderBy(order)} LIMIT $limit`;
  if (states === null || states.length === 1) {
    const all = states === null ? terms : [statesTerm(states, 'tasks', params), ...terms];
    return { sql: `${select}${where(all)}${tail}`, params };
  }
  const parts = states.map((state, i) => {
    params[`state${i}`] = state;
    return `SELECT * FROM (${select}${where([`tasks.state = $state${i}`, ...terms])}${tail})`;
  });
  return { sql: `${parts.join(' UNION ALL ')}${tail}`, params };
}

/** Counts per state with every filter applied, read from the tasks themselves. */
export function buildCountQuery(filter: TaskFilter): BuiltQuery | null {
  const params: Params = {};
  const terms = attributeTerms(filter, 'tasks', params);
  const match = searchMatch(filter);
  if (match !== null) {
    terms.push('tasks.seq IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH $match)');
    params.match = match;
  }
  const states = filterStates(filter);
  if (states !== null) {
    if (states.length === 0) return null;
    terms.push(statesTerm(states, 'tasks', params));
  }
  return { sql: `SELECT state, count(*) AS n FROM tasks${where(terms)} GROUP BY state`, params };
}

/** True when the running totals can answer the count (no time range and no search). */
export function countableFromTotals(filter: TaskFilter): boolean {
  return filter.createdFrom === undefined && filter.createdTo === undefined && searchMatch(filter) === null;
}

/** Counts per state from task_totals: family, task type and favorite filters apply there. */
export function buildTotalsCountQuery(filter: TaskFilter): BuiltQuery {
  const params: Params = {};
  const terms: string[] = ['tasks > 0'];
  if (filter.family !== undefined) {
    terms.push('family = $family');
    params.family = filter.family;
  }
  if (filter.taskType !== undefined) {
    terms.push('task_type = $task_type');
    params.task_type = filter.taskType;
  }
  if (filter.favorite !== undefined) {
    terms.push('favorite = $favorite');
    params.favorite = filter.favorite ? 1 : 0;
  }
  return { sql: `SELECT state, sum(tasks) AS n FROM task_totals${where(terms)} GROUP BY state`, params };
}

/**
 * Tasks in any of `states`, oldest first: one walk of tasks_by_state per state, each stopping at
 * `limit` (-1: no limit), merged. The SQL depends only on how many states are given.
 */
export function buildOldestInStatesQuery(states: readonly TaskState[], limit: number): BuiltQuery | null {
  const distinct = [...new Set(states)];
  if (distinct.length === 0) return null;
  const params: Params = { limit };
  const one = (i: number) =>
    `SELECT ${TASK_COLUMNS} FROM tasks WHERE state = $state${i} ORDER BY seq LIMIT $limit`;
  distinct.forEach((state, i) => {
    params[`state${i}`] = state;
  });
  if (distinct.length === 1) return { sql: one(0), params };
  const parts = distinct.map((_, i) => `SELECT * FROM (${one(i)})`);
  return { sql: `${parts.join(' UNION ALL ')} ORDER BY seq LIMIT $limit`, params };
}
