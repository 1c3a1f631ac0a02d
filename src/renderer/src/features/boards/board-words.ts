/** The words of a board change, said in a toast. */
import type { BoardChangeOutcome } from '../../../../shared/index.ts';
import { tasksWord as tasks } from '../library/task-count-words.ts';

export function addedWords(outcome: BoardChangeOutcome): string {
  const { board, changed, missing } = outcome;
  const head = changed === 0 ? `Already on “${board.name}”` : `Added ${tasks(changed)} to “${board.name}”`;
  return missing.length > 0 ? `${head} (${tasks(missing.length)} in Recently deleted left out)` : head;
}

export function takenOffWords(outcome: BoardChangeOutcome): string {
  return `Took ${tasks(outcome.changed)} off “${outcome.board.name}”`;
}
