/** The settings table: JSON values by key. */
import type { z } from 'zod';
import type { StoreCore } from './store-core.ts';
import { LibraryStoreError } from './store-errors.ts';

export class SettingsRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  get<T>(key: string, schema?: z.ZodType<T>): T | null {
    const row = this.#core.sql.getSetting.get(key);
    if (!row) return null;
    const value: unknown = JSON.parse(String(row.value));
    if (!schema) return value as T;
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new LibraryStoreError(`Setting ${key} has an unexpected value: ${parsed.error.message}`);
    return parsed.data;
  }

  set(key: string, value: unknown): void {
    const json = JSON.stringify(value);
    if (json === undefined) throw new LibraryStoreError(`Setting ${key}: value cannot be stored as JSON`);
    this.#core.transaction(() => this.#core.sql.setSetting.run({ key, value: json }));
  }

  delete(key: string): boolean {
    return this.#core.transaction(() => Number(this.#core.sql.deleteSetting.run(key).changes) > 0);
  }
}
