/**
 * "Add to board…" (issue 22, item 1): the keyboard and menu way to put the library's selection
 * on a board, an existing one or a new one named here.
 */
import { useId, useState } from 'react';
import { BOARD_NAME_MAX, type TaskSelection } from '../../../../shared/index.ts';
import { type CountedTasks, countedTasksWord } from '../../../../shared/task/task-count-words.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useBoards } from '../../state/boards-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { addedWords, namedBoardWords } from './board-words.ts';
import { useBoardChange } from './use-board-change.ts';
import '../../styles/boards.css';

const NEW = 'new';

/** `size`: how many tasks the selection holds (a count past the library's cap says "more than"). */
export function AddToBoardDialog(props: { selection: TaskSelection; size: CountedTasks; onClose(): void }) {
  const boards = useBoards((s) => s.boards);
  const id = useId();
  const [choice, setChoice] = useState<string>(boards[0] ? String(boards[0].id) : NEW);
  const [name, setName] = useState('');
  const { error, busy, run } = useBoardChange();
  // a name another board has (any case) adds to it: said as the user types, so the choice never says "new" of it
  const existing = choice === NEW ? namedBoardWords(boards, name) : null;
  const add = () =>
    run(async () => {
      // a name another board has (any case) adds to that board, as the CLI's board add does
      const outcome = await useBoards.getState().add(choice === NEW ? name : Number(choice), props.selection);
      useUi.getState().pushToast('success', addedWords(outcome));
    }, props.onClose);
  return (
    <Dialog
      title={`Add ${countedTasksWord(props.size)} to a board`}
      onClose={props.onClose}
      testId="add-to-board"
      actions={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void add()}>
            Add to board
          </button>
        </>
      }
    >
      <fieldset className="board-choices">
        <legend className="visually-hidden">Board</legend>
        {boards.map((board, i) => (
          <label key={board.id} className="checkbox-line">
            <input
              type="radio"
              name={id}
              value={board.id}
              checked={choice === String(board.id)}
              data-autofocus={i === 0 ? true : undefined}
              onChange={() => setChoice(String(board.id))}
            />
            <span>
              <bdi>{board.name}</bdi> <span className="muted">({board.tasks.toLocaleString('en-US')})</span>
            </span>
          </label>
        ))}
        <label className="checkbox-line">
          <input
            type="radio"
            name={id}
            value={NEW}
            checked={choice === NEW}
            data-autofocus={boards.length === 0 ? true : undefined}
            onChange={() => setChoice(NEW)}
          />
          <span data-testid="new-board-choice">{existing ? 'A board by its name' : 'A new board'}</span>
        </label>
        {choice === NEW ? (
          <>
            <input
              type="text"
              aria-label="Board name"
              aria-describedby={`${id}-named`}
              className="board-name-input"
              placeholder="Board name"
              value={name}
              maxLength={BOARD_NAME_MAX}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') void add();
              }}
            />
            <p
              id={`${id}-named`}
              className="field-hint board-named"
              data-testid="board-named"
              aria-live="polite"
            >
              {existing ?? 'Naming a board you have adds to it.'}
            </p>
          </>
        ) : null}
      </fieldset>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
