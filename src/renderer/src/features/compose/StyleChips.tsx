import { type KeyboardEvent, useRef, useState } from 'react';
import { hasStyle, STYLE_CHIPS } from './prompt-edits.ts';

/** The chip an arrow, Home or End moves to from `at`, or null for another key. */
function movedTo(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * Quick styles: toggle buttons, pressed while the style prompt has that style as one of its items.
 * One tab stop (a roving tabindex): arrows, Home and End move between them, Tab goes on.
 */
export function StyleChips({ prompt, onToggle }: { prompt: string; onToggle(style: string): void }) {
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    const next = movedTo(event.key, current, STYLE_CHIPS.length);
    if (next === null) return;
    event.preventDefault();
    setCurrent(next);
    buttons.current[next]?.focus();
  };
  return (
    <fieldset className="chips" onKeyDown={onKeyDown}>
      <legend className="chips-legend">Quick styles</legend>
      {STYLE_CHIPS.map((style, index) => {
        const pressed = hasStyle(prompt, style);
        return (
          <button
            key={style}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            className="chip-button"
            aria-pressed={pressed}
            aria-label={`Style: ${style}`}
            tabIndex={index === current ? 0 : -1}
            onFocus={() => setCurrent(index)}
            onClick={() => onToggle(style)}
          >
            <span className="chip-mark" aria-hidden="true">
              {pressed ? '✓' : '+'}
            </span>{' '}
            {style}
          </button>
        );
      })}
    </fieldset>
  );
}
