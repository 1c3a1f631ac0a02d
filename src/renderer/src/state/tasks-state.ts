/**
 * Every task the renderer knows, by id, kept current by `tasks.changed` events, and the pages of
 * the library gallery loaded with keyset cursors.
 *
 * `byId` is one Map mutated in place (a delivery costs what its changes cost, not a copy of 100,000
 * entries); `rev` is bumped on every change so subscribers re-run. A selector that reads one task
 * (`s.byId.get(id)`) re-renders only when that task's object is replaced.
 */
import { create } from 'zustand';
import {
  ENGINE_WORK_STATES,
  FINISHED_STATES,
  type TaskChange,
  type TaskPage,
} from '../../../shared/index.ts';
import { hasDirectionControls, withoutDirectionControls } from '../../../shared/text/control-characters.ts';
import { invoke } from '../bridge.ts';
import {
  belongsAtTop,
  EMPTY_FILTERS,
  type LibraryFilters,
  toListQuery,
  toTaskFilter,
} from '../model/library-query.ts';
import type { LoadedTask } from '../model/task-status.ts';
import { useUi } from './ui-state.ts';

export const GALLERY_PAGE_SIZE = 120;
const ACTIVITY_PAGE_SIZE = 200;
const ACTIVITY_MAX_PAGES = 25;
const DAY_MS = 86_400_000;
const RECOUNT_DELAY_MS = 800;

export interface GalleryState {
  filters: LibraryFilters;
  /** Ids in gallery order: the loaded pages, plus live tasks put on top. */
  ids: string[];
  nextCursor: string | null;
  loading: boolean;
  /** At least one page has answered for the current filters. */
  loadedOnce: boolean;
  error: string | null;
  total: number | null;
  /** The count stopped at the store's cap (a search, a board, a model): there are more than `total`. */
  totalCapped: boolean;
  /** Records the store could not read, across the loaded pages. */
  unreadable: number;
  /** Bumped when the filters change (0: never loaded); answers for an older generation are dropped. */
  generation: number;
}

export interface TasksState {
  byId: Map<string, LoadedTask>;
  rev: number;
  gallery: GalleryState;
  activityLoaded: boolean;
  upsert(tasks: readonly LoadedTask[]): void;
  applyChanges(changes: readonly TaskChange[]): void;
  setFilters(patch: Partial<LibraryFilters>): void;
  reloadGallery(): void;
  loadNextPage(): Promise<void>;
  refreshTotal(): Promise<void>;
  loadActivity(): Promise<void>;
  /** Loads the retries (re-runs) of these failures, so each can say it was retried and by which task. */
  loadRetries(ids: readonly string[]): Promise<void>;
}

/**
 * A task as the window shows it: its title (and a deleted parent's) without direction controls,
 * as the command line prints it (`photo\u202egnp.exe` reads "photognp.exe", never "photoexe.png");
 * the titles are also shown isolated from the text around them (<bdi>, unicode-bidi in the CSS).
 */
function shown(task: LoadedTask): LoadedTask {
  if (!hasDirectionControls(task.title) && !(task.parentGone && hasDirectionControls(task.parentGone)))
    return task;
  return {
    ...task,
    title: withoutDirectionControls(task.title),
    parentGone: task.parentGone === null ? null : withoutDirectionControls(task.parentGone),
  };
}

/** Newer wins; a list item (no `inputs`) keeps the inputs an event brought. */
function merge(existing: LoadedTask | undefined, given: LoadedTask): LoadedTask | null {
  const incoming = shown(given);
  if (!existing) return incoming;
  if (incoming.updatedAt < existing.updatedAt) return null;
  if (existing === incoming) return null;
  return incoming.inputs === undefined && existing.inputs !== undefined
    ? { ...incoming, inputs: existing.inputs }
    : incoming;
}

/**
 * The gallery's ids as a set, kept with `gallery.ids` (which holds their order) as pages load and
 * events add and remove, so a batch of events costs what its changes cost, not a set of every
 * loaded id. Tied to the array it was made for: a list set any other way is indexed anew once.
 */
let galleryIndex: { ids: readonly string[]; has: Set<string> } = { ids: [], has: new Set() };

function indexFor(ids: readonly string[]): Set<string> {
  if (galleryIndex.ids !== ids) galleryIndex = { ids, has: new Set(ids) };
  return galleryIndex.has;
}

/** Records `ids` as the list `has` now indexes (the ids added and removed applied to it already). */
function indexed(ids: string[], has: Set<string>): string[] {
  galleryIndex = { ids, has };
  return ids;
}

/**
 * Ids of changed tasks that go on top of a gallery sorted newest: created no earlier than its
 * current top and not in it yet, newest first. (A task queued here is already in the map when its
 * first event comes, so being new to the map says nothing; being newer than the top does.)
 */
function newOnTop(
  candidates: readonly LoadedTask[],
  ids: readonly string[],
  inGallery: ReadonlySet<string>,
  map: ReadonlyMap<string, LoadedTask>,
): string[] {
  if (candidates.length === 0) return [];
  const top = ids[0] === undefined ? undefined : map.get(ids[0]);
  const newer = candidates.filter((t) => top === undefined || t.createdAt >= top.createdAt);
  return newer
    .filter((t) => !inGallery.has(t.id))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((t) => t.id)
    .filter((id, index, list) => list.indexOf(id) === index);
}

let recountTimer: ReturnType<typeof setTimeout> | null = null;

export const useTasks = create<TasksState>()((set, get) => {
  const writeAll = (tasks: readonly LoadedTask[]): boolean => {
    const map = get().byId;
    let changed = false;
    for (const task of tasks) {
      const merged = merge(map.get(task.id), task);
      if (merged) {
        map.set(task.id, merged);
        changed = true;
      }
    }
    return changed;
  };

  /** At most one count per RECOUNT_DELAY_MS while changes stream in (a throttle, not a debounce). */
  const scheduleRecount = () => {
    if (recountTimer) return;
    recountTimer = setTimeout(() => {
      recountTimer = null;
      if (get().gallery.loadedOnce) void get().refreshTotal();
    }, RECOUNT_DELAY_MS);
  };

  return {
    byId: new Map(),
    rev: 0,
    gallery: {
      filters: EMPTY_FILTERS,
      ids: [],
      nextCursor: null,
      loading: false,
      loadedOnce: false,
      error: null,
      total: null,
      totalCapped: false,
      unreadable: 0,
      generation: 0,
    },
    activityLoaded: false,

    upsert: (tasks) => {
      if (writeAll(tasks)) set((s) => ({ rev: s.rev + 1 }));
    },

    applyChanges: (changes) => {
      const map = get().byId;
      const gallery = get().gallery;
      const removed = new Set<string>();
      const candidates: LoadedTask[] = [];
      let recount = false;
      const inGallery = indexFor(gallery.ids);
      for (const change of changes) {
        if (change.task === null) {
          map.delete(change.taskId);
          removed.add(change.taskId);
          useUi.getState().forget(change.taskId);
          recount = true;
          continue;
        }
        const existing = map.get(change.taskId);
        if (!existing || existing.state !== change.task.state || existing.favorite !== change.task.favorite)
          recount = true;
        // moved to Recently deleted or back: off the side of the gallery it left
        if ((change.task.deletedAt !== null) !== gallery.filters.trashed) {
          if (inGallery.has(change.taskId)) removed.add(change.taskId);
          if ((existing?.deletedAt ?? null) !== change.task.deletedAt) recount = true;
        }
        const merged = merge(existing, change.task);
        if (merged) map.set(change.taskId, merged);
        if (gallery.loadedOnce && belongsAtTop(change.task, gallery.filters)) candidates.push(change.task);
      }
      const fresh = newOnTop(candidates, gallery.ids, inGallery, map);
      // a selection holds only tasks the list shows: what an action touches is what is ticked
      if (removed.size > 0) useUi.getState().leftList(removed);
      const leaving = [...removed].filter((id) => inGallery.has(id));
      set((s) => {
        if (fresh.length === 0 && leaving.length === 0) return { rev: s.rev + 1 };
        // only a batch that changes the list makes a new one (the view needs a new array)
        for (const id of leaving) inGallery.delete(id);
        for (const id of fresh) inGallery.add(id);
        const kept = leaving.length > 0 ? s.gallery.ids.filter((id) => !removed.has(id)) : s.gallery.ids;
        return {
          rev: s.rev + 1,
          gallery: { ...s.gallery, ids: indexed(fresh.length > 0 ? [...fresh, ...kept] : kept, inGallery) },
        };
      });
      if (recount) scheduleRecount();
    },

    setFilters: (patch) => {
      set((s) => ({ gallery: { ...s.gallery, filters: { ...s.gallery.filters, ...patch } } }));
      // a selection belongs to the filter it was made under ("all that match" most of all)
      useUi.getState().setSelection([], null);
      get().reloadGallery();
    },

    reloadGallery: () => {
      set((s) => ({
        gallery: {
          ...s.gallery,
          ids: [],
          nextCursor: null,
          loading: false,
          loadedOnce: false,
          error: null,
          unreadable: 0,
          generation: s.gallery.generation + 1,
        },
      }));
      void get().loadNextPage();
      void get().refreshTotal();
    },

    loadNextPage: async () => {
      const start = get().gallery;
      // generation 0: the gallery was never opened; reloadGallery starts it (with its count)
      if (start.generation === 0 || start.loading || (start.loadedOnce && start.nextCursor === null)) return;
      const generation = start.generation;
      set((s) => ({ gallery: { ...s.gallery, loading: true, error: null } }));
      try {
        const page = await invoke(
          'tasks.list',
          toListQuery(start.filters, GALLERY_PAGE_SIZE, start.nextCursor),
        );
        if (get().gallery.generation !== generation) return;
        writeAll(page.items);
        set((s) => {
          const present = indexFor(s.gallery.ids);
          const added = page.items.map((t) => t.id).filter((id) => !present.has(id));
          for (const id of added) present.add(id);
          return {
            rev: s.rev + 1,
            gallery: {
              ...s.gallery,
              ids: added.length > 0 ? indexed([...s.gallery.ids, ...added], present) : s.gallery.ids,
              nextCursor: page.nextCursor,
              loading: false,
              loadedOnce: true,
              unreadable: s.gallery.unreadable + page.unreadable.length,
            },
          };
        });
      } catch (err) {
        if (get().gallery.generation !== generation) return;
        const message = err instanceof Error ? err.message : String(err);
        set((s) => ({ gallery: { ...s.gallery, loading: false, loadedOnce: true, error: message } }));
      }
    },

    refreshTotal: async () => {
      const { filters, generation } = get().gallery;
      try {
        const count = await invoke('tasks.count', toTaskFilter(filters));
        if (get().gallery.generation !== generation) return;
        set((s) => ({ gallery: { ...s.gallery, total: count.total, totalCapped: count.capped === true } }));
      } catch {
        // the count is informative; the list shows its own error
      }
    },

    loadRetries: async (ids) => {
      if (ids.length === 0) return;
      try {
        get().upsert(await invoke('tasks.retries', { ids: ids.slice(0, 500) }));
      } catch {
        // a failure then offers Fix & retry as if it had none; the retry's own events still come
      }
    },

    loadActivity: async () => {
      const states = [...ENGINE_WORK_STATES, 'uncertain' as const];
      let cursor: string | null = null;
      for (let page = 0; page < ACTIVITY_MAX_PAGES; page++) {
        const answer: TaskPage = await invoke('tasks.list', {
          states,
          order: 'newest',
          limit: ACTIVITY_PAGE_SIZE,
          cursor,
        });
        get().upsert(answer.items);
        cursor = answer.nextCursor;
        if (!cursor) break;
      }
      const dayAgo = new Date(Date.now() - DAY_MS).toISOString();
      const [failed, finished] = await Promise.all([
        invoke('tasks.list', {
          states: ['failed'],
          createdFrom: dayAgo,
          order: 'newest',
          limit: ACTIVITY_PAGE_SIZE,
        }),
        invoke('tasks.list', {
          states: FINISHED_STATES,
          createdFrom: dayAgo,
          order: 'newest',
          limit: 20,
        }),
      ]);
      get().upsert([...failed.items, ...finished.items]);
      await get().loadRetries(failed.items.map((t) => t.id));
      set({ activityLoaded: true });
    },
  };
});
