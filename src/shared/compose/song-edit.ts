/**
 * A song edit (`edit`) changes the song's style (`edit_style_prompt`) or its words
 * (`edit_lyrics`) from what they are now (`style_prompt`, `lyrics`). One that gives neither, or
 * gives them as they are, changes nothing and would still be billed: the composer and the CLI
 * refuse it. Pure.
 */
import { mapLyricsTags } from './lyrics-tags.ts';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Why the edit changes nothing, in a person's words, or null when it changes something. */
export function songEditChangesNothing(input: Record<string, unknown>): string | null {
  const style = text(input.edit_style_prompt);
  const words = mapLyricsTags(text(input.edit_lyrics)).text;
  const newStyle = style !== '' && style !== text(input.style_prompt);
  const newWords = words !== '' && words !== mapLyricsTags(text(input.lyrics)).text;
  if (newStyle || newWords) return null;
  if (style === '' && words === '') return 'Write a new style or new lyrics: the edit changes nothing yet';
  return 'The new style and lyrics are the song’s own: write what should change';
}
