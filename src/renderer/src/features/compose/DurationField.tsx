/**
 * Song length: a slider and a number kept in step, within the app's bounds, and how long the
 * service is expected to take for a song of that length (tasks.expectedTime: learned from the
 * library's recent songs, else the catalog's default).
 */
import { useEffect, useId, useState } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { countWord } from '../../../../shared/task/task-count-words.ts';
import { hasBridge, invoke } from '../../bridge.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { useDebounced } from '../../hooks/useDebounced.ts';
import { formatDuration } from '../../model/time-format.ts';
import { clampDuration, modelNameFor } from './compose-model.ts';

/** "Takes about 1 min 10 s at the service (from your last 12 songs)", or null while unknown. */
function useExpectedTime(seconds: number): string | null {
  const settled = useDebounced(seconds, 250);
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (!hasBridge()) return;
    let current = true;
    invoke('tasks.expectedTime', {
      model: modelNameFor('ace-step/txt2audio'),
      taskType: 'txt2audio',
      input: { duration: settled },
    })
      .then(({ expectedMs, samples }) => {
        if (!current) return;
        const basis = samples > 0 ? `from your last ${countWord(samples, 'song')}` : 'a first guess';
        setText(`Takes about ${formatDuration(expectedMs)} at the service (${basis}).`);
      })
      .catch(() => {
        if (current) setText(null);
      });
    return () => {
      current = false;
    };
  }, [settled]);
  return text;
}

export function DurationField({
  label,
  value,
  onChange,
  error,
}: {
  /** The field's words (the catalog's label of the song's duration). */
  label: string;
  value: number;
  onChange(value: number): void;
  error?: string | null;
}) {
  const id = useId();
  const expected = useExpectedTime(value);
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
        {label}
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
          aria-label={`${label} in seconds`}
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
      {expected ? (
        <p className="field-hint" data-testid="expected-time">
          {expected}
        </p>
      ) : null}
    </div>
  );
}
