/** A labelled text input or textarea with an optional character counter and its message. */
import { type Ref, useId } from 'react';
import { CharCounter, FieldMessage } from './FieldMessage.tsx';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  multiline?: boolean;
  rows?: number;
  max?: number;
  error?: string | null;
  hint?: string | null;
  optional?: boolean;
  placeholder?: string;
  type?: 'text' | 'url' | 'password' | 'search';
  autoComplete?: string;
  /** false for what is not prose (an address, a vendor name): no spelling marks. */
  spellCheck?: boolean;
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
  /** The input field it edits (`style_prompt`…), for tests, error routing and focusing a problem. */
  field?: string;
  /** Announce an error at once (role=alert); false for a form checked as the user types. */
  announceError?: boolean;
  /** Extra class of the input or textarea. */
  inputClassName?: string;
}

export function TextField(props: TextFieldProps) {
  const id = useId();
  const {
    label,
    value,
    onChange,
    multiline,
    rows = 3,
    max,
    error,
    hint,
    optional,
    placeholder,
    field,
  } = props;
  const described = [max !== undefined ? `${id}-counter` : '', error || hint ? `${id}-message` : '']
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    value,
    placeholder,
    'aria-describedby': described || undefined,
    'aria-invalid': error ? true : undefined,
    'data-field': field,
    className: props.inputClassName,
  };
  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
          {optional ? <span className="optional"> (optional)</span> : null}
        </label>
        {max !== undefined ? <CharCounter id={`${id}-counter`} length={value.length} max={max} /> : null}
      </div>
      {multiline ? (
        <textarea
          {...common}
          ref={props.inputRef}
          rows={rows}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...common}
          ref={props.inputRef}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete ?? 'off'}
          spellCheck={props.spellCheck}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <FieldMessage id={`${id}-message`} error={error} hint={hint} announce={props.announceError ?? true} />
    </div>
  );
}
