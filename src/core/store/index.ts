/**
 * The library store: one SQLite database (node:sqlite, no native addon) per library folder.
 * Code outside the store imports from here only.
 */
export { DATABASE_FILE_NAME } from './database-connection.ts';
export { toFtsQuery } from './fts-query.ts';
export { LibraryStore } from './library-store.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './list-query.ts';
export { MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations.ts';
export type { RetentionCandidate, RetentionQuery, RetentionWindow } from './retention-records.ts';
export type { TransactionOptions } from './store-core.ts';
export {
  CorruptTaskRowError,
  DatabaseTooNewError,
  InvalidCursorError,
  LibraryStoreError,
  MigrationMismatchError,
  SchemaBehindError,
  SqliteFeatureMissingError,
} from './store-errors.ts';
export type * from './store-types.ts';
export type { SelectedTask } from './trash-records.ts';
