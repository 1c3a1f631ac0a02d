/**
 * Boards from the command line (issue 22, item 1): `boards` lists them with how many tasks each
 * holds; `board add NAME ID...` puts tasks on a board (making it when there is none of that
 * name), `board remove NAME ID...` takes them off, `board rename NAME NEW`, `board delete NAME`
 * (its tasks stay in the library). `list --board NAME` lists one board's tasks
 * (library-commands.ts). `boards` only reads, so it answers while the app has the library open;
 * `board …` changes it, so it needs the app closed.
 */
import { type LibraryStore, LibraryStoreError } from '../core/store/index.ts';
import type { BoardView } from '../shared/index.ts';
import { readArgs, UsageError } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson, tasksWord } from './task-printing.ts';
import { findTask, openSession, openToRead } from './task-session.ts';
import { printErr, printOut } from './terminal-output.ts';

const BOARD_USAGE =
  'usage: media-task board add NAME ID... | board remove NAME ID... | board rename NAME NEW_NAME | board delete NAME';

function boardLine(board: BoardView): string {
  return `${board.name}  ${tasksWord(board.tasks)}`;
}

/** The board of that name (any case), or a usage error naming the boards there are. */
export function boardNamed(store: LibraryStore, name: string): BoardView {
  const board = store.board(name);
  if (board) return board;
  const names = store.boards().map((b) => JSON.stringify(b.name));
  throw new UsageError(
    `no board named ${JSON.stringify(name.trim())} (${names.length ? `the boards: ${names.join(', ')}` : 'there are no boards yet: board add NAME ID... makes one'})`,
  );
}

/** A name the store refused (bad, or another board's) is the user's input: said as such. */
function named<T>(change: () => T): T {
  try {
    return change();
  } catch (err) {
    if (err instanceof LibraryStoreError) throw new UsageError(`board: ${err.message}`);
    throw err;
  }
}

export async function runBoards(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { positionals } = readArgs(argv, {});
  if (positionals.length > 0) throw new UsageError('usage: media-task boards');
  // only reads: it answers while the app has the library open
  const session = await openToRead(g, env);
  try {
    const boards = session.reader.store.boards();
    if (g.json) printJson(boards);
    else if (boards.length === 0) printErr('no boards yet: board add NAME ID... makes one\n');
    else for (const b of boards) printOut(`${boardLine(b)}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function runBoard(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [action, name, ...rest] = readArgs(argv, {}).positionals;
  if (action === undefined || name === undefined) throw new UsageError(BOARD_USAGE);
  if ((action === 'add' || action === 'remove') && rest.length === 0) {
    throw new UsageError(`board ${action} needs a board name and at least one task id`);
  }
  if (action === 'rename' && rest.length !== 1)
    throw new UsageError('usage: media-task board rename NAME NEW_NAME');
  if (action === 'delete' && rest.length !== 0) throw new UsageError('usage: media-task board delete NAME');
  if (!['add', 'remove', 'rename', 'delete'].includes(action)) {
    throw new UsageError(`board: unknown action "${action}" (${BOARD_USAGE.slice('usage: '.length)})`);
  }
  const session = await openSession({ ...g, sandbox: false }, env);
  try {
    const { store } = session.engine;
    const done = (message: string, value: unknown) => {
      if (g.json) printJson(value);
      else printOut(`${message}\n`);
      return EXIT.ok;
    };
    if (action === 'rename') {
      const board = boardNamed(store, name);
      const renamed = named(() => store.renameBoard(board.id, rest[0] as string)) as BoardView;
      return done(`renamed board ${JSON.stringify(board.name)} to ${JSON.stringify(renamed.name)}`, renamed);
    }
    if (action === 'delete') {
      const board = boardNamed(store, name);
      store.deleteBoard(board.id);
      return done(
        `deleted board ${JSON.stringify(board.name)} (its ${tasksWord(board.tasks)} ${board.tasks === 1 ? 'stays' : 'stay'} in the library)`,
        {
          deleted: board,
        },
      );
    }
    // every id is found first: a wrong one changes nothing
    const ids = rest.map((id) => findTask(session.engine, id).id);
    if (action === 'add') {
      const made = store.board(name) === null;
      // the one rule of putting tasks on a board by name (the window's Add to board has it too)
      const board = named(() => store.boardNamedOrMade(name));
      const outcome = store.addToBoard(board.id, ids);
      if (outcome === null) throw new UsageError(`no board named ${JSON.stringify(name)}`);
      for (const id of outcome.missing) printErr(`media-task: ${id} is in Recently deleted: not added\n`);
      const also =
        outcome.changed < ids.length - outcome.missing.length ? ' (the others were on it already)' : '';
      done(
        `${made ? `made board ${JSON.stringify(board.name)}; ` : ''}added ${tasksWord(outcome.changed)} to ${JSON.stringify(board.name)}${also}: ${boardLine(outcome.board)}`,
        outcome,
      );
      return outcome.missing.length > 0 ? EXIT.badInput : EXIT.ok;
    }
    const board = boardNamed(store, name);
    const outcome = store.removeFromBoard(board.id, ids);
    if (outcome === null) throw new UsageError(`no board named ${JSON.stringify(name)}`);
    return done(
      `took ${tasksWord(outcome.changed)} off ${JSON.stringify(board.name)}: ${boardLine(outcome.board)}`,
      outcome,
    );
  } finally {
    await session.close();
  }
}
