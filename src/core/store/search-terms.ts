/**
 * The full-text index's terms that begin with a prefix (the `search_terms` fts5vocab table,
 * migration 21), for a search's last word (see toFtsQuery): one seek per term, each just past the
 * one before, stopping one past the most that are worth naming. A word of up to three characters
 * is not looked up: tasks_fts keeps its prefix as one list (migration 22).
 */
import type { PrefixTerms } from './fts-query.ts';
import type { StatementCache } from './statement-cache.ts';

/** More terms than this and the search keeps the prefix (merged: a prefix that stands for many words). */
export const MAX_NAMED_TERMS = 16;

// `instance` rows come term by term; `>=` seeks (`>` would read every instance of the term before)
const NEXT_TERM_SQL = 'SELECT term FROM search_terms WHERE term >= ? AND term < ? LIMIT 1';

/** No token holds a control character, so `term + U+0001` sorts after `term` and before its longer words. */
const JUST_AFTER = '\u0001';

/** tasks_fts keeps prefixes of 1, 2 and 3 characters (migration 22): FTS5 walks those as one list. */
export const INDEXED_PREFIX_LENGTH = 3;

export function prefixTermsOf(cache: StatementCache): PrefixTerms {
  return (prefix) => {
    if (prefix.length <= INDEXED_PREFIX_LENGTH) return null;
    // plain letters and digits: the next code point bounds the prefix's terms ('z' → '{')
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const next = cache.get(NEXT_TERM_SQL);
    const found: string[] = [];
    let from = prefix;
    while (found.length <= MAX_NAMED_TERMS) {
      const row = next.get(from, end);
      if (row === undefined) return found;
      const term = String(row.term);
      found.push(term);
      from = term + JUST_AFTER;
    }
    return null;
  };
}
