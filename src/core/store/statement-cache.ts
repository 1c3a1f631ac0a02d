/**
 * Prepared statements keyed by their SQL text. Queries whose text depends on the filters or the
 * patched fields (listing, counting, patches) are prepared the first time a shape is seen and
 * reused after; the cache is bounded so odd shapes cannot grow it without end.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

const DEFAULT_CAPACITY = 256;

export class StatementCache {
  readonly #db: DatabaseSync;
  readonly #capacity: number;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, capacity = DEFAULT_CAPACITY) {
    this.#db = db;
    this.#capacity = capacity;
  }

  get(sql: string): StatementSync {
    const found = this.#statements.get(sql);
    if (found) {
      // Refresh its place so the least recently used shape is evicted first.
      this.#statements.delete(sql);
      this.#statements.set(sql, found);
      return found;
    }
    const statement = this.#db.prepare(sql);
    this.#statements.set(sql, statement);
    if (this.#statements.size > this.#capacity) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return statement;
  }

  get size(): number {
    return this.#statements.size;
  }
}
