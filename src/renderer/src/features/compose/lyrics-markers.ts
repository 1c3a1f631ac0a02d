/**
 * Section markers in song lyrics (spec: `[verse]`, `[chorus]`, `[bridge]`, `[inst]`; timestamps
 * such as `[01:23]` or `[01:23.45]` may be included; common tags from elsewhere such as
 * `[Verse 1]` count as the marker they are mapped to when queued, src/shared/compose/lyrics-tags.ts).
 * Pure text functions: splitting lyrics into highlight segments, finding malformed markers with
 * their line numbers, inserting a marker at the caret, and finding a line's place in the text. No DOM.
 */
import {
  commonTagMarker,
  isTimestamp,
  LYRICS_MARKERS,
  type LyricsMarker,
  markerOf,
} from '../../../../shared/index.ts';

export { isTimestamp, LYRICS_MARKERS, type LyricsMarker, markerOf };

/** `problem`: a broken marker, which blocks Queue; `warning`: a tag sent as written. */
export type SegmentKind = 'text' | 'marker' | 'timestamp' | 'problem' | 'warning';

export interface LyricsSegment {
  kind: SegmentKind;
  text: string;
  /** For `marker`: which one (drives its colour). */
  marker?: LyricsMarker;
  /** For `problem` and `warning`: where it starts, as `problemPlace` gives it (its mark's key). */
  place?: string;
}

export type ProblemKind = 'unknown' | 'unclosed' | 'not-alone' | 'stray-close';

export interface LyricsProblem {
  kind: ProblemKind;
  /** 1-based line and column of the problem's first character. */
  line: number;
  column: number;
  /** The offending text, e.g. `[xyz]` or `[verse`. */
  text: string;
  message: string;
  /** False for a tag the service does not know: it is sent as written (a warning). */
  blocking: boolean;
}

const KNOWN_LIST = '[verse], [chorus], [bridge], [inst]';

/** One bracketed token found on a line, or a stray piece of one. */
interface LineToken {
  start: number;
  end: number;
  text: string;
  kind: 'marker' | 'timestamp' | 'unknown' | 'unclosed' | 'stray-close';
  marker?: LyricsMarker;
}

function scanLine(line: string): LineToken[] {
  const tokens: LineToken[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '[') {
      const close = line.indexOf(']', i + 1);
      const nextOpen = line.indexOf('[', i + 1);
      if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
        const end = nextOpen === -1 ? line.length : nextOpen;
        const text = line.slice(i, end).trimEnd();
        tokens.push({ start: i, end: i + text.length, text, kind: 'unclosed' });
        i = end;
        continue;
      }
      const text = line.slice(i, close + 1);
      const inside = line.slice(i + 1, close);
      const marker = markerOf(inside) ?? commonTagMarker(inside);
      if (marker) tokens.push({ start: i, end: close + 1, text, kind: 'marker', marker });
      else if (isTimestamp(inside)) tokens.push({ start: i, end: close + 1, text, kind: 'timestamp' });
      else tokens.push({ start: i, end: close + 1, text, kind: 'unknown' });
      i = close + 1;
      continue;
    }
    if (ch === ']') tokens.push({ start: i, end: i + 1, text: ']', kind: 'stray-close' });
    i += 1;
  }
  return tokens;
}

/** True when a line holds something besides its markers and timestamps. */
function hasOtherText(line: string, tokens: readonly LineToken[]): boolean {
  let rest = '';
  let at = 0;
  for (const t of tokens) {
    if (t.kind === 'marker' || t.kind === 'timestamp') {
      rest += line.slice(at, t.start);
      at = t.end;
    }
  }
  rest += line.slice(at);
  return rest.trim() !== '';
}

function problemOf(
  token: LineToken,
  line: string,
  tokens: readonly LineToken[],
  lineNo: number,
): LyricsProblem | null {
  const where = { line: lineNo, column: token.start + 1, text: token.text, blocking: true };
  switch (token.kind) {
    case 'unknown':
      return {
        ...where,
        kind: 'unknown',
        blocking: false,
        message: `Line ${lineNo}: ${token.text} is not a marker the service knows (${KNOWN_LIST}); it is sent as written`,
      };
    case 'unclosed':
      return { ...where, kind: 'unclosed', message: `Line ${lineNo}: ${token.text} is not closed (add "]")` };
    case 'stray-close':
      return { ...where, kind: 'stray-close', message: `Line ${lineNo}: "]" has no opening "["` };
    case 'marker': {
      const markers = tokens.filter((t) => t.kind === 'marker');
      if (!hasOtherText(line, tokens) && markers.length === 1) return null;
      return {
        ...where,
        kind: 'not-alone',
        message: `Line ${lineNo}: ${token.text} should be on its own line`,
      };
    }
    default:
      return null;
  }
}

/** Every malformed marker, in reading order. */
export function findLyricsProblems(lyrics: string): LyricsProblem[] {
  const problems: LyricsProblem[] = [];
  const lines = lyrics.split('\n');
  lines.forEach((line, index) => {
    const tokens = scanLine(line);
    for (const token of tokens) {
      const problem = problemOf(token, line, tokens, index + 1);
      if (problem) problems.push(problem);
    }
  });
  return problems;
}

/** A problem's place in the text, `line:column`: the same for the listed problem and its mark. */
export function problemPlace(problem: Pick<LyricsProblem, 'line' | 'column'>): string {
  return `${problem.line}:${problem.column}`;
}

/** Segments of the whole text for the highlight layer; joined, they give back the text exactly. */
export function segmentLyrics(lyrics: string): LyricsSegment[] {
  const segments: LyricsSegment[] = [];
  const push = (segment: LyricsSegment) => {
    if (segment.text === '') return;
    const last = segments[segments.length - 1];
    if (last && last.kind === 'text' && segment.kind === 'text') last.text += segment.text;
    else segments.push(segment);
  };
  const lines = lyrics.split('\n');
  lines.forEach((line, index) => {
    const tokens = scanLine(line);
    let at = 0;
    for (const token of tokens) {
      push({ kind: 'text', text: line.slice(at, token.start) });
      const problem = problemOf(token, line, tokens, index + 1);
      if (problem)
        push({
          kind: problem.blocking ? 'problem' : 'warning',
          text: token.text,
          place: problemPlace(problem),
        });
      else if (token.kind === 'marker') push({ kind: 'marker', text: token.text, marker: token.marker! });
      else push({ kind: 'timestamp', text: token.text });
      at = token.end;
    }
    push({ kind: 'text', text: line.slice(at) });
    if (index < lines.length - 1) push({ kind: 'text', text: '\n' });
  });
  return segments;
}

export interface TextEdit {
  text: string;
  /** Where the caret goes after the edit. */
  caret: number;
}

/** A replacement of part of a text: `[start, end)` becomes `insert`; the caret goes to `caret`. */
export interface RangeEdit {
  start: number;
  end: number;
  insert: string;
  caret: number;
}

/**
 * Where and what to insert for `[marker]` on its own line at the caret (replacing a selection):
 * a line break is added before it when the caret is not at the start of a line, and after it
 * (taking the place of a line break that follows) so the text after it stays on its own line.
 */
export function markerInsertion(
  text: string,
  selectionStart: number,
  selectionEnd: number,
  marker: LyricsMarker,
): RangeEdit {
  const start = Math.max(0, Math.min(selectionStart, text.length));
  const end = Math.max(start, Math.min(selectionEnd, text.length));
  const before = text.slice(0, start);
  const needsBreakBefore = before !== '' && !before.endsWith('\n');
  const insert = `${needsBreakBefore ? '\n' : ''}[${marker}]\n`;
  const replacedEnd = text.startsWith('\n', end) ? end + 1 : end;
  return { start, end: replacedEnd, insert, caret: start + insert.length };
}

/** The text after `markerInsertion`, and where the caret goes. */
export function insertMarker(
  text: string,
  selectionStart: number,
  selectionEnd: number,
  marker: LyricsMarker,
): TextEdit {
  const edit = markerInsertion(text, selectionStart, selectionEnd, marker);
  return { text: text.slice(0, edit.start) + edit.insert + text.slice(edit.end), caret: edit.caret };
}

/** The offset of a 1-based line and column in the text (clamped to the text). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const end = lineEnd === -1 ? text.length : lineEnd;
  return Math.min(offset + Math.max(0, column - 1), end);
}
