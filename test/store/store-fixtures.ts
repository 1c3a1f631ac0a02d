/**
 * Temp library folders, task factories and paging through a list for the store tests. Every
 * store opened here lives in its own folder under os.tmpdir() and is closed and removed by
 * `cleanup()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  DATABASE_FILE_NAME,
  LibraryStore,
  type NewTask,
  type StoreOptions,
} from '../../src/core/store/index.ts';
import type { ListQuery, TaskInput } from '../../src/shared/index.ts';

export interface TempLibraries {
  /** A new empty folder. */
  dir(): string;
  /** Opens a store in `dir` (a new folder when absent); closed by cleanup. */
  open(dir?: string, options?: StoreOptions): LibraryStore;
  /** A plain node:sqlite connection to the library file of `dir` (for tampering); closed by cleanup. */
  raw(dir: string): DatabaseSync;
  cleanup(): void;
}

export function tempLibraries(): TempLibraries {
  const dirs: string[] = [];
  const stores: LibraryStore[] = [];
  const raws: DatabaseSync[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'library-store-test-'));
    dirs.push(d);
    return d;
  };
  return {
    dir,
    open(where, options) {
      // Tests decide when checkpoints happen; no timers left behind.
      const store = LibraryStore.open(where ?? dir(), { idleCheckpointMs: 0, ...options });
      stores.push(store);
      return store;
    },
    raw(where) {
      const db = new DatabaseSync(join(where, DATABASE_FILE_NAME), { timeout: 2000 });
      raws.push(db);
      return db;
    },
    cleanup() {
      for (const db of raws.splice(0)) if (db.isOpen) db.close();
      for (const store of stores.splice(0)) store.close();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Every page of a query from its cursor on (the first page when it has none), following the cursors. */
export function allPages(store: LibraryStore, query: ListQuery): { ids: string[]; pages: number } {
  const ids: string[] = [];
  let cursor: string | null = query.cursor ?? null;
  let pages = 0;
  do {
    const page = store.listTasks({ ...query, cursor });
    ids.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
    pages += 1;
    if (pages > 1000) throw new Error('cursor loop');
  } while (cursor !== null);
  return { ids, pages };
}

export function urlInput(field: string, value: string): TaskInput {
  return { field, source: 'url', value, mime: null, size: null, sha256: null, width: null, height: null };
}

export function fileInput(field: string, path: string): TaskInput {
  return {
    field,
    source: 'file',
    value: path,
    mime: 'image/png',
    size: 1234,
    sha256: 'ab'.repeat(32),
    width: 640,
    height: 480,
  };
}

export function songTask(overrides: Partial<NewTask> & { style?: string; lyrics?: string } = {}): NewTask {
  const { style = 'lo-fi piano', lyrics = '[verse] rain on the window', ...rest } = overrides;
  return {
    model: 'service/ace-step',
    taskType: 'txt2audio',
    title: 'A song',
    request: {
      model: 'service/ace-step',
      task_type: 'txt2audio',
      input: { style_prompt: style, lyrics, duration: 30 },
    },
    estimateMicros: 15_000,
    expectedMs: 60_000,
    ...rest,
  };
}

export function imageTask(overrides: Partial<NewTask> & { prompt?: string } = {}): NewTask {
  const { prompt = 'a red bicycle', ...rest } = overrides;
  return {
    model: 'service/image-edit',
    taskType: 'image-edit',
    title: 'An image',
    request: {
      model: 'service/image-edit',
      task_type: 'image-edit',
      input: { prompt, negative_prompt: 'blurry' },
    },
    estimateMicros: 25_000,
    expectedMs: 30_000,
    ...rest,
  };
}

export function faceSwapTask(overrides: Partial<NewTask> = {}): NewTask {
  return {
    model: 'service/image-toolkit',
    taskType: 'face-swap',
    title: 'A swap',
    request: {
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      input: { swap_image: 'x', target_image: 'y' },
    },
    inputs: [
      urlInput('swap_image', 'https://example.test/a.png'),
      fileInput('target_image', 'inputs/t/b.png'),
    ],
    estimateMicros: 10_000,
    ...overrides,
  };
}

/** A fixed clock that moves forward one second each time it is read. */
export function steppingClock(startIso = '2025-03-01T10:00:00.000Z'): () => Date {
  let ms = Date.parse(startIso);
  return () => {
    const now = new Date(ms);
    ms += 1000;
    return now;
  };
}
