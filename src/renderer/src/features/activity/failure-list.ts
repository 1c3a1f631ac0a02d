/**
 * Activity's list of failures: those the user dismissed (hidden from Activity, kept in the
 * library; remembered on this computer across restarts), and the older failures beyond the
 * last day, counted by the library and loaded on request.
 */
import { create } from 'zustand';
import { invoke } from '../../bridge.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';

const STORAGE_KEY = 'activity.dismissedFailures';
/** Dismissals remembered at most (the oldest go first). */
const MAX_DISMISSED = 2_000;
const OLDER_PAGE = 100;

export interface Dismissal {
  /** When the task was created (ISO), to tell the older ones from the last day's. */
  createdAt: string;
  /** The library it belongs to (demo mode has its own). */
  library: string;
}

export interface FailureListState {
  dismissed: ReadonlyMap<string, Dismissal>;
  /** Older failures were asked for: Activity lists every failure the window knows. */
  showOlder: boolean;
  /** Failed tasks created before the start of the last day, as the library counts them; null until counted. */
  olderTotal: number | null;
  /** Where the next page of older failures starts; null once every one is loaded. */
  olderCursor: string | null;
  loadingOlder: boolean;
  dismiss(id: string, createdAt: string): void;
  restore(id: string): void;
  /** The task is gone from the library. */
  forget(id: string): void;
  countOlder(before: string): Promise<void>;
  loadOlder(before: string): Promise<void>;
  /** Another library is shown: its older failures are counted again. */
  reset(): void;
}

function readDismissed(): Map<string, Dismissal> {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    if (!Array.isArray(raw)) return new Map();
    const entries = raw.filter(
      (e): e is [string, Dismissal] =>
        Array.isArray(e) &&
        typeof e[0] === 'string' &&
        typeof e[1]?.createdAt === 'string' &&
        typeof e[1]?.library === 'string',
    );
    return new Map(entries);
  } catch {
    return new Map(); // unreadable or no storage: nothing was dismissed
  }
}

function keep(dismissed: ReadonlyMap<string, Dismissal>): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...dismissed].slice(-MAX_DISMISSED)));
  } catch {
    // no storage: the dismissal lasts until the window closes
  }
}

function changed(
  dismissed: ReadonlyMap<string, Dismissal>,
  edit: (map: Map<string, Dismissal>) => void,
): Map<string, Dismissal> {
  const next = new Map(dismissed);
  edit(next);
  keep(next);
  return next;
}

export const useFailureList = create<FailureListState>()((set, get) => ({
  dismissed: readDismissed(),
  showOlder: false,
  olderTotal: null,
  olderCursor: null,
  loadingOlder: false,
  dismiss: (id, createdAt) => {
    const library = useStudio.getState().settings?.libraryInUse ?? '';
    set((s) => ({ dismissed: changed(s.dismissed, (m) => m.set(id, { createdAt, library })) }));
  },
  restore: (id) => {
    if (!get().dismissed.has(id)) return;
    set((s) => ({ dismissed: changed(s.dismissed, (m) => m.delete(id)) }));
  },
  forget: (id) => get().restore(id),
  countOlder: async (before) => {
    try {
      const { total } = await invoke('tasks.count', { states: ['failed'], createdTo: before });
      set({ olderTotal: total });
    } catch {
      // the count only offers the older failures; without it the offer waits
    }
  },
  loadOlder: async (before) => {
    const { loadingOlder, showOlder, olderCursor } = get();
    // shown already and no cursor left: every older failure is loaded
    if (loadingOlder || (showOlder && olderCursor === null)) return;
    set({ loadingOlder: true, showOlder: true });
    try {
      const page = await invoke('tasks.list', {
        states: ['failed'],
        createdTo: before,
        order: 'newest',
        limit: OLDER_PAGE,
        cursor: showOlder ? olderCursor : null,
      });
      useTasks.getState().upsert(page.items);
      await useTasks.getState().loadRetries(page.items.map((t) => t.id));
      set({ olderCursor: page.nextCursor });
    } finally {
      set({ loadingOlder: false });
    }
  },
  reset: () => set({ showOlder: false, olderTotal: null, olderCursor: null, loadingOlder: false }),
}));

/** The dismissals that belong to the library shown now. */
export function dismissedHere(dismissed: ReadonlyMap<string, Dismissal>, library: string): Set<string> {
  const ids = new Set<string>();
  for (const [id, entry] of dismissed) if (entry.library === library) ids.add(id);
  return ids;
}
