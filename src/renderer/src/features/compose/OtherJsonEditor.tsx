/**
 * The Other tab's JSON editor: the input as a JSON object, checked as you type against the
 * catalog's rules for the chosen model and task type (only as JSON for a pair the catalog does
 * not know), with its media fields as drop targets under it. Tab indents; Shift+Tab outdents;
 * Esc then Tab leaves it.
 */
import { type KeyboardEvent, useId, useRef } from 'react';
import { MessageText } from '../../components/MessageText.tsx';
import { useCompose } from '../../state/compose-state.ts';
import { indentEdit, outdentEdit } from './code-indent.ts';
import { OtherMediaFields } from './OtherMediaFields.tsx';
import { replaceRange } from './text-insert.ts';

export function OtherJsonEditor({ problems }: { problems: readonly string[] }) {
  const id = useId();
  const other = useCompose((s) => s.other);
  const setOther = useCompose((s) => s.setOther);
  const escaped = useRef(false);

  /** Tab indents and Shift+Tab outdents, as typing would (undoable); after Esc, Tab leaves. */
  const onJsonKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      escaped.current = true;
      return;
    }
    const plainTab = event.key === 'Tab' && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (!plainTab || escaped.current) {
      escaped.current = false;
      return;
    }
    event.preventDefault();
    const area = event.currentTarget;
    const edit = (event.shiftKey ? outdentEdit : indentEdit)(
      area.value,
      area.selectionStart,
      area.selectionEnd,
    );
    replaceRange(area, edit.start, edit.end, edit.insert, edit.caret, edit.selectionEnd);
  };

  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-json`} className="field-label">
          Input (JSON)
        </label>
        <textarea
          id={`${id}-json`}
          className="code-input"
          data-field="input"
          rows={14}
          spellCheck={false}
          value={other.json}
          aria-invalid={problems.length > 0 ? true : undefined}
          aria-describedby={`${id}-json-message ${id}-json-keys`}
          onChange={(event) => setOther({ json: event.target.value })}
          onKeyDown={onJsonKeyDown}
          onBlur={() => {
            escaped.current = false;
          }}
        />
        {problems.length > 0 ? (
          <ul id={`${id}-json-message`} className="field-error json-problems">
            {problems.map((message) => (
              <li key={message} data-testid="field-error">
                <MessageText text={message} />
              </li>
            ))}
          </ul>
        ) : (
          <p id={`${id}-json-message`} className="field-hint">
            A JSON object with the task's input fields. Media fields take a web address, Base64 or a local
            file path.
          </p>
        )}
        <p id={`${id}-json-keys`} className="field-hint">
          Tab indents, Shift+Tab outdents; press Esc, then Tab, to leave the editor.
        </p>
      </div>
      <OtherMediaFields model={other.model} taskType={other.taskType} />
    </>
  );
}
