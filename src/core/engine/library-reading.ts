/**
 * A library opened only to read, beside the app (or another command) that has it open (review
 * s7, finding 6): `media-task recall` answers while the app runs. It takes no lock and starts
 * nothing (no recovery, no retention, no purge, no service): its one connection is read-only, so
 * it cannot change the library, and in WAL mode it sees every committed change without blocking
 * the writer. The engine's own opening stays the only writer (library-lock.ts).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostedProfile, type ServiceProfile } from '../../shared/index.ts';
import { assertLocalPath } from '../inputs/index.ts';
import { DATABASE_FILE_NAME, LibraryStore, SchemaBehindError } from '../store/index.ts';
import type { ReadingContext } from './engine-context.ts';
import { readTaskFile, type TaskFileReading } from './intake/task-file-import.ts';

export class LibraryReading {
  readonly #ctx: ReadingContext;

  private constructor(ctx: ReadingContext) {
    this.#ctx = ctx;
  }

  /**
   * Opens the library's records to read; null when there is no library there yet, or its records
   * are of another schema than this build's (only the lock's holder may bring them up to date).
   */
  static open(options: { libraryDir: string; profile?: ServiceProfile }): LibraryReading | null {
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
      connection: { profile: options.profile ?? hostedProfile() },
    });
  }

  /** As TaskEngine.readTaskFile: a task.json, or the task a result file came from. */
  readTaskFile(file: string): Promise<TaskFileReading> {
    return readTaskFile(this.#ctx, file);
  }

  close(): void {
    this.#ctx.store.close();
  }
}
