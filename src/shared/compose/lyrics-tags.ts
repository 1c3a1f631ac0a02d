/**
 * Song lyrics' section markers: the service takes `[verse]`, `[chorus]`, `[bridge]` and `[inst]`
 * (service field notes). Lyrics written for Suno or by a chat assistant use their own tags
 * (`[Intro]`, `[Verse 1]`, `[Pre-Chorus]`, `[Guitar Solo]`, `[Outro]`); the common ones are
 * mapped to the service's markers when a song is queued, from the composer and the CLI alike,
 * and the change is said. A tag neither knows is sent as written (a warning, never a refusal).
 * Pure text; no DOM, no node.
 */

export const LYRICS_MARKERS = ['verse', 'chorus', 'bridge', 'inst'] as const;
export type LyricsMarker = (typeof LYRICS_MARKERS)[number];

/** The service's own marker a bracket's inside names, or null (case and surrounding spaces ignored). */
export function markerOf(inside: string): LyricsMarker | null {
  const name = inside.trim().toLowerCase();
  return (LYRICS_MARKERS as readonly string[]).includes(name) ? (name as LyricsMarker) : null;
}

const TIMESTAMP = /^\d{1,3}:\d{2}(?:[.:]\d{1,3})?$/;

/** A timestamp such as `01:23` or `01:23.45`, which lyrics may hold in brackets. */
export function isTimestamp(inside: string): boolean {
  return TIMESTAMP.test(inside.trim());
}

/** The words of a common tag, by the marker they map to; the first rule that matches wins. */
const COMMON_TAGS: readonly { words: readonly string[]; marker: LyricsMarker }[] = [
  // before "chorus": a pre-chorus leads into it like a verse, a post-chorus follows it
  { words: ['pre chorus', 'prechorus'], marker: 'verse' },
  { words: ['post chorus', 'postchorus'], marker: 'chorus' },
  { words: ['chorus', 'hook', 'refrain'], marker: 'chorus' },
  { words: ['verse'], marker: 'verse' },
  { words: ['bridge'], marker: 'bridge' },
  {
    words: ['intro', 'outro', 'instrumental', 'inst', 'solo', 'break', 'breakdown', 'interlude'],
    marker: 'inst',
  },
];

/**
 * The service's marker a common tag from elsewhere maps to (`Verse 1`, `PRE-CHORUS`, `Final
 * Chorus x2`, `Guitar Solo`), or null: for the service's own markers (nothing to map), for a
 * timestamp, and for a tag it does not know (`Male Vocal`).
 */
export function commonTagMarker(inside: string): LyricsMarker | null {
  if (markerOf(inside)) return null;
  // letters only, one space apart: "Verse 1:" -> "verse", "Pre-Chorus" -> "pre chorus"
  const words = ` ${inside
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim()} `;
  if (words.trim() === '') return null;
  for (const rule of COMMON_TAGS) {
    if (rule.words.some((w) => words.includes(` ${w} `))) return rule.marker;
  }
  return null;
}

export interface LyricsTagChange {
  /** 1-based line of the tag. */
  line: number;
  /** The tag as written, `[Verse 1]`. */
  from: string;
  /** The service's marker it became, `[verse]`. */
  to: string;
}

/** Lyrics with their common tags mapped to the service's markers, and what was changed. */
export function mapLyricsTags(lyrics: string): { text: string; changes: LyricsTagChange[] } {
  const changes: LyricsTagChange[] = [];
  const lines = lyrics.split('\n').map((line, index) =>
    line.replace(/\[([^[\]\n]*)\]/g, (whole, inside: string) => {
      // the service's own markers as it writes them too: `[Chorus]` is sent as `[chorus]`
      const marker = markerOf(inside) ?? commonTagMarker(inside);
      if (!marker || whole === `[${marker}]`) return whole;
      changes.push({ line: index + 1, from: whole, to: `[${marker}]` });
      return `[${marker}]`;
    }),
  );
  return { text: lines.join('\n'), changes };
}

/**
 * The changes in a person's words, each tag once: `[Intro] → [inst], [Verse 1] → [verse]`;
 * empty when nothing changed.
 */
export function lyricsTagChangeWords(changes: readonly LyricsTagChange[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const c of changes) {
    const part = `${c.from} → ${c.to}`;
    if (!seen.has(part)) {
      seen.add(part);
      parts.push(part);
    }
  }
  return parts.join(', ');
}

/** Bracketed tags neither the service nor the mapping knows (`[Male Vocal]`): sent as written. */
export function unknownLyricsTags(lyrics: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  lyrics.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\[([^[\]\n]*)\]/g)) {
      const inside = match[1] ?? '';
      if (!markerOf(inside) && !commonTagMarker(inside) && !isTimestamp(inside))
        found.push({ line: index + 1, text: match[0] });
    }
  });
  return found;
}
