/**
 * The Board filter's options (a narrow window, whose navigation has no boards: boards.css): make a
 * board, and rename or delete the one the filter shows, as the sidebar's "+ New board" and each
 * board's "⋯" do in a wide one.
 */
import { type ReactNode, useState } from 'react';
import { createPortal } from 'react-dom';
import { MenuDisclosure } from '../../components/MenuDisclosure.tsx';
import { useBoards } from '../../state/boards-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { BoardNameDialog, DeleteBoardDialog } from './BoardDialogs.tsx';

type Asking = 'new' | 'rename' | 'delete' | null;

/** A dialog of the options, outside the filter bar (whose rules size its fields and selects). */
const outside = (dialog: ReactNode) => createPortal(dialog, document.body);

export function BoardOptions() {
  const boardId = useTasks((s) => s.gallery.filters.board);
  const board = useBoards((s) => s.boards.find((b) => b.id === boardId) ?? null);
  const [asking, setAsking] = useState<Asking>(null);
  const close = () => setAsking(null);
  return (
    <>
      <MenuDisclosure
        label={<span aria-hidden="true">⋯</span>}
        ariaLabel="Board options"
        className="board-filter-options"
        panelClassName="board-filter-menu"
        testId="board-filter-options"
      >
        <button type="button" className="button button-small" onClick={() => setAsking('new')}>
          New board…
        </button>
        {board ? (
          <>
            <button type="button" className="button button-small" onClick={() => setAsking('rename')}>
              Rename board…
            </button>
            <button
              type="button"
              className="button button-small button-danger"
              onClick={() => setAsking('delete')}
            >
              Delete board…
            </button>
          </>
        ) : null}
      </MenuDisclosure>
      {asking === 'new'
        ? outside(
            <BoardNameDialog
              title="New board"
              board={null}
              confirmLabel="Make board"
              onSave={async (name) => {
                const made = await useBoards.getState().create(name);
                useUi
                  .getState()
                  .pushToast('success', `Made the board “${made.name}”: put tasks on it with Add to board…`);
              }}
              onClose={close}
            />,
          )
        : null}
      {asking === 'rename' && board
        ? outside(
            <BoardNameDialog
              title="Rename the board"
              board={board}
              confirmLabel="Rename"
              onSave={(name) => useBoards.getState().rename(board.id, name)}
              onClose={close}
            />,
          )
        : null}
      {asking === 'delete' && board ? outside(<DeleteBoardDialog board={board} onClose={close} />) : null}
    </>
  );
}
