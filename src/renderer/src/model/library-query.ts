/**
 * The library's filter bar as state, turned into the bridge's list/count queries, and the rule
 * deciding whether a live task change belongs at the top of the current gallery. Pure.
 */
import {
  ENGINE_WORK_STATES,
  entryOfTask,
  type ListOrder,
  type ListQuery,
  type MakesFilterKind,
  type TaskFamily,
  type TaskFilter,
  type TaskState,
  typeGroupOf,
} from '../../../shared/index.ts';
import type { LoadedTask } from './task-status.ts';
import { localDayEndIso, localDayStartIso } from './time-format.ts';

export type StateFilter = '' | 'active' | 'saved' | 'failed' | 'uncertain' | 'cancelled' | 'expired';
export type LibraryOrder = ListOrder;

export interface LibraryFilters {
  /** The Type filter: what the tasks make (typeGroupOf), not only the composer's family. */
  family: '' | TaskFamily;
  /** What the task's catalog entry makes (pictures, videos, 3D models, sounds). */
  makes: '' | MakesFilterKind;
  /** The catalog model name (`flux1-schnell`), '' for any. */
  model: string;
  state: StateFilter;
  /** Local days `YYYY-MM-DD`, '' for open ends. */
  from: string;
  to: string;
  favorite: boolean;
  /** The board whose tasks are shown (its id; chosen in the sidebar), null for every task. */
  board: number | null;
  search: string;
  order: LibraryOrder;
  /** The gallery shows Recently deleted instead of the library (a view, not a filter). */
  trashed: boolean;
}

export const EMPTY_FILTERS: LibraryFilters = {
  family: '',
  makes: '',
  model: '',
  state: '',
  from: '',
  to: '',
  favorite: false,
  board: null,
  search: '',
  order: 'newest',
  trashed: false,
};

export function statesOf(filter: StateFilter): TaskState[] | undefined {
  if (filter === '') return undefined;
  if (filter === 'active') return [...ENGINE_WORK_STATES];
  return [filter];
}

/** The count/list filter of the bar (no order, cursor or limit). */
export function toTaskFilter(filters: LibraryFilters): TaskFilter {
  const filter: TaskFilter = {};
  if (filters.family) filter.family = filters.family;
  if (filters.makes) filter.makes = filters.makes;
  if (filters.model) filter.model = filters.model.slice(0, 100);
  const states = statesOf(filters.state);
  if (states) filter.states = states;
  const from = filters.from ? localDayStartIso(filters.from) : null;
  const to = filters.to ? localDayEndIso(filters.to) : null;
  if (from) filter.createdFrom = from;
  if (to) filter.createdTo = to;
  if (filters.favorite) filter.favorite = true;
  if (filters.board !== null) filter.board = filters.board;
  const search = filters.search.trim();
  if (search) filter.search = search.slice(0, 500);
  if (filters.trashed) filter.trashed = true;
  return filter;
}

export function toListQuery(filters: LibraryFilters, limit: number, cursor: string | null): ListQuery {
  return { ...toTaskFilter(filters), order: filters.order, limit, cursor };
}

/** Whether the filters are all cleared (the order aside). */
export function hasActiveFilters(filters: LibraryFilters): boolean {
  return (
    filters.family !== '' ||
    filters.makes !== '' ||
    filters.model !== '' ||
    filters.state !== '' ||
    filters.from !== '' ||
    filters.to !== '' ||
    filters.favorite ||
    filters.board !== null ||
    filters.search.trim() !== ''
  );
}

/**
 * Whether a task seen in a live change should be put at the top of the gallery: only when sorted
 * newest, and only when it passes every filter the renderer can check itself (a text search is
 * the library store's to judge (in main), so searched views wait for the next load).
 */
export function belongsAtTop(task: LoadedTask, filters: LibraryFilters): boolean {
  if (filters.order !== 'newest') return false;
  if (filters.search.trim() !== '') return false;
  // which board a task is on is the library's to say: a board's view waits for its next load
  if (filters.board !== null) return false;
  // a task queued or changed is never one just deleted: Recently deleted waits for its next load
  if (filters.trashed || task.deletedAt !== null) return false;
  if (filters.family && typeGroupOf(task) !== filters.family) return false;
  if (filters.makes && entryOfTask(task)?.outputKind !== filters.makes) return false;
  if (filters.model && entryOfTask(task)?.modelName !== filters.model) return false;
  const states = statesOf(filters.state);
  if (states && !states.includes(task.state)) return false;
  if (filters.favorite && !task.favorite) return false;
  const created = Date.parse(task.createdAt);
  const from = filters.from ? localDayStartIso(filters.from) : null;
  const to = filters.to ? localDayEndIso(filters.to) : null;
  if (from && created < Date.parse(from)) return false;
  if (to && created > Date.parse(to)) return false;
  return true;
}
