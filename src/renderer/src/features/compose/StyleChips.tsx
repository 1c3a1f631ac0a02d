import { hasStyle, STYLE_CHIPS } from './prompt-edits.ts';

/** Quick styles: toggle buttons, pressed while the style prompt has that style as one of its items. */
export function StyleChips({ prompt, onToggle }: { prompt: string; onToggle(style: string): void }) {
  return (
    <fieldset className="chips">
      <legend className="chips-legend">Quick styles</legend>
      {STYLE_CHIPS.map((style) => {
        const pressed = hasStyle(prompt, style);
        return (
          <button
            key={style}
            type="button"
            className="chip-button"
            aria-pressed={pressed}
            aria-label={`Style: ${style}`}
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
