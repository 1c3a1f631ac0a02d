/**
 * The library filter bar's Board: the same filter as a board pressed in the sidebar, shown only in
 * a narrow window, whose navigation is glyphs without the boards (boards.css); its options make,
 * rename and delete boards there (BoardOptions).
 */
import { useEffect } from 'react';
import { useBoards } from '../../state/boards-state.ts';
import '../../styles/boards.css';
import { useTasks } from '../../state/tasks-state.ts';
import { BoardOptions } from './BoardOptions.tsx';

export function BoardFilter({ id }: { id: string }) {
  const boards = useBoards((s) => s.boards);
  const board = useTasks((s) => s.gallery.filters.board);
  const setFilters = useTasks((s) => s.setFilters);
  useEffect(() => {
    useBoards
      .getState()
      .load()
      .catch(() => undefined);
  }, []);
  return (
    <div className="filter filter-board">
      <label htmlFor={id}>Board</label>
      <span className="filter-board-row">
        <select
          id={id}
          value={board === null ? '' : String(board)}
          onChange={(event) =>
            setFilters({ board: event.target.value === '' ? null : Number(event.target.value) })
          }
        >
          <option value="">Any board</option>
          {boards.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name} ({b.tasks.toLocaleString('en-US')})
            </option>
          ))}
        </select>
        <BoardOptions />
      </span>
    </div>
  );
}
