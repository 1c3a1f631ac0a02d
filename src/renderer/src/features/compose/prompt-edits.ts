/** Small text edits of the composer's prompts: quick styles (added or taken out) and image names. Pure. */

/** Quick styles for the song's style prompt. */
export const STYLE_CHIPS = [
  'pop',
  'rock',
  'lo-fi',
  'hip hop',
  'electronic',
  'jazz',
  'acoustic',
  'orchestral',
  'ambient',
  'synthwave',
  'female vocals',
  'male vocals',
  'upbeat',
  'melancholic',
  '120 bpm',
] as const;

/** `lo-fi` appended to `jazz` gives `jazz, lo-fi`. */
export function appendStyle(prompt: string, style: string): string {
  const trimmed = prompt.trimEnd();
  if (trimmed === '') return style;
  return trimmed.endsWith(',') ? `${trimmed} ${style}` : `${trimmed}, ${style}`;
}

/**
 * `word` inserted at the caret (replacing a selection) as a word of its own: a space before it
 * when the text before does not end in one, a space after it only when a word follows (at the
 * end the user types their own, so no double space), one space of the text after it dropped.
 */
export function insertWord(
  text: string,
  start: number,
  end: number,
  word: string,
): { text: string; caret: number } {
  const before = text.slice(0, start);
  const after = text.slice(end).replace(/^ /, '');
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const trail = after === '' || /^\s/.test(after) ? '' : ' ';
  const inserted = `${lead}${word}${trail}`;
  return { text: before + inserted + after, caret: before.length + inserted.length };
}

/** The comma-separated items of a style prompt, trimmed, empty ones left out. */
function styleItems(prompt: string): string[] {
  return prompt
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** True when the style prompt has `style` as one of its comma-separated items (any case). */
export function hasStyle(prompt: string, style: string): boolean {
  const wanted = style.toLowerCase();
  return styleItems(prompt).some((item) => item.toLowerCase() === wanted);
}

/** A quick style's toggle: `style` appended when the prompt lacks it, else every copy of it taken out. */
export function toggleStyle(prompt: string, style: string): string {
  if (!hasStyle(prompt, style)) return appendStyle(prompt, style);
  const wanted = style.toLowerCase();
  return styleItems(prompt)
    .filter((item) => item.toLowerCase() !== wanted)
    .join(', ');
}
