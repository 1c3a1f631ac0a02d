/**
 * A message cut into the pieces a line may break between: an escape written with a backslash
 * (`\{`, `\}`, `\|`, `\\`, as a prompt list's messages tell the user to type) is one piece, so it
 * never shows as `\` at a line's end and `{` on the next. Pure; MessageText shows them.
 */
export interface MessagePiece {
  text: string;
  /** Shown without a break inside (an escape). */
  unbroken: boolean;
}

const ESCAPE = /\\[{}|\\]/g;

export function messagePieces(text: string): MessagePiece[] {
  const pieces: MessagePiece[] = [];
  let at = 0;
  for (const match of text.matchAll(ESCAPE)) {
    if (match.index > at) pieces.push({ text: text.slice(at, match.index), unbroken: false });
    pieces.push({ text: match[0], unbroken: true });
    at = match.index + match[0].length;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), unbroken: false });
  return pieces;
}
