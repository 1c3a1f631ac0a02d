/** Structured lyrics (`[verse]`, `[chorus]`, `[bridge]`, `[inst]`, optional timestamps) as sung lines. */

export type SectionKind = 'verse' | 'chorus' | 'bridge' | 'inst';

export interface LyricLine {
  section: SectionKind;
  /** Syllables to sing, in order; empty for an instrumental passage. */
  syllables: string[];
  text: string;
}

const MARKER = /^\[([^\]]*)\]/;
const TIMESTAMP =
  /\[\d{1,2}:\d{2}(?:[.:]\d{1,3})?\]|\(\d{1,2}:\d{2}(?:[.:]\d{1,3})?\)|^\d{1,2}:\d{2}(?:[.:]\d{1,3})?\s/g;
const SYLLABIC_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const VOWEL_GROUP = /[^aeiouyàáâãäåæèéêëìíîïòóôõöøœùúûüý]*[aeiouyàáâãäåæèéêëìíîïòóôõöøœùúûüý]+/giu;

/** Splits lyrics into lines with their section; a section marker alone yields one instrumental line when it is `[inst]`-like. */
export function parseLyrics(lyrics: string): LyricLine[] {
  const lines: LyricLine[] = [];
  let section: SectionKind = 'verse';
  for (const rawLine of lyrics.split(/\r?\n/)) {
    let text = rawLine.replace(TIMESTAMP, ' ').trim();
    const marker = MARKER.exec(text);
    if (marker) {
      section = sectionOf(marker[1]!);
      text = text.slice(marker[0].length).trim();
      if (section === 'inst' && text === '') lines.push({ section, syllables: [], text: '' });
    }
    const syllables = splitSyllables(text);
    if (syllables.length > 0) lines.push({ section, syllables, text });
  }
  return lines;
}

function sectionOf(name: string): SectionKind {
  const lower = name.toLowerCase();
  if (/inst|intro|outro|solo|break|interlude/.test(lower)) return 'inst';
  if (/bridge/.test(lower)) return 'bridge';
  if (/chorus|hook|refrain/.test(lower) && !/pre/.test(lower)) return 'chorus';
  return 'verse';
}

/** Approximate syllables: vowel groups for alphabetic words, one per character for CJK scripts. */
export function splitSyllables(text: string): string[] {
  const syllables: string[] = [];
  for (const word of text.split(/\s+/)) {
    const letters = word.replace(/[^\p{L}\p{N}']/gu, '');
    if (letters === '') continue;
    if (SYLLABIC_SCRIPTS.test(letters)) {
      syllables.push(...Array.from(letters));
      continue;
    }
    const groups = letters.match(VOWEL_GROUP);
    if (!groups) {
      syllables.push(letters);
      continue;
    }
    const tail = letters.slice(groups.join('').length);
    groups[groups.length - 1] += tail;
    syllables.push(...groups);
  }
  return syllables;
}
