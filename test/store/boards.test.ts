/**
 * Boards in the store (migration 13), on real SQLite files: a board is a filter of the list like
 * any other (with search, Type and states, in every order, paged), its count leaves out Recently
 * deleted, a task is on several boards, deleting a board keeps its tasks, deleting a task forever
 * takes it off its boards, and names are unique without regard to case.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LIST_ORDERS } from '../../src/shared/index.ts';
import { allPages, imageTask, songTask, steppingClock, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

function filled() {
  const store = libs.open(undefined, { now: steppingClock() });
  for (let i = 0; i < 8; i++) {
    const createdAt = new Date(Date.parse('2025-03-01T00:00:00Z') + i * 60_000).toISOString();
    store.insertTask(
      i < 4
        ? songTask({ id: `s${i}`, title: `Rain song ${i}`, createdAt })
        : imageTask({ id: `i${i - 4}`, title: `Bicycle ${i}`, createdAt }),
    );
  }
  return store;
}

describe('boards', () => {
  it('filters the list like any other filter, in every order, and combines with search and Type', () => {
    const store = filled();
    const keep = store.createBoard('  Keepers ');
    expect(keep).toEqual({ id: keep.id, name: 'Keepers', tasks: 0 });
    const added = store.addToBoard(keep.id, ['s0', 's2', 'i1', 'i3', 's2', 'nope']);
    expect(added).toEqual({ board: { ...keep, tasks: 4 }, changed: 4, missing: ['nope'] });
    expect(store.addToBoard(keep.id, ['s0'])?.changed).toBe(0);
    for (const order of LIST_ORDERS) {
      const { ids } = allPages(store, { board: keep.id, order, limit: 3 });
      expect(ids.sort(), order).toEqual(['i1', 'i3', 's0', 's2']);
    }
    expect(allPages(store, { board: keep.id, family: 'song' }).ids).toEqual(['s2', 's0']);
    expect(allPages(store, { board: keep.id, search: 'bicycle' }).ids).toEqual(['i3', 'i1']);
    expect(allPages(store, { board: keep.id, search: 'bicycle', order: 'title' }).ids).toEqual(['i1', 'i3']);
    expect(allPages(store, { board: keep.id, states: ['queued'] }).ids).toHaveLength(4);
    expect(store.countTasks({ board: keep.id })).toMatchObject({ total: 4 });
    expect(store.countTasks({ board: keep.id, family: 'song' })).toMatchObject({ total: 2 });
    expect(allPages(store, { board: keep.id + 1 }).ids).toEqual([]);
  });

  it('puts a task on several boards; Recently deleted leaves their views and counts until restored', () => {
    const store = filled();
    const a = store.createBoard('Dawn');
    const b = store.createBoard('covers');
    store.addToBoard(a.id, ['s1', 'i0']);
    store.addToBoard(b.id, ['s1']);
    expect(store.boardNamesOf('s1')).toEqual(['covers', 'Dawn']);
    expect(store.boards().map((x) => [x.name, x.tasks])).toEqual([
      ['covers', 1],
      ['Dawn', 2],
    ]);
    store.trashTasks(['s1'], '2025-03-02T00:00:00.000Z');
    expect(store.boards().map((x) => x.tasks)).toEqual([0, 1]);
    expect(allPages(store, { board: a.id }).ids).toEqual(['i0']);
    expect(store.countTasks({ board: a.id }).total).toBe(1);
    expect(store.addToBoard(b.id, ['s1'])).toMatchObject({ changed: 0, missing: ['s1'] });
    store.restoreTasks(['s1']);
    expect(allPages(store, { board: a.id }).ids).toEqual(['i0', 's1']);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('deleting a board keeps its tasks; deleting a task forever takes it off its boards', () => {
    const store = filled();
    const a = store.createBoard('Dawn');
    store.addToBoard(a.id, ['s0', 's3']);
    store.deleteTask('s3');
    expect(store.board(a.id)?.tasks).toBe(1);
    expect(store.removeFromBoard(a.id, ['s0', 's3'])).toMatchObject({ changed: 1, missing: ['s3'] });
    store.addToBoard(a.id, ['s0']);
    expect(store.deleteBoard(a.id)).toBe(true);
    expect(store.deleteBoard(a.id)).toBe(false);
    expect(store.getTask('s0')).not.toBeNull();
    expect(store.countTasks().total).toBe(7);
    expect(store.boardNamesOf('s0')).toEqual([]);
    expect(store.addToBoard(a.id, ['s0'])).toBeNull();
    expect(store.integrityCheck()).toBe('ok');
  });

  it('a big board (more tasks than sorting them costs) lists the same, walking the library and checking each task', () => {
    const store = libs.open(undefined, { now: steppingClock() });
    const ids: string[] = [];
    store.transaction(() => {
      for (let i = 0; i < 300; i++) {
        const createdAt = new Date(Date.parse('2025-03-01T00:00:00Z') + i * 60_000).toISOString();
        const make = i % 2 === 0 ? songTask : imageTask;
        ids.push(store.insertTask(make({ id: `t${i}`, title: `Take ${i % 17}`, createdAt })).id);
      }
    });
    // 200 of 300: 200² > 51 × 300, so a page walks the library's list and checks the board's key
    const big = store.createBoard('Most');
    const onBoard = ids.filter((_, i) => i % 3 !== 0);
    store.addToBoard(big.id, onBoard);
    store.trashTasks(['t1', 't2'], '2025-03-02T00:00:00.000Z');
    const kept = onBoard.filter((id) => id !== 't1' && id !== 't2');
    const newest = [...kept].reverse();
    expect(allPages(store, { board: big.id, limit: 7 }).ids).toEqual(newest);
    expect(allPages(store, { board: big.id, order: 'oldest', limit: 50 }).ids).toEqual(kept);
    for (const order of LIST_ORDERS) {
      expect(allPages(store, { board: big.id, order, limit: 9 }).ids.sort(), order).toEqual([...kept].sort());
    }
    const songs = newest.filter((id) => Number(id.slice(1)) % 2 === 0);
    expect(allPages(store, { board: big.id, family: 'song', limit: 11 }).ids).toEqual(songs);
    expect(allPages(store, { board: big.id, model: 'ace-step', limit: 11 }).ids).toEqual(songs);
    expect(allPages(store, { board: big.id, search: 'take', limit: 13 }).ids).toEqual(newest);
    expect(allPages(store, { board: big.id, trashed: true }).ids).toEqual(['t2', 't1']);
    expect(store.countTasks({ board: big.id })).toMatchObject({ total: kept.length });
    expect(store.board(big.id)?.tasks).toBe(kept.length);
  });

  it('keeps names unique without regard to case, and refuses bad ones in words', () => {
    const store = filled();
    const a = store.createBoard('Dawn');
    expect(() => store.createBoard('dawn')).toThrow('a board named "dawn" already exists');
    expect(() => store.createBoard('  ')).toThrow('a board needs a name');
    expect(() => store.createBoard('x'.repeat(81))).toThrow('a board name is at most 80 characters');
    expect(() => store.createBoard('a\nb')).toThrow('a board name is one line of text');
    expect(store.renameBoard(a.id, 'DAWN')?.name).toBe('DAWN');
    const b = store.createBoard('Noon');
    expect(() => store.renameBoard(b.id, 'dawn')).toThrow('already exists');
    expect(store.renameBoard(999, 'x')).toBeNull();
    expect(store.board('noon')?.id).toBe(b.id);
    expect(store.board('dusk')).toBeNull();
  });
});
