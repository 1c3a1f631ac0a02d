/**
 * The sidebar's boards (issue 22, item 1): each board with its count shows its tasks in the
 * library when pressed, and takes cards dropped on it (the dragged card, or the selection it is
 * part of). "New board" makes one; each board's options rename or delete it (deleting a board
 * never deletes its tasks). The keyboard way to put tasks on a board is the library selection's
 * "Add to board…" (AddToBoardDialog).
 */
import { type DragEvent, type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import type { BoardView } from '../../../../shared/index.ts';
import { showBoard, useBoards } from '../../state/boards-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { DeleteBoardDialog } from './BoardDialogs.tsx';
import { BoardNameField } from './BoardNameField.tsx';
import { droppedSelection, isTaskDrag } from './board-drag.ts';
import { addedWords } from './board-words.ts';
import { useBoardChange } from './use-board-change.ts';
import '../../styles/boards.css';

/** A one-line name field that saves on Enter and gives up on Escape. */
function NameForm(props: {
  label: string;
  initial: string;
  onSave(name: string): Promise<unknown>;
  onDone(): void;
}) {
  const [name, setName] = useState(props.initial);
  const { error, run } = useBoardChange();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => props.onSave(name), props.onDone);
  };
  return (
    <form className="board-name-form" onSubmit={submit}>
      <BoardNameField
        label={props.label}
        labelHidden
        name={name}
        onName={setName}
        error={error}
        focus="now"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onDone();
          }
        }}
      />
    </form>
  );
}

/**
 * Focuses `target` once `shown` (a name field or dialog that took the place of the button that
 * opened it) is over, so the focus does not fall to the page's start.
 */
function useFocusWhenDone(shown: boolean, target: RefObject<HTMLElement | null>): void {
  const was = useRef(shown);
  useEffect(() => {
    if (was.current && !shown) target.current?.focus();
    was.current = shown;
  }, [shown, target]);
}

/** The focus once a board's row is gone: the next board's row, else "+ New board". */
function neighbourOf(
  row: HTMLElement | null,
  newBoard: RefObject<HTMLElement | null>,
): () => HTMLElement | null {
  const next = row?.closest('li')?.nextElementSibling?.querySelector<HTMLElement>('.board-item') ?? null;
  return () => (next?.isConnected ? next : newBoard.current);
}

function BoardRow({ board, newBoard }: { board: BoardView; newBoard: RefObject<HTMLElement | null> }) {
  const active = useTasks((s) => s.gallery.filters.board === board.id && !s.gallery.filters.trashed);
  const view = useUi((s) => s.view);
  const [over, setOver] = useState(false);
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const options = useRef<HTMLButtonElement>(null);
  useFocusWhenDone(renaming, options);
  const onDragOver = (event: DragEvent) => {
    if (!isTaskDrag(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    const selection = droppedSelection(event);
    if (selection === null) return;
    event.preventDefault();
    useBoards
      .getState()
      .add(board.id, selection)
      .then((outcome) => useUi.getState().pushToast('success', addedWords(outcome)), toastError);
  };
  if (renaming) {
    return (
      <NameForm
        label={`New name of the board ${board.name}`}
        initial={board.name}
        onSave={(name) => useBoards.getState().rename(board.id, name)}
        onDone={() => setRenaming(false)}
      />
    );
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the keyboard way is "Add to board…"
    <div
      className={`board-row${over ? ' board-row-over' : ''}`}
      data-testid="board"
      data-board={board.name}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <button
        type="button"
        className="board-item"
        aria-current={active && view === 'library' ? 'page' : undefined}
        onClick={() => {
          useUi.getState().navigate('library');
          showBoard(board.id);
        }}
      >
        <span className="board-name">{board.name}</span>
        <span className="board-count" data-testid="board-count">
          <span className="visually-hidden">, </span>
          {board.tasks.toLocaleString('en-US')}
          <span className="visually-hidden"> task{board.tasks === 1 ? '' : 's'}</span>
        </span>
      </button>
      <button
        ref={options}
        type="button"
        className="board-options"
        aria-label={`Options of the board ${board.name}`}
        aria-expanded={menu}
        onClick={() => setMenu(!menu)}
      >
        ⋯
      </button>
      {menu ? (
        <div className="board-menu">
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setMenu(false);
              setRenaming(true);
            }}
          >
            Rename
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => {
              // the dialog gives the focus back to where it was: the options, not this button
              options.current?.focus();
              setMenu(false);
              setDeleting(true);
            }}
          >
            Delete
          </button>
        </div>
      ) : null}
      {deleting ? (
        <DeleteBoardDialog
          board={board}
          onClose={() => setDeleting(false)}
          fallbackFocus={neighbourOf(options.current, newBoard)}
        />
      ) : null}
    </div>
  );
}

export function BoardsNav() {
  const boards = useBoards((s) => s.boards);
  const [making, setMaking] = useState(false);
  const newBoard = useRef<HTMLButtonElement>(null);
  useFocusWhenDone(making, newBoard);
  // the counts move with deletes and restores: load again when the library's total moves
  const total = useTasks((s) => s.gallery.total);
  const generation = useTasks((s) => s.gallery.generation);
  const headingId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: total and generation say the counts may have moved
  useEffect(() => {
    useBoards
      .getState()
      .load()
      .catch(() => undefined);
  }, [total, generation]);
  return (
    <section className="boards-nav" aria-labelledby={headingId} data-testid="boards-nav">
      <h2 id={headingId} className="boards-heading">
        Boards
      </h2>
      {boards.length === 0 && !making ? (
        <p className="boards-empty muted">Collect results here: make a board, then drag cards onto it.</p>
      ) : null}
      <ul className="boards-list">
        {boards.map((board) => (
          <li key={board.id}>
            <BoardRow board={board} newBoard={newBoard} />
          </li>
        ))}
      </ul>
      {making ? (
        <NameForm
          label="Name of the new board"
          initial=""
          onSave={(name) => useBoards.getState().create(name)}
          onDone={() => setMaking(false)}
        />
      ) : (
        <button
          ref={newBoard}
          type="button"
          className="button button-small board-new"
          onClick={() => setMaking(true)}
        >
          + New board
        </button>
      )}
    </section>
  );
}
