/**
 * A board's name field: its label, a text input capped at the store's BOARD_NAME_MAX, and the
 * store's refusal under it (the input is described by it). The sidebar's field and the name
 * dialog's are ones.
 */
import { type KeyboardEvent, useId } from 'react';
import { BOARD_NAME_MAX } from '../../../../shared/index.ts';

export function BoardNameField(props: {
  label: string;
  /** The label for screen readers only (the sidebar's field, whose place says what it is). */
  labelHidden?: boolean;
  name: string;
  onName(name: string): void;
  error: string | null;
  /** 'now': focused as it appears (asked for in place); 'dialog': the dialog it is in focuses it. */
  focus: 'now' | 'dialog';
  onKeyDown?(event: KeyboardEvent<HTMLInputElement>): void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className={props.labelHidden ? 'visually-hidden' : undefined}>
        {props.label}
      </label>
      <input
        type="text"
        id={id}
        className="board-name-input"
        value={props.name}
        maxLength={BOARD_NAME_MAX}
        placeholder="Board name"
        // biome-ignore lint/a11y/noAutofocus: the field the user just asked for
        autoFocus={props.focus === 'now' ? true : undefined}
        data-autofocus={props.focus === 'dialog' ? true : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onName(event.target.value)}
        onKeyDown={props.onKeyDown}
      />
      {props.error ? (
        <p id={`${id}-error`} className="field-error board-error" role="alert">
          {props.error}
        </p>
      ) : null}
    </>
  );
}
