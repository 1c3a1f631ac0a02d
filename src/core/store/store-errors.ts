/**
 * Errors the library store raises on purpose, each with a message a user or a log can act on.
 */

export class LibraryStoreError extends Error {
  override name = 'LibraryStoreError';
}

/** A library opened only to read has migrations to apply, which only the lock's holder may do. */
export class SchemaBehindError extends LibraryStoreError {
  override name = 'SchemaBehindError';
  constructor(file: string, databaseVersion: number, codeVersion: number) {
    super(
      `The library database ${file} is at schema version ${databaseVersion}; this app reads ${codeVersion}`,
    );
  }
}

/** The database holds migrations this build does not know: it was written by a newer app. */
export class DatabaseTooNewError extends LibraryStoreError {
  override name = 'DatabaseTooNewError';
  readonly databaseVersion: number;
  readonly codeVersion: number;
  constructor(file: string, databaseVersion: number, codeVersion: number) {
    super(
      `The library database ${file} is at schema version ${databaseVersion}, newer than this app knows ` +
        `(${codeVersion}). It was opened by a newer version of Media Task Studio; update the app to open it.`,
    );
    this.databaseVersion = databaseVersion;
    this.codeVersion = codeVersion;
  }
}

/** An applied migration's SQL is not the SQL this build has for that version. */
export class MigrationMismatchError extends LibraryStoreError {
  override name = 'MigrationMismatchError';
  readonly version: number;
  constructor(file: string, version: number, name: string, detail: string) {
    super(
      `The library database ${file} applied migration ${version} (${name}) with different SQL than this app has ` +
        `(${detail}). Refusing to open it rather than guess at its schema.`,
    );
    this.version = version;
  }
}

/** node:sqlite was built without something the store needs (FTS5, JSON). */
export class SqliteFeatureMissingError extends LibraryStoreError {
  override name = 'SqliteFeatureMissingError';
}

/** A task row whose stored values do not read back as a Task. */
export class CorruptTaskRowError extends LibraryStoreError {
  override name = 'CorruptTaskRowError';
  readonly taskId: string;
  constructor(taskId: string, detail: string) {
    super(`Task ${taskId} in the library database cannot be read: ${detail}`);
    this.taskId = taskId;
  }
}

/** A list cursor that this store did not make, or one made for another order. */
export class InvalidCursorError extends LibraryStoreError {
  override name = 'InvalidCursorError';
}
