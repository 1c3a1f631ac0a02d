/**
 * Terminal control sequences and control characters, out of text that came from elsewhere (the
 * service, a file). Printed as is, `ESC ] 52 ; c ; … BEL` writes the clipboard, `ESC ] 0 ; … BEL`
 * sets the window title, `ESC [ 2 J` erases the screen and `\r` overwrites a line: such text must
 * never reach a terminal, a log or the library with them. Line breaks and tabs stay.
 */

/**
 * One match per sequence, longest first:
 * - a string sequence (OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _`, or their
 *   8-bit forms) with everything up to its end (BEL, `ESC \` or 8-bit ST; else the end of text);
 * - CSI (`ESC [` or 8-bit 0x9B) with its parameter, intermediate and final bytes;
 * - any other escape (`ESC` with intermediate and final bytes);
 * - a single C0 control but tab and line feed, DEL, or a C1 control.
 */
const CONTROL_SEQUENCE = new RegExp(
  [
    '(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[\\s\\S]*?(?:\\x07|\\x1b\\\\|\\x9c|$)',
    '(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?',
    '\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?',
    '[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]',
  ].join('|'),
  'g',
);

/** A C0 control but tab and line feed, DEL, or a C1 control. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Whether `text` holds any control character but tab and line feed. */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** `text` without terminal control sequences and control characters (tab and line feed stay). */
export function withoutControlSequences(text: string): string {
  if (!hasControlCharacters(text)) return text;
  return text.replace(CONTROL_SEQUENCE, '');
}

/**
 * Direction controls (Unicode bidirectional marks, embeddings, overrides and isolates): U+202E
 * makes `Holiday\u202egpj.exe` read "Holidayexe.jpg" where text is shown with its direction, and
 * an isolate can hide what follows it (Trojan Source). Not control characters, so
 * `withoutControlSequences` keeps them; a name or a line printed to a terminal must not. The one
 * rule for them: the CLI's printer, an export's folder names, notifications and the titles the
 * window shows drop them (`withoutDirectionControls`); a board name holding one is refused.
 */
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Whether `text` holds a direction control (see DIRECTION_CONTROLS). */
export function hasDirectionControls(text: string): boolean {
  DIRECTION_CONTROLS.lastIndex = 0;
  return DIRECTION_CONTROLS.test(text);
}

/** `text` without direction controls. */
export function withoutDirectionControls(text: string): string {
  return text.replace(DIRECTION_CONTROLS, '');
}

/** `text` with each direction control written as a JSON escape (`\u202e`). */
export function escapedDirectionControls(text: string): string {
  return text.replace(DIRECTION_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Characters of no width that neither show nor space (the zero-width space U+200B, non-joiner
 * U+200C and joiner U+200D, the word joiner U+2060, the byte order mark U+FEFF): "Harbo\u200burs"
 * reads as "Harbours". A board name holding one is refused, so two boards cannot look alike.
 */
const INVISIBLE_CHARACTERS = /[\u200b-\u200d\u2060\ufeff]/;

/** Whether `text` holds a character of no width (see INVISIBLE_CHARACTERS). */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE_CHARACTERS.test(text);
}

/** Line breaks of any kind (CR, LF, VT, FF, NEL, the Unicode line and paragraph separators). */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * `text` on one line, each line break a space: what a summary says of one thing (a title, a
 * file name) so that text from a file cannot add a line of its own ("price: $0.00").
 */
export function asOneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ');
}
