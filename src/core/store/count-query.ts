/**
 * SQL for counting tasks: by state from the running totals (task_totals, kept by triggers) when
 * they can answer, else from the tasks themselves, stopping at a cap; and the share of the
 * library a filter matches, which decides how a page in a keyed order is walked.
 */
import { entryIdsOfFilter, type TaskFilter } from '../../shared/index.ts';
import type { PrefixTerms } from './fts-query.ts';
import {
  attributeTerms,
  type BuiltQuery,
  familyTerm,
  filterStates,
  listParams,
  matchesNoEntry,
  type Params,
  searchMatch,
  statesTerm,
  where,
} from './list-query.ts';

/**
 * Counts per state with every filter applied, read from the tasks themselves, of at most `cap`
 * matching tasks (so a count never reads more rows than that, whatever the matches): a search
 * walks the full-text index and finds each hit's task by seq, as its list does (`termsOf`: see
 * searchMatch).
 */
export function buildCountQuery(filter: TaskFilter, cap: number, termsOf?: PrefixTerms): BuiltQuery | null {
  if (matchesNoEntry(filter)) return null;
  const params: Params = { cap };
  const match = searchMatch(filter, termsOf);
  // what walks: the full-text index, else the board's key, else the entries' index (one walk each),
  // else the seq range; every other filter is checked on the rows walked
  const entries = match === null && filter.board === undefined ? entryIdsOfFilter(filter) : null;
  const checkOnly = match === null && (filter.board !== undefined || entries !== null);
  // a board walks board_tasks joined to each task (a list of the board's ids first cost 100,000
  // ids read for a count that stops at 1,000: 27 ms at a million)
  const { board, ...unboarded } = filter;
  const onBoard = match === null && board !== undefined;
  const terms = attributeTerms(
    onBoard ? unboarded : filter,
    'tasks',
    params,
    checkOnly,
    true,
    entries === null,
  );
  if (onBoard && board !== undefined) {
    terms.unshift('board_tasks.board_id = $board');
    params.board = board;
  }
  if (entries !== null) terms.push(`tasks.entry_id IN (${listParams('entry', entries, params)})`);
  if (match !== null) {
    terms.unshift('tasks_fts MATCH $match');
    params.match = match;
  }
  const states = filterStates(filter);
  if (states !== null) {
    if (states.length === 0) return null;
    // with a search and a model or Makes filter, each hit is found by tasks_by_entry (entry, seq),
    // its state checked on the row: a hit of another model is passed on the index alone (the state's
    // index read each hit's row: 17 ms for a word, a model of 7% and a state at a million)
    const byEntry = match !== null && entryIdsOfFilter(filter) !== null;
    terms.push(statesTerm(states, 'tasks', params, checkOnly || byEntry));
  }
  // (with statistics, SQLite may prefer scanning the table until the cap: a model of 2% of a
  // million tasks would read half of them)
  const from =
    match !== null
      ? 'tasks_fts CROSS JOIN tasks ON tasks.seq = tasks_fts.rowid'
      : onBoard
        ? 'board_tasks CROSS JOIN tasks ON tasks.id = board_tasks.task_id'
        : entries !== null
          ? 'tasks INDEXED BY tasks_by_entry'
          : 'tasks';
  const sql = `SELECT state, count(*) AS n FROM (SELECT tasks.state FROM ${from}${where(terms)} LIMIT $cap)
    GROUP BY state`;
  return { sql, params };
}

/** True when the running totals can answer the count (no time range, search, board, Makes or Model filter). */
export function countableFromTotals(filter: TaskFilter): boolean {
  return (
    filter.board === undefined &&
    filter.createdFrom === undefined &&
    filter.createdTo === undefined &&
    searchMatch(filter) === null &&
    entryIdsOfFilter(filter) === null
  );
}

/**
 * For an order with a key and a filter, which is cheaper: SQLite's usual plan, walking the
 * filter's index and sorting every match, or walking the order's index and checking the filter
 * on each row, which reads about (page size × total / matches) rows. Walking wins once
 * matches² > (page size + 1) × total: with 100,000 tasks and pages of 50, above ~2,300 matches.
 */
export function walkOrderIndex(matching: number, total: number, size: number): boolean {
  return matching * matching > (size + 1) * total;
}

/**
 * How many tasks pass the filter, and how many there are, from task_totals; null when the totals
 * cannot tell (a time range or a search) or there is no filter on family, task type, favorite or
 * state.
 */
export function buildFilterShareQuery(filter: TaskFilter): BuiltQuery | null {
  if (!countableFromTotals(filter)) return null;
  const params: Params = {};
  const terms = totalsTerms(filter, params);
  const states = filterStates(filter);
  if (states !== null && states.length > 0) terms.push(statesTerm(states, 'task_totals', params));
  // no filter but the list's side of Recently deleted: the order's own walk (as without one)
  if (terms.length === 1 && filter.trashed !== true) return null;
  const sql = `SELECT coalesce(sum(tasks), 0) AS total,
    coalesce(sum(CASE WHEN ${terms.join(' AND ')} THEN tasks ELSE 0 END), 0) AS matching FROM task_totals`;
  return { sql, params };
}

/** The terms on task_totals of the trashed, family, task type and favorite filters (the ones it keeps). */
function totalsTerms(filter: TaskFilter, params: Params): string[] {
  const terms = [`trashed = ${filter.trashed === true ? 1 : 0}`];
  if (filter.family !== undefined) terms.push(familyTerm(filter.family, (name) => name, params));
  if (filter.taskType !== undefined) {
    terms.push('task_type = $task_type');
    params.task_type = filter.taskType;
  }
  if (filter.favorite !== undefined) {
    terms.push('favorite = $favorite');
    params.favorite = filter.favorite ? 1 : 0;
  }
  return terms;
}

/** Counts per state from task_totals: family, task type and favorite filters apply there. */
export function buildTotalsCountQuery(filter: TaskFilter): BuiltQuery {
  const params: Params = {};
  const terms = ['tasks > 0', ...totalsTerms(filter, params)];
  return { sql: `SELECT state, sum(tasks) AS n FROM task_totals${where(terms)} GROUP BY state`, params };
}
