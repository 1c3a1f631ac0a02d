/**
 * Applies numbered migrations to a library database and refuses one it cannot trust: an applied
 * migration whose SQL hash differs from this build's, or a schema newer than this build knows.
 * Everything happens in one IMMEDIATE transaction, so two processes opening the same library at
 * once apply each migration exactly once.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Migration } from './migrations.ts';
import {
  DatabaseTooNewError,
  LibraryStoreError,
  MigrationMismatchError,
  SchemaBehindError,
} from './store-errors.ts';

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

interface AppliedRow {
  version: number;
  name: string;
  sha256: string;
}

export function migrationHash(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/** Versions must run 1, 2, 3… with no gap or repeat; a mistake here is a bug in the build. */
export function assertWellFormed(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new LibraryStoreError(
        `Migration list is malformed: entry ${i} has version ${m.version}, expected ${i + 1}`,
      );
    }
  });
}

function readApplied(db: DatabaseSync): AppliedRow[] {
  const rows = db.prepare('SELECT version, name, sha256 FROM schema_migrations ORDER BY version').all();
  return rows.map((r) => ({ version: Number(r.version), name: String(r.name), sha256: String(r.sha256) }));
}

function verifyApplied(applied: readonly AppliedRow[], migrations: readonly Migration[], file: string): void {
  const latest = migrations.length;
  const newest = applied.reduce((max, r) => Math.max(max, r.version), 0);
  if (newest > latest) throw new DatabaseTooNewError(file, newest, latest);
  for (const row of applied) {
    const code = migrations[row.version - 1];
    if (!code) throw new DatabaseTooNewError(file, row.version, latest);
    const hash = migrationHash(code.sql);
    if (hash !== row.sha256) {
      throw new MigrationMismatchError(
        file,
        row.version,
        row.name,
        `recorded sha256 ${row.sha256.slice(0, 12)}…, this build ${hash.slice(0, 12)}…`,
      );
    }
  }
}

function applyPending(
  db: DatabaseSync,
  applied: readonly AppliedRow[],
  migrations: readonly Migration[],
): number[] {
  const done = new Set(applied.map((r) => r.version));
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)',
  );
  const ran: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    db.exec(m.sql);
    record.run(m.version, m.name, migrationHash(m.sql), new Date().toISOString());
    ran.push(m.version);
  }
  return ran;
}

/**
 * For a connection that only reads (the library another process has open): throws unless the
 * database is exactly this build's schema, every migration applied as this build has it.
 */
export function assertSchemaCurrent(db: DatabaseSync, migrations: readonly Migration[], file: string): void {
  assertWellFormed(migrations);
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  const applied = table ? readApplied(db) : [];
  verifyApplied(applied, migrations, file);
  if (applied.length !== migrations.length)
    throw new SchemaBehindError(file, applied.length, migrations.length);
}

/** Returns the versions applied by this call (empty when the database was up to date). */
export function runMigrations(db: DatabaseSync, migrations: readonly Migration[], file: string): number[] {
  assertWellFormed(migrations);
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(CREATE_MIGRATIONS_TABLE);
    const applied = readApplied(db);
    verifyApplied(applied, migrations, file);
    const ran = applyPending(db, applied, migrations);
    if (ran.length > 0) db.exec(`PRAGMA user_version = ${migrations.length}`);
    db.exec('COMMIT');
    return ran;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
