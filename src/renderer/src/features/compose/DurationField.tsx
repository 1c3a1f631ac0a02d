/** Song length: a slider and a number kept in step, within the app's bounds. */
import { useEffect, useId, useState } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { clampDuration } from './compose-model.ts';

export function DurationField({
  value,
  onChange,
  error,
}: {
  value: number;
  onChange(value: number): void;
  error?: string | null;
}) {
  const id = useId();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = (raw: string) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) {
      setText(String(value));
      return;
    }
    onChange(clampDuration(n));
  };
  return (
    <div className="field duration-field">
      <label htmlFor={`${id}-range`} className="field-label">
        Duration
      </label>
      <div className="duration-inputs">
        <input
          id={`${id}-range`}
          type="range"
          min={LIMITS.audioMinSeconds}
          max={LIMITS.audioMaxSeconds}
          step={1}
          value={value}
          aria-valuetext={`${value} seconds`}
          onChange={(event) => onChange(clampDuration(Number(event.target.value)))}
        />
        <input
          type="number"
          className="input-number"
          data-field="duration"
          aria-label="Duration in seconds"
          min={LIMITS.audioMinSeconds}
          max={LIMITS.audioMaxSeconds}
          step={1}
          value={text}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            setText(event.target.value);
            const n = Number(event.target.value);
            if (
              event.target.value.trim() !== '' &&
              Number.isFinite(n) &&
              n >= LIMITS.audioMinSeconds &&
              n <= LIMITS.audioMaxSeconds
            ) {
              onChange(Math.round(n));
            }
          }}
          onBlur={(event) => commit(event.target.value)}
        />
        <span aria-hidden="true">s</span>
      </div>
      <FieldMessage
        id={`${id}-hint`}
        error={error}
        hint={`${LIMITS.audioMinSeconds}–${LIMITS.audioMaxSeconds} seconds; billed per second`}
        announce={false}
      />
    </div>
  );
}
