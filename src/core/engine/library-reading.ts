/**
 * A library opened only to read, beside the app (or another command) that has it open (review
 * s7, finding 6): `media-task recall`, `list`, `boards`, `get`, `trash`, `batches`, `export` and
 * `retention` (its show and preview) answer while the app runs. It takes no lock and starts
 * nothing (no recovery, no retention run, no purge, no service): its one connection is read-only,
 * so it cannot change the library, and in WAL mode it sees every committed change without
 * blocking the writer. The engine's own opening stays the only writer (library-lock.ts).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type BatchSummary,
  hostedProfile,
  type ServiceProfile,
  type TaskLineage,
} from '../../shared/index.ts';
import { assertLocalPath } from '../inputs/index.ts';
import { DATABASE_FILE_NAME, LibraryStore, SchemaBehindError } from '../store/index.ts';
import { DEFAULT_RETENTION_TUNING } from './actions/retention-actions.ts';
import { RetentionReading } from './actions/retention-reading.ts';
import { SYSTEM_CLOCK } from './engine-clock.ts';
import type { ReadingContext } from './engine-context.ts';
import { readTaskFile, type TaskFileReading } from './intake/task-file-import.ts';

/**
 * What a command that only reads needs of the library. The engine (TaskEngine) is one, with the
 * lock; a LibraryReading is one beside whoever holds it. Its store may be read-only: a write throws.
 */
export interface LibraryReader {
  readonly libraryDir: string;
  readonly store: LibraryStore;
  /** The rules as kept, their preview and the library's size (never a run). */
  readonly retention: Pick<RetentionReading, 'view' | 'preview' | 'librarySize'>;
  /** That batch's summary, or every batch with a task not ended yet (newest first). */
  batches(batchId?: string): BatchSummary[];
  /** What a task was made from and what was made from it; null when there is no such task. */
  lineage(id: string): TaskLineage | null;
  /** A task.json, or the task a result file came from (task-file-import.ts). */
  readTaskFile(file: string): Promise<TaskFileReading>;
}

export class LibraryReading implements LibraryReader {
  readonly #ctx: ReadingContext;
  readonly retention: RetentionReading;

  private constructor(ctx: ReadingContext) {
    this.#ctx = ctx;
    this.retention = new RetentionReading(ctx, DEFAULT_RETENTION_TUNING.previewTasks);
  }

  /**
   * Opens the library's records to read; null when there is no library there yet, or its records
   * are of another schema than this build's (only the lock's holder may bring them up to date).
   * `log`: where a record that cannot be read is said (retention's rules).
   */
  static open(options: {
    libraryDir: string;
    profile?: ServiceProfile;
    log?: (line: string) => void;
  }): LibraryReading | null {
    assertLocalPath(options.libraryDir, 'libraryDir');
    const libraryDir = resolve(options.libraryDir);
    if (!existsSync(join(libraryDir, DATABASE_FILE_NAME))) return null;
    let store: LibraryStore;
    try {
      store = LibraryStore.open(libraryDir, { readOnly: true });
    } catch (err) {
      if (err instanceof SchemaBehindError) return null;
      throw err;
    }
    return new LibraryReading({
      libraryDir,
      store,
      clock: SYSTEM_CLOCK,
      log: options.log ?? (() => {}),
      connection: { profile: options.profile ?? hostedProfile() },
    });
  }

  get libraryDir(): string {
    return this.#ctx.libraryDir;
  }

  get store(): LibraryStore {
    return this.#ctx.store;
  }

  batches(batchId?: string): BatchSummary[] {
    return this.#ctx.store.batches(batchId);
  }

  lineage(id: string): TaskLineage | null {
    return this.#ctx.store.lineage(id);
  }

  readTaskFile(file: string): Promise<TaskFileReading> {
    return readTaskFile(this.#ctx, file);
  }

  close(): void {
    this.#ctx.store.close();
  }
}
