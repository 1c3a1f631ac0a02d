/**
 * User search text → a safe FTS5 MATCH expression. Every word becomes a quoted string (so `AND`,
 * `NEAR(`, `*`, `:` or `"` are only ever text), all words must match (implicit AND), and the last
 * word matches as a prefix so results appear while typing. Words without a letter or digit are
 * dropped: the unicode61 tokenizer would find no token in them, and an empty string would match
 * nothing. Control characters become spaces. The result never makes FTS5 raise a syntax error
 * (a property test feeds it arbitrary text).
 */

const MAX_TERMS = 16;
const MAX_TERM_LENGTH = 64;
const HAS_TOKEN_CHAR = /[\p{L}\p{N}]/u;
const CONTROL_CHARS = /\p{Cc}/gu;

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** null when the text holds nothing searchable (the search filter is then ignored). */
export function toFtsQuery(text: string): string | null {
  const terms = text
    // Control characters separate words for the tokenizer anyway, and FTS5 reads a NUL as the end
    // of the query ("unterminated string").
    .replace(CONTROL_CHARS, ' ')
    .split(/\s+/u)
    .map((t) => Array.from(t).slice(0, MAX_TERM_LENGTH).join(''))
    .filter((t) => HAS_TOKEN_CHAR.test(t))
    .slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((t, i) => (i === terms.length - 1 ? `${quote(t)}*` : quote(t))).join(' ');
}
