/**
 * The Board filter's options (a narrow window, whose navigation has no boards: boards.css): make a
 * board, and rename or delete the one the filter shows, as the sidebar's "+ New board" and each
 * board's "⋯" do in a wide one.
 */
import { useState } from 'react';
import { MenuDisclosure } from '../../components/MenuDisclosure.tsx';
import { useBoards } from '../../state/boards-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { BoardNameDialog, DeleteBoardDialog } from './BoardDialogs.tsx';

type Asking = 'new' | 'rename' | 'delete' | null;

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
      {asking === 'new' ? (
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
        />
      ) : null}
      {asking === 'rename' && board ? (
        <BoardNameDialog
          title="Rename the board"
          board={board}
          confirmLabel="Rename"
          onSave={(name) => useBoards.getState().rename(board.id, name)}
          onClose={close}
        />
      ) : null}
      {asking === 'delete' && board ? <DeleteBoardDialog board={board} onClose={close} /> : null}
    </>
  );
}
