/**
 * What the library answers about its tasks, in the one shape the store, the engine, the
 * backend, the contract and the window share: the list filter and query (zod schemas, checked
 * where a call arrives), a page of the list, counts by state, the cost summary, an export, and a
 * task change.
 */
import { z } from 'zod';
import { MAKES_FILTER_KINDS } from '../catalog/entry-lookup.ts';
import { TASK_FAMILIES } from '../catalog/task-types.ts';
import { LIST_ORDERS } from './list-order.ts';
import { TASK_STATES, type Task } from './task-model.ts';

const text = (max: number) => z.string().max(max);

/** Filters shared by the list and the counts. All given filters must hold (AND). */
export const TaskFilterSchema = z.strictObject({
  family: z.enum(TASK_FAMILIES).optional(),
  taskType: text(100).optional(),
  /** What the task's catalog entry makes (images, videos, 3D models, sounds). */
  makes: z.enum(MAKES_FILTER_KINDS).optional(),
  /** The model name of the task's catalog entry (`flux1-schnell`, without its vendor). */
  model: text(100).optional(),
  /** Any of these states. An empty array matches nothing. */
  states: z.array(z.enum(TASK_STATES)).max(20).readonly().optional(),
  /** Inclusive lower bound on createdAt (ISO). */
  createdFrom: z.iso.datetime({ offset: true }).optional(),
  /** Exclusive upper bound on createdAt (ISO). */
  createdTo: z.iso.datetime({ offset: true }).optional(),
  favorite: z.boolean().optional(),
  /** Only the tasks on this board (its id: see boards.ts). */
  board: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** User text; every word must match title, prompt or lyrics, the last word as a prefix. */
  search: text(500).optional(),
  /**
   * true: only the tasks in Recently deleted (deletedAt set). Absent or false: only the others;
   * a deleted task is in no other list, search or count.
   */
  trashed: z.boolean().optional(),
});
export type TaskFilter = z.infer<typeof TaskFilterSchema>;

/** At most this many ids in a selection (or in its exceptions) crossing a call. */
export const MAX_SELECTION_IDS = 10_000;

const selectionId = z.string().min(1).max(100);

/**
 * Which tasks a bulk action is for: these ids, or every task the filter matches now except
 * these (the window's "Select all", which never needs the ids of tasks it has not loaded; the
 * library resolves the filter when the action runs).
 */
export const TaskSelectionSchema = z.union([
  z.strictObject({ ids: z.array(selectionId).min(1).max(MAX_SELECTION_IDS) }),
  z.strictObject({
    filter: TaskFilterSchema,
    except: z.array(selectionId).max(MAX_SELECTION_IDS),
  }),
]);
export type TaskSelection = z.infer<typeof TaskSelectionSchema>;

/** What moving tasks to Recently deleted did. */
export interface TrashOutcome {
  /** How many tasks were moved (queued ones were cancelled first: never sent, not billed). */
  moved: number;
  /** How many were left because the service is working on them (they can be deleted once ended). */
  running: number;
  /** Ids of the selection that are no task of the library, or were already in Recently deleted. */
  skipped: string[];
  /** The time every moved task got as its deletedAt (Undo restores the tasks of one delete by it). */
  deletedAt: string;
}

/** What restoring or deleting forever did. */
export interface TrashActionOutcome {
  /** How many tasks were restored, or deleted forever with their files. */
  done: number;
  /** Ids of the selection that are no task in Recently deleted. */
  skipped: string[];
}

export const ListQuerySchema = TaskFilterSchema.extend({
  /**
   * `newest` (default): created_at desc, then insertion order desc. The others (oldest,
   * starredFirst, title, costliest, longest): see LIST_ORDERS in list-order.ts.
   */
  order: z.enum(LIST_ORDERS).optional(),
  /** Page size, 1..200 (default 50). */
  limit: z.number().int().min(1).max(200).optional(),
  /** The `nextCursor` of the previous page, or null/absent for the first page. */
  cursor: text(1000).nullish(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/**
 * A task as listed: everything but `inputs` (an input may hold a whole Base64 file, and a grid
 * does not need it). Ask for the task itself for the inputs.
 */
export type TaskListItem = Omit<Task, 'inputs'>;

/** A row that could not be read back (bad JSON, unknown state…); it is left out of `items`. */
export interface UnreadableTask {
  id: string;
  message: string;
}

/** One page of the list. */
export interface TaskPage {
  items: TaskListItem[];
  /** Opaque; pass it back as `cursor` for the next page. null on the last page. */
  nextCursor: string | null;
  /** Rows of this page that could not be read; never makes the whole list fail. */
  unreadable: UnreadableTask[];
}

/** How many tasks match a filter, in all and by state. */
export interface StateCounts {
  total: number;
  /** Every state (or, with a `states` filter, every listed state) with its count, 0 included. */
  byState: Record<string, number>;
  /**
   * true: the count stopped at COUNT_CAP matches, so there are more than `total` (and `byState`
   * counts only those). Only a count the library's running totals cannot answer (a search, a
   * board, a model or Makes filter, a time range) stops; the others are exact.
   */
  capped?: boolean;
}

/**
 * Where a count read from the tasks themselves stops ("1,000+ tasks"): counting 10,000 matches
 * took 20-30 ms of a library of a million, a board's 10,000 over 100 ms.
 */
export const COUNT_CAP = 1_000;

/** What the library's tasks cost, summed. */
export interface CostSummary {
  /** Sum of the estimates, in micro-dollars, of all tasks but cancelled ones. */
  estimateMicros: number;
  /** Sum of `usage.consume` as the service reported it (points of one micro-dollar, by its examples). */
  consume: number;
  /**
   * What the tasks cost, in micro-dollars: each task's reported usage once known, its estimate
   * before; nothing for tasks the service never created. The budget is checked against this.
   */
  spentMicros: number;
  tasks: number;
}

/** Tasks exported to a folder: the folder made, and each task's folder and files in it. */
export interface ExportResult {
  folder: string;
  tasks: { id: string; folder: string; files: string[] }[];
}

/** A task that changed, as the engine tells its listeners and the window hears it. */
export interface TaskChange {
  taskId: string;
  /** The task as it is now; null when it was deleted. */
  task: Task | null;
}
