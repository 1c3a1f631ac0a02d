/** Small text edits of the composer's prompts: quick styles and image names. Pure. */

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

/** `word` inserted at the caret (replacing a selection), with a space before it when needed and one after. */
export function insertWord(
  text: string,
  start: number,
  end: number,
  word: string,
): { text: string; caret: number } {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const inserted = `${lead}${word} `;
  return { text: before + inserted + after.replace(/^ /, ''), caret: before.length + inserted.length };
}
