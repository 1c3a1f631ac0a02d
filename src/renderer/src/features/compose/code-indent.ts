/**
 * Tab and Shift+Tab in the JSON editor, as pure text edits: two spaces at the caret (or in place
 * of a selection within one line), or every selected line indented or outdented by two spaces.
 */
import type { RangeEdit } from './lyrics-markers.ts';

export const INDENT = '  ';

/** A replacement, and the selection after it (`caret` to `selectionEnd`). */
export interface BlockEdit extends RangeEdit {
  selectionEnd: number;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The whole lines a selection touches: from the start of its first to the end of its last. */
function blockOf(text: string, start: number, end: number): { from: number; to: number } {
  // a selection that ends at the start of a line does not take that line
  const last = end > start && text[end - 1] === '\n' ? end - 1 : end;
  const lineEnd = text.indexOf('\n', last);
  return { from: lineStartOf(text, start), to: lineEnd === -1 ? text.length : lineEnd };
}

/** Tab: two spaces at the caret, or each selected line indented when the selection spans lines. */
export function indentEdit(text: string, start: number, end: number): BlockEdit {
  if (!text.slice(start, end).includes('\n')) {
    return { start, end, insert: INDENT, caret: start + INDENT.length, selectionEnd: start + INDENT.length };
  }
  const { from, to } = blockOf(text, start, end);
  const lines = text.slice(from, to).split('\n');
  const insert = lines.map((line) => INDENT + line).join('\n');
  return {
    start: from,
    end: to,
    insert,
    caret: start + INDENT.length,
    selectionEnd: end + insert.length - (to - from),
  };
}

/** Shift+Tab: each line the caret or selection is on loses up to two leading spaces. */
export function outdentEdit(text: string, start: number, end: number): BlockEdit {
  const { from, to } = blockOf(text, start, end);
  const lines = text.slice(from, to).split('\n');
  const removed = lines.map((line) => /^ {0,2}/.exec(line)?.[0].length ?? 0);
  const insert = lines.map((line, i) => line.slice(removed[i])).join('\n');
  const firstRemoved = Math.min(removed[0] ?? 0, start - from);
  return {
    start: from,
    end: to,
    insert,
    caret: Math.max(from, start - firstRemoved),
    selectionEnd: Math.max(from, end - (to - from - insert.length)),
  };
}
