/**
 * SQL for listing and counting tasks: filters and keyset pagination (the orders and the cursor
 * are in list-cursor.ts).
 *
 * Every list is ordered by an order's key column, if any, then `seq` (creation time, then
 * insertion order: see sort-key.ts), and paged with a keyset (`(key, seq) < cursor`), never
 * OFFSET, so page 1,000 costs what page 1 costs. Which index walks a page:
 * - no filter: the unique index on seq (newest, oldest), or the order's index: tasks_by_favorite
 *   (starredFirst), tasks_by_title, tasks_by_cost, tasks_by_length;
 * - newest or oldest with `favorite`: tasks_by_favorite; `taskType`: tasks_by_type;
 *   createdFrom/createdTo: a seq range;
 * - `family` (the Type filter: what a task makes, see typeGroupMembers in the catalog): a walk of
 *   tasks_by_family, plus one walk of tasks_by_type per type of another family that makes the same
 *   (a song extend among songs), each stopping at the page size, merged by UNION ALL;
 * - `makes` and `model` (what a task's catalog entry makes, its model): one walk of tasks_by_entry
 *   per entry they stand for (entryIdsOfFilter), merged by UNION ALL; the other filters checked
 *   on each row walked;
 * - `board`: that board's tasks by board_tasks' key, each found by id, every other filter checked
 *   on them and the few sorted (a page costs the board's size, whatever the library's);
 * - `states`: one walk of tasks_by_state per state, each stopping at the page size, merged by
 *   UNION ALL (ten states cost ten short walks, not a sort of every match);
 * - `search`, newest or oldest first: the FTS5 index itself, walked by rowid (= seq), joined to the
 *   task by seq and stopped after a page: the cost does not grow with the number of matches;
 * - `search` in another order: the order's index walked, each row checked against the set of
 *   matching rows (built once per page: grows with the number of matches).
 * Every list and count leaves out the tasks in Recently deleted (`deleted_at` set, migration 7)
 * unless its filter asks for those alone (`trashed`): a term checked on each row walked, and a
 * column of task_totals.
 * Filters beyond the one an index serves are checked row by row during that walk, so a page costs
 * (page size / share of rows passing those filters) row reads. With a filter and an order that has
 * a key, SQLite may instead walk the filter's index and sort its matches.
 */
import type { SQLInputValue } from 'node:sqlite';
import {
  entryIdsOfFilter,
  type ListOrder,
  type ListQuery,
  type TaskFilter,
  type TaskState,
  typeGroupMembers,
} from '../../shared/index.ts';
import { type PrefixTerms, toFtsQuery } from './fts-query.ts';
import { ORDERS, type PagePosition, SORT_KEY_COLUMN } from './list-cursor.ts';
import { seqFloor } from './sort-key.ts';
import { LibraryStoreError } from './store-errors.ts';
import { toStoredIso } from './stored-time.ts';
import { TASK_TABLE } from './task-columns.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export type Params = Record<string, SQLInputValue>;

export interface BuiltQuery {
  sql: string;
  params: Params;
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

/**
 * The FTS5 expression of the filter's search text, or null when there is nothing to search for;
 * `termsOf`: the last word named by the terms it stands for (see toFtsQuery).
 */
export function searchMatch(filter: TaskFilter, termsOf?: PrefixTerms): string | null {
  return filter.search === undefined ? null : toFtsQuery(filter.search, termsOf);
}

/** `$name0, $name1, …` for `values`, filling `params`. */
export function listParams(name: string, values: readonly string[], params: Params): string {
  return values
    .map((value, i) => {
      params[`${name}${i}`] = value;
      return `$${name}${i}`;
    })
    .join(', ');
}

/**
 * The alternatives of the `family` filter (the Type filter group), each one walk of an index: the
 * group's own family, less the types of that family that make something else, then each type of
 * another family that makes what the group makes. `col` names a column of the row.
 */
function familyArms(
  family: TaskFilter['family'] & string,
  col: (name: string) => string,
  params: Params,
): string[] {
  const members = typeGroupMembers(family);
  params.family = members.family;
  const except = members.exceptTypes.length
    ? ` AND +${col('task_type').replace(/^\+/, '')} NOT IN (${listParams('family_except', members.exceptTypes, params)})`
    : '';
  const also = members.alsoTypes.map((type, i) => {
    params[`family_also${i}`] = type;
    return `${col('task_type')} = $family_also${i}`;
  });
  return [`${col('family')} = $family${except}`, ...also];
}

/** The `family` filter as one WHERE term (its alternatives joined by OR). */
export function familyTerm(
  family: TaskFilter['family'] & string,
  col: (name: string) => string,
  params: Params,
): string {
  const arms = familyArms(family, col, params);
  return arms.length === 1 ? `(${arms[0]})` : `(${arms.map((arm) => `(${arm})`).join(' OR ')})`;
}

/**
 * WHERE terms for family, task type, favorite and the creation range, on columns of `t` (an alias
 * or the table name), filling `params`. `checkOnly`: written `+t.col` so that SQLite checks them
 * on each row of another index's walk instead of walking their own index. `withFamily` false:
 * the caller walks the family filter's alternatives itself.
 */
export function attributeTerms(
  filter: TaskFilter,
  t: string,
  params: Params,
  checkOnly = false,
  withFamily = true,
  withEntries = true,
  boardCheck = false,
): string[] {
  const col = (name: string) => `${checkOnly ? '+' : ''}${t}.${name}`;
  // a task in Recently deleted is in no list but that one's
  const terms = [`${t}.deleted_at IS ${filter.trashed === true ? 'NOT ' : ''}NULL`];
  if (filter.family !== undefined && withFamily) terms.push(familyTerm(filter.family, col, params));
  const entries = entryIdsOfFilter(filter);
  if (entries !== null && withEntries) {
    terms.push(`${col('entry_id')} IN (${listParams('entry', entries, params)})`);
  }
  if (filter.taskType !== undefined) {
    terms.push(`${col('task_type')} = $task_type`);
    params.task_type = filter.taskType;
  }
  if (filter.favorite !== undefined) {
    terms.push(`${col('favorite')} = $favorite`);
    params.favorite = filter.favorite ? 1 : 0;
  }
  if (filter.board !== undefined) {
    // a board's tasks by its primary key (board_id, task_id), each found by the tasks' key; or,
    // for a big board, each task walked checked against that key
    terms.push(
      boardCheck
        ? `EXISTS (SELECT 1 FROM board_tasks WHERE board_id = $board AND task_id = ${t}.id)`
        : `${t}.id IN (SELECT task_id FROM board_tasks WHERE board_id = $board)`,
    );
    params.board = filter.board;
  }
  if (filter.createdFrom !== undefined) {
    terms.push(`${col('seq')} >= $seq_from`);
    params.seq_from = seqFloor(toStoredIso(filter.createdFrom, 'createdFrom'), 'createdFrom');
  }
  if (filter.createdTo !== undefined) {
    terms.push(`${col('seq')} < $seq_to`);
    params.seq_to = seqFloor(toStoredIso(filter.createdTo, 'createdTo'), 'createdTo');
  }
  return terms;
}

export function statesTerm(
  states: readonly TaskState[],
  t: string,
  params: Params,
  checkOnly = false,
): string {
  const names = states.map((state, i) => {
    params[`state${i}`] = state;
    return `$state${i}`;
  });
  const col = `${checkOnly ? '+' : ''}${t}.state`;
  return names.length === 1 ? `${col} = ${names[0]}` : `${col} IN (${names.join(', ')})`;
}

export function where(terms: readonly string[]): string {
  return terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`;
}

const TASK_COLUMNS = TASK_TABLE.selectList();

/** `(key, seq) < (after key, after seq)` (`>` ascending): the rows after the previous page. */
function keysetTerm(order: ListOrder, at: PagePosition | null, t: string, params: Params): string | null {
  if (at === null) return null;
  const { key, descending } = ORDERS[order];
  const after = descending ? '<' : '>';
  params.after_seq = at.seq;
  if (key === null) return `${t}.seq ${after} $after_seq`;
  params.after_key = at.key;
  // A cut text key: the full key is the one of the row the previous page ended on (the cut one
  // only when that row is gone).
  const afterKey = at.cut
    ? `coalesce((SELECT ${key} FROM tasks WHERE seq = $after_seq), $after_key)`
    : '$after_key';
  return `(${t}.${key}, ${t}.seq) ${after} (${afterKey}, $after_seq)`;
}

/** The ORDER BY of an order, on the columns of `t` (or on the result columns, when null). */
function orderBy(order: ListOrder, t: string | null): string {
  const { key, descending } = ORDERS[order];
  const dir = descending ? ' DESC' : '';
  const seq = t === null ? 'seq' : `${t}.seq`;
  if (key === null) return `${seq}${dir}`;
  return `${t === null ? SORT_KEY_COLUMN : `${t}.${key}`}${dir}, ${seq}${dir}`;
}

/** The columns of a listed task, and the order's key (for the cursor) when it has one. */
function listColumns(order: ListOrder, t: string): string {
  const { key } = ORDERS[order];
  const columns = TASK_TABLE.selectList(t);
  return key === null ? columns : `${columns}, ${t}.${key} AS ${SORT_KEY_COLUMN}`;
}

/**
 * Newest or oldest first with a search: walk the FTS index by rowid (= seq), join each hit to its
 * task, stop after a page.
 */
function searchBySeqQuery(
  query: ListQuery,
  order: ListOrder,
  match: string,
  at: PagePosition | null,
  params: Params,
): BuiltQuery {
  const { descending } = ORDERS[order];
  params.match = match;
  const terms = ['tasks_fts MATCH $match', ...attributeTerms(query, 't', params, false, true, true, true)];
  if (at !== null) {
    terms.push(`tasks_fts.rowid ${descending ? '<' : '>'} $after_seq`);
    params.after_seq = at.seq;
  }
  const states = filterStates(query);
  if (states !== null) terms.push(statesTerm(states, 't', params));
  const sql =
    `SELECT ${listColumns(order, 't')} FROM tasks_fts CROSS JOIN tasks AS t ON t.seq = tasks_fts.rowid` +
    `${where(terms)} ORDER BY tasks_fts.rowid${descending ? ' DESC' : ''} LIMIT $limit`;
  return { sql, params };
}

/**
 * One page (plus one row, to know whether another page follows). Returns null when the filter
 * cannot match anything (an empty `states` list). `walkOrder` (for an order with a key): walk the
 * order's index and check every filter row by row (see walkOrderIndex). `bigBoard`: the board
 * holds so many tasks that walking the list as without it, checking each task against the
 * board's key, reads fewer rows than sorting the board (the same rule, walkOrderIndex).
 */
export function buildListQuery(
  query: ListQuery,
  at: PagePosition | null,
  size: number,
  walkOrder = false,
  bigBoard = false,
  termsOf?: PrefixTerms,
): BuiltQuery | null {
  const order = query.order ?? 'newest';
  const params: Params = { limit: size + 1 };
  const states = filterStates(query);
  if (states !== null && states.length === 0) return null;
  if (matchesNoEntry(query)) return null;
  const match = searchMatch(query, termsOf);
  if (match !== null && ORDERS[order].key === null) {
    return searchBySeqQuery(query, order, match, at, params);
  }
  // one task type by title, in any state: tasks_by_type_title holds its page (migration 21)
  const typeByTitle = order === 'title' && query.taskType !== undefined && states === null;
  const walk = walkOrder && ORDERS[order].key !== null && !typeByTitle;
  // a board: its own tasks by its key, every other filter checked on them (never a library walk)
  const onBoard = query.board !== undefined && !bigBoard;
  // the Makes and Model filters: one walk of tasks_by_entry per entry, merged; the rest checked
  const entryWalks = walk || onBoard ? null : entryArms(query, params);
  // a Type filter group of several families' types: one walk per alternative, merged
  const arms =
    !walk && !onBoard && entryWalks === null && query.family !== undefined
      ? familyArms(query.family, (name) => `tasks.${name}`, params)
      : [];
  const familyWalks = arms.length > 1 ? arms : null;
  const checkOnly = walk || onBoard || entryWalks !== null;
  const terms = attributeTerms(
    query,
    'tasks',
    params,
    checkOnly,
    familyWalks === null,
    entryWalks === null,
    bigBoard,
  );
  if (checkOnly && states !== null) terms.unshift(statesTerm(states, 'tasks', params, true));
  if (match !== null) {
    // `+seq`: check each walked row against the match set instead of sorting every match.
    terms.push('+tasks.seq IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH $match)');
    params.match = match;
  }
  const keyset = keysetTerm(order, at, 'tasks', params);
  if (keyset !== null) terms.push(keyset);
  const select = `SELECT ${listColumns(order, 'tasks')} FROM tasks`;
  const tail = ` ORDER BY ${orderBy(order, 'tasks')} LIMIT $limit`;
  const walks = entryWalks ?? familyWalks;
  if (walks === null && (walk || states === null || states.length === 1)) {
    const all = walk || states === null ? terms : [statesTerm(states, 'tasks', params), ...terms];
    return { sql: `${select}${where(all)}${tail}`, params };
  }
  const stateTerms =
    states === null || checkOnly
      ? [null]
      : states.map((state, i) => {
          params[`state${i}`] = state;
          return `tasks.state = $state${i}`;
        });
  const parts = stateTerms.flatMap((stateTerm) =>
    (walks ?? [null]).map((arm) => {
      const own = [stateTerm, arm].filter((term): term is string => term !== null);
      return `SELECT * FROM (${select}${where([...own, ...terms])}${tail})`;
    }),
  );
  return { sql: `${parts.join(' UNION ALL ')} ORDER BY ${orderBy(order, null)} LIMIT $limit`, params };
}

/** True when the filter's Makes and Model stand for no catalog entry at all (it matches no task). */
export function matchesNoEntry(filter: TaskFilter): boolean {
  return entryIdsOfFilter(filter)?.length === 0;
}

/** The walks of the Makes and Model filters, one per entry (`tasks.entry_id = $entryN`), or null. */
function entryArms(filter: TaskFilter, params: Params): string[] | null {
  const entries = entryIdsOfFilter(filter);
  if (entries === null) return null;
  return entries.map((id, i) => {
    params[`entry${i}`] = id;
    return `tasks.entry_id = $entry${i}`;
  });
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

/**
 * The ids (with state and deletedAt) of up to `limit` tasks a selection's filter matches, but
 * for `except`, after `afterSeq` (null: from the newest) in seq order, newest first: one page
 * of a bulk action, which resolves a selection page by page from where it got to (an action
 * never changes seq, so each task is visited once whatever the action does to the filter).
 */
export function buildSelectionPageQuery(
  filter: TaskFilter,
  except: readonly string[],
  afterSeq: number | null,
  limit: number,
): BuiltQuery | null {
  const params: Params = { limit, except: JSON.stringify(except) };
  const states = filterStates(filter);
  if (states !== null && states.length === 0) return null;
  if (matchesNoEntry(filter)) return null;
  const terms = attributeTerms(filter, 'tasks', params);
  if (states !== null) terms.push(statesTerm(states, 'tasks', params));
  const match = searchMatch(filter);
  if (match !== null) {
    terms.push('tasks.seq IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH $match)');
    params.match = match;
  }
  if (afterSeq !== null) {
    terms.push('tasks.seq < $after_seq');
    params.after_seq = afterSeq;
  }
  if (except.length > 0) terms.push('tasks.id NOT IN (SELECT value FROM json_each($except))');
  else delete params.except;
  const sql = `SELECT id, seq, state, deleted_at FROM tasks${where(terms)} ORDER BY seq DESC LIMIT $limit`;
  return { sql, params };
}
