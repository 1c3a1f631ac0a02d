/**
 * Boards through the window's calls (`backend.handle`, the real engine, a real library): made,
 * refused by name in words, filled from a selection ("all that match, but these" as well as
 * ids), a filter of tasks.list and tasks.count, renamed, and deleted without its tasks.
 *
 * Then the window's own library state (src/renderer/src/state, the selection and its words) over
 * the same calls and events, through the preload's bridge as `window.studio` (globalThis here): a selection keeps
 * only tasks the list still holds, and Select all past the store's count cap says so; the list
 * itself stays right across pages, moves and new tasks, each batch of events costing what it changes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIBRARY_FOLDER } from '../../src/core/library/index.ts';
import { LibraryStore } from '../../src/core/store/index.ts';
import {
  currentSelection,
  selectedIds,
  selectionWords,
} from '../../src/renderer/src/features/library/gallery-selection.ts';
import { useTasks } from '../../src/renderer/src/state/tasks-state.ts';
import { useUi } from '../../src/renderer/src/state/ui-state.ts';
import {
  type BoardChangeOutcome,
  type BoardView,
  COUNT_CAP,
  type Task,
  type TaskPage,
} from '../../src/shared/index.ts';
import { songTask } from '../store/store-fixtures.ts';
import {
  closeBackendRig,
  type Harness,
  openBackend,
  removeDir,
  SONG,
  tempDir,
  waitUntil,
  windowBridge,
} from './backend-fixtures.ts';

let dir: string;
let h: Harness;

/** One past the store's count cap: a search for them counts "1,000+". */
const HARBORS = COUNT_CAP + 1;

/** Ended songs picked by the selection's tests. */
const PICKS = ['pick-dawn', 'pick-noon', 'pick-dusk'];

/**
 * Ended tasks titled "Harbor N" and the picks, written into the demo library before the backend
 * opens it (no service time spent on them).
 */
function plantHarbors(libraryDir: string): void {
  const store = LibraryStore.open(libraryDir, { idleCheckpointMs: 0 });
  try {
    store.transaction(() => {
      const titles = [...PICKS, ...Array.from({ length: HARBORS }, (_, i) => `harbor-${i}`)];
      for (const id of titles) {
        store.insertTask(songTask({ id, title: id.replace('-', ' '), style: id.split('-')[0] }));
        store.transition(id, 'failed', {
          patch: { error: { kind: 'bad-request', message: 'no', code: 400 } },
        });
      }
    });
  } finally {
    store.close();
  }
}

/** The window's stores as this file found them (files share their worker): put back after it. */
const before = { gallery: useTasks.getState().gallery, ui: useUi.getState() };

beforeAll(async () => {
  dir = await tempDir();
  try {
    plantHarbors(join(dir, DEMO_LIBRARY_FOLDER));
    h = await openBackend(dir);
  } catch (err) {
    await removeDir(dir);
    throw err;
  }
  // the window's bridge (window.studio), as the preload gives it, with its events as useTaskEvents follows them
  (globalThis as { studio?: unknown }).studio = windowBridge(h);
  h.backend.on('tasks.changed', (changes) => useTasks.getState().applyChanges(changes));
});
afterAll(async () => {
  delete (globalThis as { studio?: unknown }).studio;
  useTasks.setState({ byId: new Map(), rev: 0, gallery: before.gallery });
  useUi.setState(before.ui, true);
  await closeBackendRig({ dir, h });
});

/** Shows the library list for this search in the window's state, once its first page and count are in. */
async function showSearch(search: string): Promise<void> {
  useTasks.getState().setFilters({ search });
  await waitUntil(
    () => useTasks.getState().gallery.loadedOnce && useTasks.getState().gallery.total !== null,
    `the list for "${search}"`,
  );
}

describe('boards through the contract', () => {
  it('makes, fills, filters, renames and deletes a board; its tasks stay', async () => {
    const songs: Task[] = [];
    for (const style of ['board dawn', 'board noon', 'board dusk']) {
      songs.push(await h.ok<Task>('tasks.queue', { ...SONG, input: { ...SONG.input, style_prompt: style } }));
    }
    const [dawn, noon, dusk] = songs.map((t) => t.id) as [string, string, string];
    const board = await h.ok<BoardView>('boards.create', { name: ' Keepers ' });
    expect(board).toEqual({ id: board.id, name: 'Keepers', tasks: 0 });
    const taken = await h.call('boards.create', { name: 'KEEPERS' });
    expect(taken.ok === false && taken.error).toMatchObject({
      kind: 'invalid-input',
      field: 'name',
      message: 'a board named "KEEPERS" already exists',
    });

    // "all that match but one": the selection is resolved by the library
    const added = await h.ok<BoardChangeOutcome>('boards.add', {
      id: board.id,
      selection: { filter: { search: 'board' }, except: [noon] },
    });
    expect(added).toEqual({ board: { ...board, tasks: 2 }, changed: 2, missing: [] });
    const page = await h.ok<TaskPage>('tasks.list', { board: board.id, search: 'dusk' });
    expect(page.items.map((t) => t.id)).toEqual([dusk]);
    expect((await h.ok<{ total: number }>('tasks.count', { board: board.id })).total).toBe(2);

    const removed = await h.ok<BoardChangeOutcome>('boards.remove', {
      id: board.id,
      selection: { ids: [dawn] },
    });
    expect(removed.board.tasks).toBe(1);
    const renamed = await h.ok<BoardView>('boards.rename', { id: board.id, name: 'Best' });
    expect(await h.ok<BoardView[]>('boards.list')).toEqual([{ ...renamed, tasks: 1 }]);
    expect(await h.ok('boards.delete', { id: board.id })).toEqual({ deleted: true });
    const gone = await h.call('boards.add', { id: board.id, selection: { ids: [dawn] } });
    expect(gone.ok === false && gone.error).toMatchObject({ kind: 'not-found', field: 'id' });
    expect(await h.ok('tasks.get', { id: dusk })).not.toBeNull();
  });
});

describe('board names: one rule for the window and the command line', () => {
  it("Add to board by a name takes the board of that name in any case, as the CLI's board add does; made when missing", async () => {
    const song = { id: 'harbor-1' };
    const harbours = await h.ok<BoardView>('boards.create', { name: 'Harbours' });
    const added = await h.ok<BoardChangeOutcome>('boards.add', {
      name: ' harbours ',
      selection: { ids: [song.id] },
    });
    expect(added).toEqual({ board: { ...harbours, tasks: 1 }, changed: 1, missing: [] });
    const made = await h.ok<BoardChangeOutcome>('boards.add', {
      name: 'Lighthouses',
      selection: { ids: [song.id] },
    });
    expect(made.board).toMatchObject({ name: 'Lighthouses', tasks: 1 });
    // making a board (the sidebar's + New board) or renaming one onto another's name is still refused
    const taken = await h.call('boards.create', { name: 'LIGHTHOUSES' });
    expect(taken.ok === false && taken.error.message).toBe('a board named "LIGHTHOUSES" already exists');
  });

  it('refuses a name with an invisible character (zero-width space, joiner, word joiner, BOM): two boards would look alike', async () => {
    for (const invisible of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']) {
      const name = `Harbo${invisible}urs`;
      for (const [call, args] of [
        ['boards.create', { name }],
        ['boards.add', { name, selection: { ids: ['x'] } }],
      ] as const) {
        const refused = await h.call(call, args);
        expect(refused.ok === false && refused.error).toMatchObject({
          kind: 'invalid-input',
          message: expect.stringContaining('a board name cannot hold invisible characters'),
        });
      }
    }
  });
});

describe("the window's selection", () => {
  it('drops tasks that leave the list (moved to Recently deleted elsewhere); the actions take only the rest', async () => {
    const [dawn, noon, dusk] = PICKS as [string, string, string];
    await showSearch('pick');
    expect([...useTasks.getState().gallery.ids].sort()).toEqual([...PICKS].sort());
    useUi.getState().setSelection([dawn, noon, dusk], dusk);

    // moved by another hand (retention's run, the command line): the list learns it by an event
    await h.ok('tasks.delete', { selection: { ids: [dawn, noon] } });
    await waitUntil(() => !useTasks.getState().gallery.ids.includes(noon), 'the moved songs off the list');
    expect([...useUi.getState().selection]).toEqual([dusk]);
    expect(currentSelection()).toEqual({ ids: [dusk] });
    expect(selectionWords(useUi.getState(), useTasks.getState().gallery)).toBe('1 selected');

    // Select all with an exception that leaves: the exception goes with it
    useUi.getState().selectAllMatching();
    useUi.getState().toggleSelected(dusk);
    await h.ok('tasks.delete', { selection: { ids: [dusk] } });
    await waitUntil(() => !useTasks.getState().gallery.ids.includes(dusk), 'the last song off the list');
    expect(useUi.getState().allMatching?.except.size).toBe(0);
  });

  it('Select all past the count cap says "1,000+", never a smaller number, and the ids are every match', async () => {
    await showSearch('harbor');
    expect(useTasks.getState().gallery).toMatchObject({ total: COUNT_CAP, totalCapped: true });
    useUi.getState().selectAllMatching();
    const words = () => selectionWords(useUi.getState(), useTasks.getState().gallery);
    expect(words()).toBe('1,000+ selected');
    expect(await selectedIds()).toHaveLength(HARBORS);
    // one unticked: still more than 999
    useUi.getState().toggleSelected('harbor-7');
    expect(words()).toBe('999+ selected');
    useUi.getState().setSelection([], null);
  });
});

describe("the window's list of tasks", () => {
  const ids = () => useTasks.getState().gallery.ids;
  const once = (list: readonly string[]) => new Set(list).size === list.length;

  it('stays right across pages, moves to Recently deleted and back, and a new task on top; an event costs what it changes', async () => {
    await showSearch('');
    while (useTasks.getState().gallery.nextCursor !== null) await useTasks.getState().loadNextPage();
    const all = [...ids()];
    // (a task the service is working on is not moved: the first test's songs end first)
    const ended = ['saved', 'failed', 'cancelled', 'expired'];
    const hasEnded = (id: string) => ended.includes(useTasks.getState().byId.get(id)?.state ?? '');
    await waitUntil(() => all.every(hasEnded), 'the songs queued before ended');
    expect(all.length).toBeGreaterThan(HARBORS);
    expect(all.length).toBe(useTasks.getState().gallery.total);
    expect(once(all)).toBe(true);

    // a batch of events reads the gallery's ids it changes, not all of them (it held a set of
    // every loaded id made anew for each batch): the list's elements read are counted
    let reads = 0;
    const counted = new Proxy([...all], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    useTasks.setState((s) => ({ gallery: { ...s.gallery, ids: counted } }));
    const favourite = async (id: string, on: boolean) => {
      await h.ok('tasks.setFavorite', { id, favorite: on });
      await waitUntil(() => useTasks.getState().byId.get(id)?.favorite === on, `${id} favourite ${on}`);
    };
    const far = all[700] as string;
    await favourite(far, true); // the first batch after a list set from outside may read it once
    reads = 0;
    await favourite(far, false);
    await favourite(far, true);
    await favourite(far, false);
    expect(reads).toBeLessThan(10);
    expect(ids()).toBe(counted);

    // moved to Recently deleted from the first, a middle and the last page: off the list, in order
    const [top, middle, last] = [all[0], all[500], all.at(-1)] as [string, string, string];
    await h.ok('tasks.delete', { selection: { ids: [top, middle, last] } });
    await waitUntil(() => !ids().includes(last), 'the moved tasks off the list');
    expect(ids(), 'the moved tasks off the list').toEqual(
      all.filter((id) => id !== top && id !== middle && id !== last),
    );
    // back: the newest goes on top again (once), an older one waits for the next load
    await h.ok('tasks.restore', { selection: { ids: [top, middle] } });
    await waitUntil(() => ids()[0] === top, 'the restored newest task on top');
    expect(ids(), 'the restored newest task on top, the older one not yet').toEqual(
      all.filter((id) => id !== middle && id !== last),
    );

    // a new task goes on top once, whatever events follow it
    const made = await h.ok<Task>('tasks.queue', {
      ...SONG,
      input: { ...SONG.input, style_prompt: 'list new' },
    });
    await waitUntil(() => ids()[0] === made.id, 'the new task on top');
    await waitUntil(() => hasEnded(made.id), 'the new task ended');
    await favourite(made.id, true);
    expect(ids(), 'the new task once, on top').toEqual([
      made.id,
      ...all.filter((id) => id !== middle && id !== last),
    ]);
    await h.ok('tasks.restore', { selection: { ids: [last] } });
    await h.ok('tasks.delete', { selection: { ids: [made.id] } });
    await waitUntil(() => ids()[0] !== made.id, 'the new task off the list');
    expect(ids(), 'the list without the new task').toEqual(all.filter((id) => id !== middle && id !== last));
    expect(once(ids())).toBe(true);
  });
});
