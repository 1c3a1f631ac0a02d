/**
 * The boards the sidebar lists (issue 22, item 1), with their counts as the library gives them,
 * and the calls that change them. After a change the list loads again, and the gallery too when
 * it shows a board (what it holds may have changed).
 */
import { create } from 'zustand';
import type { BoardChangeOutcome, BoardView, TaskSelection } from '../../../shared/index.ts';
import { invoke } from '../bridge.ts';
import { useTasks } from './tasks-state.ts';

export interface BoardsState {
  boards: BoardView[];
  /** Loads the list again (after a change here, or when the library's counts may have moved). */
  load(): Promise<void>;
  create(name: string): Promise<BoardView>;
  rename(id: number, name: string): Promise<BoardView>;
  remove(id: number): Promise<void>;
  /** Puts the selection on the board with this id, or of this name (any case; made when missing). */
  add(board: number | string, selection: TaskSelection): Promise<BoardChangeOutcome>;
  takeOff(id: number, selection: TaskSelection): Promise<BoardChangeOutcome>;
}

let loads = 0;

/** Loads the gallery again when it shows this board (or, with null, any board). */
function reloadBoardView(id: number | null): void {
  const shown = useTasks.getState().gallery.filters.board;
  if (shown !== null && (id === null || shown === id)) useTasks.getState().reloadGallery();
}

export const useBoards = create<BoardsState>()((set, get) => ({
  boards: [],
  load: async () => {
    const mine = ++loads;
    const boards = await invoke('boards.list', {});
    // an older answer never replaces a newer one
    if (mine === loads) set({ boards });
  },
  create: async (name) => {
    const board = await invoke('boards.create', { name });
    await get().load();
    return board;
  },
  rename: async (id, name) => {
    const board = await invoke('boards.rename', { id, name });
    await get().load();
    return board;
  },
  remove: async (id) => {
    await invoke('boards.delete', { id });
    if (useTasks.getState().gallery.filters.board === id) useTasks.getState().setFilters({ board: null });
    await get().load();
  },
  add: async (board, selection) => {
    const outcome = await invoke(
      'boards.add',
      typeof board === 'number' ? { id: board, selection } : { name: board, selection },
    );
    await get().load();
    reloadBoardView(outcome.board.id);
    return outcome;
  },
  takeOff: async (id, selection) => {
    const outcome = await invoke('boards.remove', { id, selection });
    await get().load();
    reloadBoardView(id);
    return outcome;
  },
}));

/** Shows a board's tasks in the library (null: every task). */
export function showBoard(id: number | null): void {
  const tasks = useTasks.getState();
  const { filters } = tasks.gallery;
  if (filters.board === id && !filters.trashed) return;
  tasks.setFilters({ board: id, trashed: false });
}
