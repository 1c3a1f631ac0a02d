/**
 * Boards through the window's calls (`backend.handle`, the real engine, a real library): made,
 * refused by name in words, filled from a selection ("all that match, but these" as well as
 * ids), a filter of tasks.list and tasks.count, renamed, and deleted without its tasks.
 *
 * Then the window's own library state (src/renderer/src/state, the selection and its words) over
 * the same calls and events, through the preload's bridge as `window.studio` (globalThis here): a selection keeps
 * only tasks the list still holds, and Select all past the store's count cap says so.
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
