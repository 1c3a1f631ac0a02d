/**
 * Retention (issue 22, item 4) at a million tasks (item 6), against a library of 10,000 in the
 * same run; in both a tenth of the tasks are older than the rules' days (100,000 of the million):
 * - opening the library until its first page is answered, with the rules off and with a daily run
 *   due (target: 20 ms more than with the rules off, so the run never holds the opening);
 * - the preview of the rules (target: 20 ms, a page's);
 * - the run that moves the old tasks, in the background after the opening: its whole time, the
 *   time the event loop was held (a 1 ms timer's lateness: a page read or a state change waits
 *   that long; p99 within 20 ms, the max for information: a loaded machine's scheduler adds to it),
 *   and the first page read while it runs (asked every 5 ms, from asking to answer);
 * - Recently deleted's purge (what the run moved, 31 days on, with the rules off: a tenth of the
 *   library there for over 30 days), the same way: opening until its first page against the
 *   rules-off opening, then the purge's whole time, the event loop held and first pages during it.
 *
 * Uses library-store's libraries (store-library-fill.ts, cached in out/bench-cache/): tasks made
 * a second apart from 2024-01-01, so the engine's clock is set a day after the tenth task's time
 * and the rules say "older than 1 day" (nothing in Recently deleted is old enough to be purged at
 * open). Each library is a fresh copy.
 *
 * Run: node bench/retention.bench.ts   (exit 0 on PASS, 1 on FAIL)
 * Env: BENCH_TASKS (default 1000000), BENCH_BASELINE (default 10000), BENCH_READS (default 50),
 * BENCH_PURGE_BATCH (the purge's batch; default the engine's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineClock } from '../src/core/engine/index.ts';
import { TaskEngine } from '../src/core/engine/index.ts';
import { LibraryStore } from '../src/core/store/index.ts';
import { DEFAULT_RETENTION_RULES, type RetentionRules } from '../src/shared/task/retention.ts';
import { filledLibrary } from './store-library-fill.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
const BASELINE = Number(process.env.BENCH_BASELINE ?? 10_000);
const READS = Number(process.env.BENCH_READS ?? 50);
/** Recently deleted's purge batch (the engine's default unless set). */
const PURGE_BATCH = process.env.BENCH_PURGE_BATCH ? Number(process.env.BENCH_PURGE_BATCH) : undefined;
const OLD_SHARE = 0.1;
const DAY_MS = 86_400_000;
const BASE_MS = Date.parse('2024-01-01T00:00:00Z'); // the fill's first task
const TARGET_MS = 20;
const RULES: RetentionRules = { ...DEFAULT_RETENTION_RULES, enabled: true, olderThanDays: 1 };

/** A clock standing a day (and `laterMs`) after the task at the old share's place; real timers. */
function clockFor(tasks: number, laterMs = 0): EngineClock {
  const now = BASE_MS + Math.round(tasks * OLD_SHARE) * 1000 + DAY_MS + laterMs;
  return {
    now: () => now,
    schedule(ms, callback) {
      const t = setTimeout(callback, Math.max(0, ms));
      return () => clearTimeout(t);
    },
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

interface Row {
  name: string;
  wall: number;
  /** The CPU time this process spent over the same span (null: not measured). */
  cpu: number | null;
  /** Judged against TARGET_MS (false: for information). */
  judged: boolean;
  note?: string;
}

/**
 * Milliseconds of CPU time the main thread has used: what holds the event loop (the file system's
 * work on libuv's threads, a purge's folder removal, does not).
 */
function cpuNow(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

async function openToFirstPage(dir: string, clock: EngineClock) {
  const started = performance.now();
  const cpu = cpuNow();
  const engine = await TaskEngine.open({
    libraryDir: dir,
    service: null,
    clock,
    log: () => {},
    ...(PURGE_BATCH ? { trashPurge: { batchTasks: PURGE_BATCH } } : {}),
  });
  engine.store.listTasks({ limit: 50 });
  return { engine, ms: performance.now() - started, cpu: cpuNow() - cpu };
}

/** Resolves once the last run's time is `at` (the run has ended). */
async function runEnded(engine: TaskEngine, at: string): Promise<void> {
  while (engine.retention.view().lastRun?.at !== at) await new Promise((r) => setTimeout(r, 5));
}

/** Tasks in Recently deleted (the store's counts stop at a thousand). */
const trashedCount = (engine: TaskEngine) => engine.store.trashedBefore('9999', 10_000_000).length;

/**
 * Opens the library and measures what goes on after the opening until `ended`: the opening to
 * its first page (and its extra over `plain`), the whole time, how late a 1 ms timer fires (the
 * CPU used meanwhile), and a first page asked every 5 ms (from asking to the answer).
 */
async function inBackground(
  dir: string,
  clock: EngineClock,
  what: string,
  plain: { ms: number; cpu: number },
  ended: (engine: TaskEngine) => Promise<string>,
): Promise<Row[]> {
  const held = new Spans();
  let ticking = true;
  let last = performance.now();
  let lastCpu = cpuNow();
  const tick = () => {
    const now = performance.now();
    const cpu = cpuNow();
    held.add(Math.max(0, now - last - 1), cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const started = performance.now();
  const due = await openToFirstPage(dir, clock);
  const rows: Row[] = [
    { name: `open → first page, ${what} due`, wall: due.ms, cpu: due.cpu, judged: false },
    {
      name: '  more than with the rules off',
      wall: Math.max(0, due.ms - plain.ms),
      cpu: Math.max(0, due.cpu - plain.cpu),
      judged: true,
    },
  ];
  const reads = new Spans();
  let reading = true;
  const ask = () => {
    const asked = performance.now();
    const cpu = cpuNow();
    setTimeout(() => {
      if (!reading) return;
      due.engine.store.listTasks({ limit: 50 });
      reads.add(performance.now() - asked - 5, cpuNow() - cpu);
      ask();
    }, 5);
  };
  ask();
  const note = await ended(due.engine);
  reading = false;
  ticking = false;
  const wholeMs = performance.now() - started;
  rows.push({ name: `${what}, whole`, wall: wholeMs, cpu: null, judged: false, note });
  rows.push(held.row('  event loop held, p99', 99, true));
  rows.push(held.row('  event loop held, max', 100, false));
  if (reads.wall.length === 0) reads.add(wholeMs, wholeMs); // the opening held every read
  rows.push(reads.row('  first page during it, p99', 99, true, `${reads.wall.length} reads`));
  await due.engine.close();
  return rows;
}

/** Samples of a span: wall-clock and CPU milliseconds. */
class Spans {
  readonly wall: number[] = [];
  readonly cpu: number[] = [];
  add(wall: number, cpu: number): void {
    this.wall.push(wall);
    this.cpu.push(cpu);
  }
  row(name: string, p: number, judged: boolean, note?: string): Row {
    const at = (xs: number[]) =>
      p >= 100
        ? Math.max(...xs)
        : percentile(
            [...xs].sort((x, y) => x - y),
            p,
          );
    return { name, wall: at(this.wall), cpu: at(this.cpu), judged, ...(note ? { note } : {}) };
  }
}

async function measureLibrary(parent: string, tasks: number): Promise<Row[]> {
  const library = filledLibrary(parent, tasks);
  console.log(`library of ${tasks.toLocaleString('en')} tasks (${library.fromCache ? 'copied' : 'filled'})`);
  const clock = clockFor(tasks);
  const rows: Row[] = [];
  try {
    // warm the file as a library in use is, then the opening with the rules off
    LibraryStore.open(library.dir).close();
    const plain = await openToFirstPage(library.dir, clock);
    rows.push({ name: 'open → first page, rules off', wall: plain.ms, cpu: plain.cpu, judged: false });
    const previews = new Spans();
    let would = '';
    for (let i = 0; i < READS; i++) {
      const started = performance.now();
      const cpu = cpuNow();
      const p = plain.engine.retention.preview(RULES);
      previews.add(performance.now() - started, cpuNow() - cpu);
      would = `${p.atLeast ? '>= ' : ''}${p.tasks} tasks`;
    }
    rows.push(previews.row('preview p50', 50, false));
    rows.push(previews.row('preview p99', 99, true, would));
    // the rules on, never run: a run is due at the next opening
    plain.engine.store.setSetting('retention.rules', RULES);
    await plain.engine.close();

    let inTrash = 0;
    rows.push(
      ...(await inBackground(library.dir, clock, 'run', plain, async (engine) => {
        await runEnded(engine, new Date(clock.now()).toISOString());
        // off again, so the purge below is measured alone
        engine.store.setSetting('retention.rules', { ...RULES, enabled: false });
        inTrash = trashedCount(engine);
        return `${engine.retention.view().lastRun?.tasks ?? 0} moved`;
      })),
    );
    // what the run moved has been in Recently deleted for 31 days: purged after the next opening
    const later = clockFor(tasks, 31 * DAY_MS);
    rows.push(
      ...(await inBackground(library.dir, later, 'purge', plain, async (engine) => {
        await engine.idle();
        return `${inTrash - trashedCount(engine)} purged`;
      })),
    );
    return rows;
  } finally {
    rmSync(library.dir, { recursive: true, force: true });
  }
}

const cell = (v: number | null) => (v === null ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1)).padStart(9);

async function main(): Promise<void> {
  const cores = availableParallelism();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const loadBefore = loadavg()[0] ?? 0;
  console.log(`load average before: ${load()} (${cores} cores)`);
  const dir = mkdtempSync(join(tmpdir(), 'retention-bench-'));
  try {
    const small = await measureLibrary(dir, BASELINE);
    const big = await measureLibrary(dir, TASKS);
    console.log(`load average after: ${load()}`);
    // on a loaded machine the wall clock is the scheduler's: a row passes by its CPU time there
    const loaded = Math.max(loadBefore, loadavg()[0] ?? 0) > cores;
    const M = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
    const head = [M(TASKS), 'cpu', M(BASELINE), 'cpu'].map((h) => h.padStart(9)).join('');
    console.log(`\n${'operation'.padEnd(31)}${head}  ratio (cpu)  target`);
    let pass = true;
    big.forEach((b, i) => {
      const s = small[i] as Row;
      const wallOk = b.wall <= TARGET_MS;
      const cpuOk = b.cpu !== null && b.cpu <= TARGET_MS;
      const ok = !b.judged || wallOk || (loaded && cpuOk);
      pass &&= ok;
      const verdict = b.judged
        ? `<= ${TARGET_MS} ms ${ok ? (wallOk ? 'PASS' : 'PASS (cpu)') : 'FAIL'}`
        : '(info)';
      const r = (x: number | null, y: number | null) =>
        x === null || y === null ? '-' : `${(x / Math.max(y, 0.001)).toFixed(1)}x`;
      const ratio = `${r(b.wall, s.wall)} (${r(b.cpu, s.cpu)})`.padStart(12);
      const notes = [b.note, s.note].filter(Boolean).join(' / ');
      const values = [b.wall, b.cpu, s.wall, s.cpu].map(cell).join('');
      console.log(`${b.name.padEnd(31)}${values}  ${ratio}  ${verdict}${notes ? `  (${notes})` : ''}`);
    });
    console.log(
      `times in ms; ${OLD_SHARE * 100}% of each library is older than the rules' day; ` +
        (loaded ? 'loaded machine: a row over its target by the wall clock passes by its CPU time' : ''),
    );
    console.log(pass ? '\nPASS' : '\nFAIL');
    process.exitCode = pass ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
