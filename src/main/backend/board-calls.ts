/**
 * Boards (issue 22, item 1): list them with their counts, make, rename and delete one (never its
 * tasks), and put a selection on a board or take it off (the window's drag onto a board in the
 * sidebar, and its "Add to board…", by the board's id or by a name: the store's boardNamedOrMade,
 * the CLI's rule). A selection is ids or "all that match, but these", resolved
 * by the library as the bulk actions' are (trash-calls.ts).
 */
import { LibraryStoreError } from '../../core/store/index.ts';
import type { BoardChangeOutcome, BoardView, TaskSelection } from '../../shared/index.ts';
import type { CallContext } from './call-context.ts';
import { StudioCallError } from './call-errors.ts';
import { selectionIds } from './trash-calls.ts';

const NO_BOARD = 'there is no such board (it may have been deleted): pick another';

/** A name the store refused (taken by another board) as the user's input, naming the field. */
function named<T>(change: () => T): T {
  try {
    return change();
  } catch (err) {
    if (err instanceof LibraryStoreError) throw new StudioCallError('invalid-input', err.message, 'name');
    throw err;
  }
}

function found<T>(value: T | null): T {
  if (value === null) throw new StudioCallError('not-found', NO_BOARD, 'id');
  return value;
}

export function boardCalls(ctx: CallContext) {
  const store = () => ctx.engine().store;
  return {
    'boards.list': async (): Promise<BoardView[]> => store().boards(),
    'boards.create': async (args: { name: string }): Promise<BoardView> =>
      named(() => store().createBoard(args.name)),
    'boards.rename': async (args: { id: number; name: string }): Promise<BoardView> =>
      found(named(() => store().renameBoard(args.id, args.name))),
    'boards.delete': async (args: { id: number }): Promise<{ deleted: true }> => {
      found(store().deleteBoard(args.id) ? true : null);
      return { deleted: true };
    },
    'boards.add': async (
      args: ({ id: number } | { name: string }) & { selection: TaskSelection },
    ): Promise<BoardChangeOutcome> => {
      const board =
        'id' in args ? found(store().board(args.id)) : named(() => store().boardNamedOrMade(args.name));
      return found(store().addToBoard(board.id, selectionIds(ctx, args.selection)));
    },
    'boards.remove': async (args: { id: number; selection: TaskSelection }): Promise<BoardChangeOutcome> =>
      found(store().removeFromBoard(found(store().board(args.id)).id, selectionIds(ctx, args.selection))),
  };
}
