/** The message under a field: an error from a check or from main, or a quiet hint. */
export function FieldMessage({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | null;
  hint?: string | null;
}) {
  if (error) {
    return (
      <p id={id} className="field-error" data-testid="field-error" role="alert">
        {error}
      </p>
    );
  }
  if (hint) {
    return (
      <p id={id} className="field-hint">
        {hint}
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
