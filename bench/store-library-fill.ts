/**
 * The library-store benchmark's libraries: deterministic tasks (every catalog entry, made-up
 * prompts with a rare, a typical and a common word, states, favourites, outputs, two boards and
 * a few tasks in Recently deleted), written straight into a library the store created (its own
 * migrations), through the store's own column tables, with one prepared INSERT per table, in one
 * transaction. A filled library is kept in `out/bench-cache/` (named by size, schema version and
 * fill version, git-ignored) and copied for each run, so reruns start at once; under a newer
 * schema, the store migrates the cached one (as it would a user's library) instead of a refill.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { insertSql } from '../src/core/store/column-table.ts';
import { DATABASE_FILE_NAME } from '../src/core/store/database-connection.ts';
import { FIXED_SQL } from '../src/core/store/fixed-statements.ts';
import { LibraryStore, SCHEMA_VERSION } from '../src/core/store/index.ts';
import { OUTPUT_TABLE } from '../src/core/store/input-output-columns.ts';
import { SEQ_PER_MS, seqFloor } from '../src/core/store/sort-key.ts';
import { INSERTED_TASK_FIELDS, TASK_TABLE } from '../src/core/store/task-columns.ts';
import { seededRandom } from '../src/sandbox/index.ts';
import {
  familyOf,
  SANDBOX_VENDOR,
  TASK_TYPES,
  type TaskOutput,
  type TaskState,
} from '../src/shared/index.ts';
import { REPO_ROOT } from '../test/e2e/harness/renderer-build.ts';

/** Bump when the fill changes, so old libraries in the cache are not reused. */
const FILL_VERSION = 1;

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'ne',
  'to',
  'su',
  'vi',
  'da',
  'pe',
  'zo',
  'qu',
  'fe',
  'gi',
  'bo',
  'wu',
];
/** 400 made-up words: each prompt takes 8, so a word is in about 2% of tasks. */
const VOCABULARY = Array.from(
  { length: 400 },
  (_, i) => `${SYLLABLES[i % 16]}${SYLLABLES[(i >> 4) % 16]}${SYLLABLES[(i * 7) % 16]}n`,
);
export const WORDS = {
  rare: 'theremin', // 0.1% of tasks
  typical: VOCABULARY[17] as string, // 2%
  common: 'music', // 50%
  prefix: 'there', // 'theremin' as typed
} as const;
/** The boards: one task in 1,000 on the small one, one in 10 on the big one. */
export const BOARDS = { small: { name: 'Keepers', every: 1_000 }, big: { name: 'Big board', every: 10 } };
const ESTIMATES = [5_000, 10_000, 10_000, 15_000, 40_000, 120_000];
/** Finished tasks mostly, as a library of a million is: 0.1% still at the service or queued. */
const STATES: [TaskState, number][] = [
  ['saved', 0.88],
  ['failed', 0.07],
  ['cancelled', 0.039],
  ['processing', 0.0005],
  ['queued', 0.0005],
];
const TRASHED_SHARE = 0.01;
const FAVORITE_SHARE = 0.05;

export interface FilledLibrary {
  dir: string;
  fromCache: boolean;
  /** Seconds the fill (or the migration) took (null: copied from the cache). */
  fillSeconds: number | null;
  /** The schema version of the cached library the store migrated, when it did. */
  migratedFrom: number | null;
}

/**
 * A library of `tasks` tasks in `<parent>/library-<tasks>`: copied from the cache, filling the
 * cache first when it has none of this size, schema and fill.
 */
export function filledLibrary(parent: string, tasks: number): FilledLibrary {
  const name = `store-${tasks}-s${SCHEMA_VERSION}-f${FILL_VERSION}`;
  const cacheDir = join(REPO_ROOT, 'out/bench-cache');
  const cached = join(cacheDir, `${name}.sqlite`);
  let fillSeconds: number | null = null;
  let migratedFrom: number | null = null;
  const fromCache = existsSync(cached);
  if (!fromCache) {
    mkdirSync(cacheDir, { recursive: true });
    const building = join(cacheDir, `${name}.building-${process.pid}`);
    rmSync(building, { recursive: true, force: true });
    const started = performance.now();
    const older = olderSchema(cacheDir, tasks);
    migratedFrom = older?.schema ?? null;
    if (older === null) fillLibrary(building, tasks);
    else {
      // the same fill under an older schema (taken out of the cache): the store migrates it as it
      // would a user's library
      mkdirSync(building, { recursive: true });
      renameSync(older.file, join(building, DATABASE_FILE_NAME));
      const store = LibraryStore.open(building, { idleCheckpointMs: 0 });
      store.checkpoint();
      store.close();
    }
    fillSeconds = (performance.now() - started) / 1000;
    renameSync(join(building, DATABASE_FILE_NAME), cached);
    rmSync(building, { recursive: true, force: true });
  }
  const dir = join(parent, `library-${tasks}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(cached, join(dir, DATABASE_FILE_NAME));
  return { dir, fromCache, fillSeconds, migratedFrom };
}

/** The cached library of this size and fill under the newest older schema, or null. */
function olderSchema(cacheDir: string, tasks: number): { file: string; schema: number } | null {
  const pattern = new RegExp(`^store-${tasks}-s(\\d+)-f${FILL_VERSION}\\.sqlite$`);
  const found = readdirSync(cacheDir)
    .map((file) => ({ file, schema: Number(pattern.exec(file)?.[1] ?? Number.NaN) }))
    .filter((f) => f.schema < SCHEMA_VERSION)
    .sort((a, b) => b.schema - a.schema)[0];
  return found ? { file: join(cacheDir, found.file), schema: found.schema } : null;
}

/** Fills a new library folder with `count` tasks (see the header). */
export function fillLibrary(dir: string, count: number): void {
  // the store makes the file and runs its migrations; the rows go in through a plain connection
  LibraryStore.open(dir).close();
  const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
  try {
    // a file nobody reads until it is complete: no journal, no fsync, a large page cache
    db.exec('PRAGMA journal_mode = DELETE');
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -524288');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('BEGIN');
    insertRows(db, count);
    db.exec('COMMIT');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

const TASK_FIELDS = [
  ...INSERTED_TASK_FIELDS,
  'remoteId',
  'remoteStatus',
  'submittedAt',
  'endedAt',
  'savedAt',
  'usage',
  'error',
  'deletedAt',
] as const;
const OUTPUT_FIELDS = [
  'index',
  'kind',
  'url',
  'field',
  'state',
  'path',
  'mime',
  'size',
  'durationSeconds',
] as const;

function insertRows(db: DatabaseSync, count: number): void {
  const insertTask = db.prepare(insertSql('tasks', ['seq', ...TASK_TABLE.columnsWrittenBy(TASK_FIELDS)]));
  const insertOutput = db.prepare(
    insertSql('task_outputs', ['task_id', ...OUTPUT_TABLE.columnsWrittenBy(OUTPUT_FIELDS)]),
  );
  const insertEvent = db.prepare(FIXED_SQL.insertEvent);
  const insertBoard = db.prepare('INSERT INTO boards (name, created_at) VALUES (?, ?) RETURNING id');
  const onBoard = db.prepare('INSERT INTO board_tasks (board_id, task_id, added_at) VALUES (?, ?, ?)');
  const now = '2026-01-01T00:00:00.000Z';
  const small = Number(insertBoard.get(BOARDS.small.name, now)?.id);
  const big = Number(insertBoard.get(BOARDS.big.name, now)?.id);
  const random = seededRandom(42);
  const baseMs = Date.parse('2024-01-01T00:00:00Z');
  let lastSeq = 0;
  for (let i = 0; i < count; i++) {
    const { task, outputKind } = benchTask(i, baseMs, random);
    const floor = seqFloor(task.createdAt, 'createdAt');
    const seq = lastSeq >= floor && lastSeq < floor + SEQ_PER_MS ? lastSeq + 1 : floor;
    lastSeq = seq;
    insertTask.run({ seq, ...TASK_TABLE.write(task) });
    insertEvent.run({
      task_id: task.id,
      at: task.createdAt,
      from_state: null,
      to_state: 'queued',
      detail: null,
    });
    if (task.state === 'saved') {
      const output: Pick<TaskOutput, (typeof OUTPUT_FIELDS)[number]> = {
        index: 0,
        kind: outputKind,
        url: `https://files.example.test/${i}/out`,
        field: 'output',
        state: 'saved',
        path: `outputs/${task.id}/0`,
        mime: null,
        size: 100_000 + (i % 1_000),
        // most songs have a length (half-seconds from 10 s to 4 min, so lengths tie)
        durationSeconds: outputKind === 'audio' && i % 5 !== 0 ? 10 + (i % 460) / 2 : null,
      };
      insertOutput.run({ task_id: task.id, ...OUTPUT_TABLE.write(output) });
    }
    if (i % BOARDS.small.every === 0) onBoard.run(small, task.id, now);
    if (i % BOARDS.big.every === 0) onBoard.run(big, task.id, now);
  }
}

/** The id of task `i` (so a benchmark picks tasks without reading a million ids). */
export function taskIdOf(i: number): string {
  return `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

function promptText(random: () => number): string {
  const words = Array.from({ length: 8 }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
  if (random() < 0.001) words.push(WORDS.rare);
  if (random() < 0.5) words.push(WORDS.common);
  return words.join(' ');
}

function stateOf(roll: number): TaskState {
  let sum = 0;
  for (const [state, share] of STATES) {
    sum += share;
    if (roll < sum) return state;
  }
  return 'saved';
}

/** Task `i`: its row's fields, and what its output is. */
function benchTask(i: number, baseMs: number, random: () => number) {
  const entry = TASK_TYPES[Math.floor(random() * TASK_TYPES.length)] as (typeof TASK_TYPES)[number];
  const model = `${SANDBOX_VENDOR}/${entry.modelName}`;
  const input: Record<string, unknown> = { prompt: promptText(random), duration: 30 };
  if (entry.taskType === 'txt2audio') {
    input.lyrics = `[verse] ${promptText(random)}\n[chorus] ${promptText(random)}`;
  }
  // Every 7th task shares its creation time with the previous one: ties are the norm.
  const createdMs = baseMs + (i - (i % 7 === 0 ? 1 : 0)) * 1000;
  const createdAt = new Date(createdMs).toISOString();
  const ended = new Date(createdMs + entry.expectedSeconds * 1000).toISOString();
  const state = stateOf(random());
  const finished = state === 'saved' || state === 'failed';
  const estimate = ESTIMATES[i % ESTIMATES.length] as number;
  const task = {
    id: taskIdOf(i),
    model,
    taskType: entry.taskType,
    entryId: entry.id,
    family: familyOf(entry),
    title: `${entry.label} ${i}`,
    state,
    request: { model, task_type: entry.taskType, input },
    favorite: random() < FAVORITE_SHARE,
    estimateMicros: estimate,
    createdAt,
    updatedAt: createdAt,
    expectedMs: entry.expectedSeconds * 1000,
    parentId: null,
    parentOutput: null,
    batchId: null,
    batchPlace: undefined,
    remoteId: state === 'queued' ? null : `10000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    remoteStatus: finished ? (state === 'saved' ? 'completed' : 'failed') : null,
    submittedAt: state === 'queued' ? null : createdAt,
    endedAt: finished ? ended : null,
    savedAt: state === 'saved' ? ended : null,
    usage: finished ? { type: 'point', frozen: estimate, consume: estimate } : null,
    error:
      state === 'failed' ? { kind: 'remote', message: 'The service could not make it', code: null } : null,
    deletedAt: random() < TRASHED_SHARE ? ended : null,
  };
  return { task, outputKind: entry.outputKind };
}
