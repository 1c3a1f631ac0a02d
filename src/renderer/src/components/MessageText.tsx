/** A message's text with each written escape (`\{`) kept on one line (model/message-pieces.ts). */
import { messagePieces } from '../model/message-pieces.ts';

export function MessageText({ text }: { text: string }) {
  const pieces = messagePieces(text);
  if (pieces.length === 1) return <>{text}</>;
  return (
    <>
      {pieces.map((piece, i) =>
        piece.unbroken ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order
          <span key={i} className="unbroken">
            {piece.text}
          </span>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
