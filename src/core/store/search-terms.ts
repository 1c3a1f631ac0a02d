/**
 * The full-text index's terms that begin with a prefix (the `search_terms` fts5vocab table,
 * migration 21), for a search's last word (see toFtsQuery): one seek per term, each just past the
 * one before, stopping one past the most that are worth naming.
 */
import type { PrefixTerms } from './fts-query.ts';
import type { StatementCache } from './statement-cache.ts';

/** More terms than this and the search keeps the prefix (a short one stands for many words). */
export const MAX_NAMED_TERMS = 16;

// `instance` rows come term by term; `>=` seeks (`>` would read every instance of the term before)
const NEXT_TERM_SQL = 'SELECT term FROM search_terms WHERE term >= ? AND term < ? LIMIT 1';

/** No token holds a control character, so `term + U+0001` sorts after `term` and before its longer words. */
const JUST_AFTER = '\u0001';

export function prefixTermsOf(cache: StatementCache): PrefixTerms {
  return (prefix) => {
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
