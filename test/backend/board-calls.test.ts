/**
 * Boards through the window's calls (`backend.handle`, the real engine, a real library): made,
 * refused by name in words, filled from a selection ("all that match, but these" as well as
 * ids), a filter of tasks.list and tasks.count, renamed, and deleted without its tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardChangeOutcome, BoardView, Task, TaskPage } from '../../src/shared/index.ts';
import { closeBackendRig, type Harness, openBackendRig, SONG } from './backend-fixtures.ts';

let dir: string;
let h: Harness;

beforeAll(async () => {
  ({ dir, h } = await openBackendRig());
});
afterAll(() => closeBackendRig({ dir, h }));

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
