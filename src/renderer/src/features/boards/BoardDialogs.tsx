/**
 * The dialogs that change a board where the sidebar's boards are not shown (a narrow window: the
 * Board filter's options, BoardOptions.tsx), and the question before deleting one, which the
 * sidebar asks too. A board's name in their words is isolated (<bdi>) like the other user text.
 */
import { type FormEvent, useId, useState } from 'react';
import type { BoardView } from '../../../../shared/index.ts';
import { ConfirmDialog, Dialog } from '../../components/Dialog.tsx';
import { useBoards } from '../../state/boards-state.ts';
import { toastError } from '../../state/ui-state.ts';
import { BoardNameField } from './BoardNameField.tsx';
import { deleteBoardWords } from './board-words.ts';
import { useBoardChange } from './use-board-change.ts';

/** A dialog with one board name field: saves on Enter or its button; the store's refusal shows at the field. */
export function BoardNameDialog(props: {
  title: string;
  board: BoardView | null;
  confirmLabel: string;
  onSave(name: string): Promise<unknown>;
  onClose(): void;
}) {
  const id = useId();
  const [name, setName] = useState(props.board?.name ?? '');
  const { error, busy, run } = useBoardChange();
  const save = (event: FormEvent) => {
    event.preventDefault();
    void run(() => props.onSave(name), props.onClose);
  };
  return (
    <Dialog
      title={
        props.board ? (
          <>
            {props.title} “<bdi>{props.board.name}</bdi>”
          </>
        ) : (
          props.title
        )
      }
      onClose={props.onClose}
      testId="board-name-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" form={id} className="button button-primary" disabled={busy}>
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <form id={id} className="board-name-field" onSubmit={save}>
        <BoardNameField label="Board name" name={name} onName={setName} error={error} focus="dialog" />
      </form>
    </Dialog>
  );
}

/**
 * Asks before deleting a board (never its tasks), then deletes it; open until the board is gone,
 * so that a dialog opened from the board's own row (the sidebar) goes with the row and gives the
 * focus to `fallbackFocus` (a neighbour), not to the page's start.
 */
export function DeleteBoardDialog({
  board,
  onClose,
  fallbackFocus,
}: {
  board: BoardView;
  onClose(): void;
  fallbackFocus?: () => HTMLElement | null | undefined;
}) {
  // the question stays until the board is gone: a second press would delete it again
  const [removing, setRemoving] = useState(false);
  return (
    <ConfirmDialog
      busy={removing}
      fallbackFocus={fallbackFocus}
      title={
        <>
          Delete the board “<bdi>{board.name}</bdi>”?
        </>
      }
      message={<p>{deleteBoardWords(board)}</p>}
      confirmLabel="Delete board"
      danger
      onCancel={onClose}
      onConfirm={() => {
        setRemoving(true);
        useBoards.getState().remove(board.id).catch(toastError).finally(onClose);
      }}
    />
  );
}
