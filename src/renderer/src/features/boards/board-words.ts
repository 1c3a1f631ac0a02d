/** The words of a board change, said in a toast. */
import type { BoardChangeOutcome } from '../../../../shared/index.ts';

const tasks = (n: number) => `${n.toLocaleString('en-US')} task${n === 1 ? '' : 's'}`;

export function addedWords(outcome: BoardChangeOutcome): string {
  const { board, changed, missing } = outcome;
  const head = changed === 0 ? `Already on “${board.name}”` : `Added ${tasks(changed)} to “${board.name}”`;
  return missing.length > 0 ? `${head} (${tasks(missing.length)} in Recently deleted left out)` : head;
}

export function takenOffWords(outcome: BoardChangeOutcome): string {
  return `Took ${tasks(outcome.changed)} off “${outcome.board.name}”`;
}
