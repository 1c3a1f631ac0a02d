/** How many tasks may be at the service at once (pending, staged or processing). */
import { useEffect, useId, useState } from 'react';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { useStudio } from '../../state/studio-state.ts';
import { updateSettings as update } from './settings-actions.ts';

export function ConcurrencyField() {
  const id = useId();
  const value = useStudio((s) => s.settings?.maxActiveRemote ?? 1);
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > 50) {
      setError('A whole number from 1 to 50');
      return;
    }
    setError(null);
    if (n !== value)
      void update({ maxActiveRemote: n }, `Up to ${n} task${n === 1 ? '' : 's'} at the service at once.`);
  };
  return (
    <div className="field">
      <label htmlFor={`${id}-conc`} className="field-label">
        Tasks at the service at once
      </label>
      <input
        id={`${id}-conc`}
        type="number"
        className="input-number"
        min={1}
        max={50}
        value={text}
        aria-describedby={`${id}-conc-hint`}
        aria-invalid={error ? true : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <FieldMessage
        id={`${id}-conc-hint`}
        error={error}
        hint="1–50. Keep it at or under your plan's concurrency limit."
      />
    </div>
  );
}
