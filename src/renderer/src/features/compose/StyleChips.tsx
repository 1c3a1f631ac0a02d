import { STYLE_CHIPS } from './prompt-edits.ts';

/** Quick styles: each click appends its words to the style prompt. */
export function StyleChips({ onPick }: { onPick(style: string): void }) {
  return (
    <fieldset className="chips">
      <legend className="chips-legend">Quick styles</legend>
      {STYLE_CHIPS.map((style) => (
        <button
          key={style}
          type="button"
          className="chip-button"
          aria-label={`Add style: ${style}`}
          onClick={() => onPick(style)}
        >
          + {style}
        </button>
      ))}
    </fieldset>
  );
}
