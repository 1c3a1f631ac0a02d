/**
 * The SQLite library store with a million tasks, against the same operations on a library of
 * 10,000 tasks measured in the same run (the ratio says whether a cost grows with the library):
 * - state change: `transition` with a polling patch (and, for information, a durable one);
 * - the gallery's first page (50 newest, with outputs) and its total (`countTasks`);
 * - search (FTS5): a rare, a typical and a common word, a prefix as typed, a first letter, with
 *   its count;
 * - the gallery's filters: a small and a big board, a model, a kind (Makes), a type, favourites,
 *   a state, Recently deleted, each with its count; the boards' list (the sidebar);
 * - the other orders (oldest, title, costliest, longest): the first page, a page 200 pages deep,
 *   and the first page with a filter.
 * Targets (p99 of the million): state change <= 1 ms, a page or a count <= 20 ms.
 *
 * Each operation is timed by the wall clock and by the CPU time the process spent on it
 * (`process.cpuUsage`). On a loaded machine (load average above the cores) the wall clock's p99
 * is the scheduler's, not the store's: a row passes there when its CPU-time p99 is within the
 * target, and says so ("cpu").
 *
 * The libraries are filled straight through the store's schema (store-library-fill.ts) and kept
 * in out/bench-cache/ (about 1.3 GB for a million); each run works on a copy.
 *
 * Run: node bench/library-store.bench.ts   (exit 0 on PASS, 1 on FAIL)
 * Env: BENCH_TASKS (default 1000000), BENCH_BASELINE (default 10000), BENCH_READS (default 100).
 */

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibraryStore } from '../src/core/store/index.ts';
import { seededRandom } from '../src/sandbox/index.ts';
import type { ListQuery, TaskFilter, TaskState } from '../src/shared/index.ts';
import { BOARDS, filledLibrary, taskIdOf, WORDS } from './store-library-fill.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
const BASELINE = Number(process.env.BENCH_BASELINE ?? 10_000);
const CHANGES = 2_000;
const READS = Number(process.env.BENCH_READS ?? 100);
const PAGE = 50;
const TARGET_MS = { change: 1, read: 20 } as const;

// ---- measuring ---------------------------------------------------------------------------------

interface Timing {
  p50: number;
  p99: number;
  max: number;
  cpuP99: number;
}

function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

function measure(n: number, run: (i: number) => void): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    run(i);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    p50: percentile(wall, 50),
    p99: percentile(wall, 99),
    max: wall[wall.length - 1] ?? Number.NaN,
    cpuP99: percentile(cpu, 99),
  };
}

// ---- the operations ----------------------------------------------------------------------------

interface Operation {
  name: string;
  target: number | null;
  n: number;
  /** Prepares the operation on this library (cursors, board ids), then runs it `n` times. */
  prepare(store: LibraryStore, tasks: number): (i: number) => void;
}

const CYCLE: readonly TaskState[] = ['pending', 'processing', 'completed', 'downloading', 'saved'];

function stateChange(durable: boolean) {
  return (store: LibraryStore, tasks: number) => {
    const random = seededRandom(durable ? 8 : 9);
    return (i: number) => {
      const id = taskIdOf(Math.floor(random() * tasks));
      const to = CYCLE[i % CYCLE.length] as TaskState;
      const patch = { remoteStatus: to, nextPollAt: Date.now() + 5000, pollCount: i };
      store.transition(id, to, { patch, durable });
    };
  };
}

function boardId(store: LibraryStore, name: string): number {
  const board = store.board(name);
  if (!board) throw new Error(`no board ${name}`);
  return board.id;
}

/** A filter of the gallery: its boards named (their ids differ by library). */
type FilterOf = (store: LibraryStore) => TaskFilter;

const FILTERS: [string, FilterOf][] = [
  [`search rare word (0.1%)`, () => ({ search: WORDS.rare })],
  [`search typical word (2%)`, () => ({ search: WORDS.typical })],
  [`search common word (50%)`, () => ({ search: WORDS.common })],
  [`search prefix "${WORDS.prefix}" as typed`, () => ({ search: WORDS.prefix })],
  [
    `search "${WORDS.common.slice(0, 1)}" (a first letter typed)`,
    () => ({ search: WORDS.common.slice(0, 1) }),
  ],
  ['board, small (0.1%)', (s) => ({ board: boardId(s, BOARDS.small.name) })],
  ['board, big (10%)', (s) => ({ board: boardId(s, BOARDS.big.name) })],
  ['model flux1-schnell (2 entries)', () => ({ model: 'flux1-schnell' })],
  ['kind: videos (10 entries)', () => ({ makes: 'video' })],
  ['type: songs', () => ({ family: 'song' })],
  ['favourites', () => ({ favorite: true })],
  ['state: failed', () => ({ states: ['failed'] })],
  ['Recently deleted', () => ({ trashed: true })],
  ['model + search + state', () => ({ model: 'flux1-dev', search: WORDS.common, states: ['saved'] })],
  ['board + kind', (s) => ({ board: boardId(s, BOARDS.big.name), makes: 'image' })],
];

const OTHER_ORDERS = ['oldest', 'title', 'costliest', 'longest'] as const;
const DEEP_PAGES = 200;

function page(name: string, query: (s: LibraryStore) => ListQuery, deep = 0): Operation {
  return {
    name,
    target: TARGET_MS.read,
    n: READS,
    prepare: (store) => {
      const q = { limit: PAGE, ...query(store) };
      let cursor: string | null = null;
      for (let i = 0; i < deep; i++) cursor = store.listTasks({ ...q, cursor }).nextCursor;
      return () => store.listTasks({ ...q, cursor });
    },
  };
}

function count(name: string, filter: FilterOf): Operation {
  return {
    name,
    target: TARGET_MS.read,
    n: READS,
    prepare: (store) => {
      const f = filter(store);
      return () => store.countTasks(f);
    },
  };
}

const OPERATIONS: Operation[] = [
  { name: 'state change (transition)', target: TARGET_MS.change, n: CHANGES, prepare: stateChange(false) },
  { name: 'state change, durable (fsync)', target: null, n: READS, prepare: stateChange(true) },
  page(`first page (${PAGE} newest)`, () => ({})),
  count('  its total (countTasks)', () => ({})),
  {
    name: 'boards with counts (sidebar)',
    target: TARGET_MS.read,
    n: READS,
    prepare: (s) => () => s.boards(),
  },
  ...FILTERS.flatMap(([name, filter]) => [page(name, filter), count('  its count', filter)]),
  ...OTHER_ORDERS.flatMap((order) => [
    page(`first page, ${order}`, () => ({ order })),
    page(`page ${DEEP_PAGES + 1}, ${order}`, () => ({ order }), DEEP_PAGES),
  ]),
  page('first page, songs longest', () => ({ order: 'longest', family: 'song' })),
  page('first page, videos by title', () => ({ order: 'title', taskType: 'txt2video' })),
  page('first page, saved costliest', () => ({ order: 'costliest', states: ['saved'] })),
  page('first page, 2 states by title', () => ({ order: 'title', states: ['saved', 'processing'] })),
  page('first page, search by length', () => ({ order: 'longest', search: WORDS.typical })),
];

// ---- the run -----------------------------------------------------------------------------------

function runAll(parent: string, tasks: number): Timing[] {
  const library = filledLibrary(parent, tasks);
  const seconds = library.fillSeconds ?? 0;
  const how = library.fromCache
    ? 'copied from out/bench-cache'
    : library.migratedFrom !== null
      ? `the cached one of schema ${library.migratedFrom} migrated by the store in ${seconds.toFixed(1)} s`
      : `filled in ${seconds.toFixed(1)} s (${Math.round(tasks / seconds)} tasks/s), kept in out/bench-cache`;
  console.log(`library of ${tasks.toLocaleString('en')} tasks: ${how}`);
  const store = LibraryStore.open(library.dir);
  try {
    // warm the page cache as a library in use is (one read of each index the lists walk)
    store.listTasks({ limit: PAGE });
    const timings = OPERATIONS.map((op) => {
      const run = op.prepare(store, tasks);
      const timing = measure(op.n, run);
      // what the store's idle checkpoint does once a burst of writes ends
      if (op.target === TARGET_MS.change || op.target === null) store.checkpoint();
      return timing;
    });
    console.log(`  file ${(statSync(store.file).size / 1e6).toFixed(0)} MB`);
    return timings;
  } finally {
    store.close();
    rmSync(library.dir, { recursive: true, force: true });
  }
}

const cell = (v: number | string, width = 9) =>
  (typeof v === 'string' ? v : v < 10 ? v.toFixed(3) : v.toFixed(1)).padStart(width);
const times = (big: number, small: number) => `${(big / small).toFixed(1)}x`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function printTable(big: Timing[], small: Timing[], loaded: boolean): boolean {
  const M = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
  const head = [`${M(TASKS)} p50`, 'p99', 'cpu p99', 'max', `${M(BASELINE)} p50`, 'p99', 'cpu p99'];
  console.log(`\n${'operation'.padEnd(34)}${head.map((h) => cell(h)).join('')}  ratio p99 (cpu)  target`);
  let pass = true;
  OPERATIONS.forEach((op, i) => {
    const b = big[i] as Timing;
    const s = small[i] as Timing;
    const wallOk = op.target !== null && b.p99 <= op.target;
    const cpuOk = op.target !== null && b.cpuP99 <= op.target;
    const ok = op.target === null || wallOk || (loaded && cpuOk);
    pass &&= ok;
    const verdict =
      op.target === null ? '(info)' : `<= ${op.target} ms ${ok ? (wallOk ? 'PASS' : 'PASS (cpu)') : 'FAIL'}`;
    const ratio = `${times(b.p99, s.p99)} (${times(b.cpuP99, s.cpuP99)})`.padStart(15);
    const values = [b.p50, b.p99, b.cpuP99, b.max, s.p50, s.p99, s.cpuP99].map((v) => cell(v));
    console.log(`${op.name.padEnd(34)}${values.join('')}  ${ratio}  ${verdict}`);
  });
  console.log(
    `times in ms; ratio = ${M(TASKS)} / ${M(BASELINE)}. ${CHANGES} changes, ${READS} of each read. ` +
      'A state change that lands on an automatic WAL checkpoint (every ~4,000 pages) takes ~10 ms: the "max" column.',
  );
  return pass;
}

function main(): void {
  const cores = availableParallelism();
  const before = loadavg()[0] ?? 0;
  console.log(`load average before: ${load()} (${cores} cores)`);
  const dir = mkdtempSync(join(tmpdir(), 'library-store-bench-'));
  try {
    const small = runAll(dir, BASELINE);
    const big = runAll(dir, TASKS);
    const after = loadavg()[0] ?? 0;
    console.log(`load average after: ${load()}`);
    const loaded = Math.max(before, after) > cores;
    if (loaded) console.log('loaded machine: a row over its target by the wall clock passes by its CPU time');
    const pass = printTable(big, small, loaded);
    console.log(pass ? '\nPASS' : '\nFAIL');
    process.exitCode = pass ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
