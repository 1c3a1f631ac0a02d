/**
 * User search text → a safe FTS5 MATCH expression. Every word becomes a quoted string (so `AND`,
 * `NEAR(`, `*`, `:` or `"` are only ever text), all words must match (implicit AND), and the last
 * word matches as a prefix so results appear while typing. Words without a letter or digit are
 * dropped: the unicode61 tokenizer would find no token in them, and an empty string would match
 * nothing. Control characters become spaces. The result never makes FTS5 raise a syntax error
 * (a property test feeds it arbitrary text).
 *
 * `termsOf` (the store's look-up in the index's terms) may name the terms a last word of plain
 * letters and digits stands for as a prefix: the search then names them ("music", or ("theremin"
 * OR "therein")), which matches the same tasks, and FTS5 walks them newest first and stops after
 * a page, where a prefix merges the whole list of every matching term first. It returns null when
 * there are too many to name or the index keeps the prefix itself; the prefix stays then. A word of other characters keeps its prefix
 * (the tokenizer, not the look-up, decides what it stands for).
 */

const MAX_TERMS = 16;
const MAX_TERM_LENGTH = 64;
const HAS_TOKEN_CHAR = /[\p{L}\p{N}]/u;
const CONTROL_CHARS = /\p{Cc}/gu;
/** A word the tokenizer keeps whole, only lowered: its prefix is the same text in the index. */
const PLAIN_WORD = /^[a-z0-9]+$/;

/** The index's terms that begin with `prefix` (plain letters and digits, lowered), or null when too many. */
export type PrefixTerms = (prefix: string) => readonly string[] | null;

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** null when the text holds nothing searchable (the search filter is then ignored). */
export function toFtsQuery(text: string, termsOf?: PrefixTerms): string | null {
  const terms = text
    // Control characters separate words for the tokenizer anyway, and FTS5 reads a NUL as the end
    // of the query ("unterminated string").
    .replace(CONTROL_CHARS, ' ')
    .split(/\s+/u)
    .map((t) => Array.from(t).slice(0, MAX_TERM_LENGTH).join(''))
    .filter((t) => HAS_TOKEN_CHAR.test(t))
    .slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  const last = terms.length - 1;
  const named = termsOf === undefined ? null : namedTerms(terms[last] as string, termsOf);
  if (named !== null) return [...terms.slice(0, last).map(quote), named].join(' AND ');
  return terms.map((t, i) => (i === last ? `${quote(t)}*` : quote(t))).join(' ');
}

/** The last word's prefix as the terms it stands for, or null to keep the prefix. */
function namedTerms(word: string, termsOf: PrefixTerms): string | null {
  const prefix = word.toLowerCase();
  if (!PLAIN_WORD.test(prefix)) return null;
  const found = termsOf(prefix);
  // no term at all: the prefix finds nothing as cheaply
  if (found === null || found.length === 0) return null;
  return found.length === 1 ? quote(found[0] as string) : `(${found.map(quote).join(' OR ')})`;
}
