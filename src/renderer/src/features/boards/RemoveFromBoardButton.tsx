/** "Remove from board": takes the selection off the board the library shows (only while it shows one). */
import { useBoards } from '../../state/boards-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { currentSelection } from '../library/gallery-selection.ts';
import { takenOffWords } from './board-words.ts';

export function RemoveFromBoardButton() {
  const boardId = useTasks((s) => s.gallery.filters.board);
  const board = useBoards((s) => s.boards.find((b) => b.id === boardId) ?? null);
  if (board === null) return null;
  const takeOff = () => {
    const selection = currentSelection();
    if (selection === null) return;
    useBoards
      .getState()
      .takeOff(board.id, selection)
      .then((outcome) => {
        useUi.getState().setSelection([], null);
        useUi.getState().pushToast('success', takenOffWords(outcome));
      }, toastError);
  };
  return (
    <button type="button" className="button button-small" onClick={takeOff}>
      Remove from “<bdi>{board.name}</bdi>”
    </button>
  );
}
