import { MessageText } from './MessageText.tsx';

/**
 * The message under a field: an error from a check or from main, or a quiet hint. An error is
 * announced at once (role=alert) unless `announce` is false: a form checked as the user types
 * leaves it to the field's description, read when the field gets focus.
 */
export function FieldMessage({
  id,
  error,
  hint,
  announce = true,
}: {
  id: string;
  error?: string | null;
  hint?: string | null;
  announce?: boolean;
}) {
  if (error) {
    return (
      <p id={id} className="field-error" data-testid="field-error" role={announce ? 'alert' : undefined}>
        <MessageText text={error} />
      </p>
    );
  }
  if (hint) {
    return (
      <p id={id} className="field-hint">
        <MessageText text={hint} />
      </p>
    );
  }
  return null;
}

/** `123 / 2000` under a text field; marked when over the limit. */
export function CharCounter({ id, length, max }: { id: string; length: number; max: number }) {
  const over = length > max;
  return (
    <span id={id} className={over ? 'char-counter char-counter-over' : 'char-counter'}>
      {length.toLocaleString('en-US')} / {max.toLocaleString('en-US')}
      {over ? ' — too long' : ''}
    </span>
  );
}
