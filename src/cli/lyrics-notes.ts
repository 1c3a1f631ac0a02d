/**
 * Lyrics written for Suno or by a chat assistant (`[Intro]`, `[Verse 1]`) queue with the
 * service's markers, mapped as the composer maps them (src/shared/compose/lyrics-tags.ts); the
 * CLI says what it changed, and names the tags the service does not know (sent as written).
 */
import type { TaskDraft } from '../core/engine/index.ts';
import { lyricsTagChangeWords, mapLyricsTags, unknownLyricsTags } from '../shared/index.ts';

/** The draft's lyrics fields, in the words the command line uses for them. */
const LYRICS_FIELDS: readonly { field: string; words: string }[] = [
  { field: 'lyrics', words: 'lyrics' },
  { field: 'edit_lyrics', words: 'new lyrics' },
];

/** Maps the draft's lyrics in place; the lines that say what changed and what is sent as written. */
export function mapDraftLyrics(draft: TaskDraft): string[] {
  const said: string[] = [];
  for (const { field, words } of LYRICS_FIELDS) {
    const value = draft.input[field];
    if (typeof value !== 'string') continue;
    const { text, changes } = mapLyricsTags(value);
    draft.input[field] = text;
    if (changes.length > 0)
      said.push(`${words}: sent with the service's markers: ${lyricsTagChangeWords(changes)}`);
    for (const tag of unknownLyricsTags(text))
      said.push(
        `${words} line ${tag.line}: ${tag.text} is not a marker the service knows; it is sent as written`,
      );
  }
  return said;
}
