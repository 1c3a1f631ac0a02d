/** The words of boards: a change said in a toast, the question before deleting one, a refused name. */
import type { BoardChangeOutcome, BoardView } from '../../../../shared/index.ts';
import { tasksWord as tasks } from '../../../../shared/task/task-count-words.ts';
import { errorText } from '../../model/studio-error.ts';

export function addedWords(outcome: BoardChangeOutcome): string {
  const { board, changed, missing } = outcome;
  const head = changed === 0 ? `Already on “${board.name}”` : `Added ${tasks(changed)} to “${board.name}”`;
  return missing.length > 0 ? `${head} (${tasks(missing.length)} in Recently deleted left out)` : head;
}

/**
 * The board a typed name names, found as the store finds it (`boards.add` by name: the name
 * trimmed, letters A-Z in any case, SQLite's NOCASE), or null when the name makes a new board.
 */
export function boardNamed(boards: readonly BoardView[], name: string): BoardView | null {
  const fold = (text: string) => text.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
  const wanted = fold(name);
  if (wanted === '') return null;
  return boards.find((board) => fold(board.name) === wanted) ?? null;
}

/** Add to board's name field, as the user types: "Adds to the existing board “Harbours” (3 tasks)." */
export function namedBoardWords(boards: readonly BoardView[], name: string): string | null {
  const board = boardNamed(boards, name);
  return board ? `Adds to the existing board “${board.name}” (${tasks(board.tasks)}).` : null;
}

export function takenOffWords(outcome: BoardChangeOutcome): string {
  return `Took ${tasks(outcome.changed)} off “${outcome.board.name}”`;
}

/** What deleting a board leaves: "Its 3 tasks stay in the library; only the board goes." */
export function deleteBoardWords(board: BoardView): string {
  if (board.tasks === 0) return 'It holds no tasks; only the board goes.';
  return `Its ${tasks(board.tasks)} ${board.tasks === 1 ? 'stays' : 'stay'} in the library; only the board goes.`;
}

/** A refused board name as a sentence at its field ("Name: a board named …" → "A board named …"). */
export function boardErrorText(err: unknown): string {
  return errorText(err).replace(/^Name: (\w)/, (_, first: string) => first.toUpperCase());
}
