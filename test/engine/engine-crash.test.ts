/**
 * Crash test (issue 20, item 5): a child process runs the engine on 120 songs against the
 * sandbox, whose connection cuts requests before and after they are processed (a create made and
 * billed, then cut before its answer), truncates answers and answers 429 and 500, and is killed
 * with SIGKILL at random moments, at least 30 times, restarting each time. At the end every
 * task the sandbox created is saved in the library with its id and outputs (a create whose
 * answer was lost, to a fault or a kill, is found in the service's history and adopted), no
 * local task was created twice, the tasks left uncertain are exactly those the service never
 * created (each says so), the database is intact and no partial file is left.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { API_KEY, removeDir, sandbox, tempDir } from './engine-fixtures.ts';

const TOTAL = 120;
const KILLS = 30;
const worker = join(import.meta.dirname, 'crash-worker.ts');

let dir: string;
let sb: Sandbox;

beforeAll(async () => {
  dir = await tempDir('mts-crash-');
  // slow enough that the work outlasts the 30 kill windows (about 25 s of engine uptime)
  sb = await sandbox({ timeScale: 0.2, concurrencyLimit: 50, faults: FAULTS });
});

afterAll(async () => {
  await sb?.stop();
  await removeDir(dir);
});

/**
 * The faulty connection of the creates (seeded: the same draws each run); fetches through such
 * faults are engine-faults.test.ts's, and here would only make the run longer.
 */
const FAULTS = {
  seed: 20,
  applyTo: 'create',
  resetBeforeBodyRate: 0.05,
  serverErrorRate: 0.05,
  rateLimitRate: 0.02,
  retryAfterSeconds: 1,
  resetAfterBodyRate: 0.08,
  malformedJsonRate: 0.05,
} as const;

/** Tasks at the service at once in the last run, which is never killed: it only finishes the work. */
const FINAL_MAX_ACTIVE = 40;

function runWorker(lib: string, killAfterMs: number | null): Promise<{ idle: boolean; killed: boolean }> {
  // killed runs keep 8 tasks at the service, so the work outlasts the kills
  const maxActive = killAfterMs === null ? [String(FINAL_MAX_ACTIVE)] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, lib, sb.url, API_KEY, String(TOTAL), ...maxActive], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on('data', (d) => {
      out += d;
      if (killAfterMs !== null && out.includes('READY') && !timer) {
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') resolve({ idle: out.includes('IDLE'), killed: true });
      else if (code === 0) resolve({ idle: out.includes('IDLE'), killed: false });
      else reject(new Error(`worker exited with ${code}: ${err.slice(-2000)}`));
    });
  });
}

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

it(`survives ${KILLS} SIGKILLs while running ${TOTAL} tasks`, { timeout: 420_000 }, async () => {
  const lib = join(dir, 'lib');
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  let kills = 0;
  const started = Date.now();
  for (let i = 0; i < KILLS; i++) {
    const result = await runWorker(lib, Math.floor(20 + random() * 380));
    if (result.killed) kills += 1;
    else if (result.idle) break;
  }
  const killedFor = Date.now() - started;
  const final = await runWorker(lib, null);
  const finalFor = Date.now() - started - killedFor;
  expect(final.idle).toBe(true);

  const store = LibraryStore.open(lib);
  try {
    const ledger = sb.ledger();
    const local = store.listTasks({ limit: 200 });
    expect(local.items.length).toBe(TOTAL);
    const markerOf = (body: unknown) => (body as { input: { style_prompt: string } }).input.style_prompt;

    // no local task was created twice
    const perMarker = new Map<string, number>();
    for (const e of ledger) perMarker.set(markerOf(e.body), (perMarker.get(markerOf(e.body)) ?? 0) + 1);
    const duplicates = [...perMarker.values()].filter((n) => n > 1).length;

    // every created task is in the library with its id and outputs, or uncertain
    let inLibrary = 0;
    const missing: string[] = [];
    for (const e of ledger) {
      const task = store.getTaskByRemoteId(e.taskId);
      if (task) {
        inLibrary += 1;
        expect(task.state).toBe('saved');
        expect(task.outputs.length).toBeGreaterThan(0);
        for (const o of task.outputs) {
          expect(o.state).toBe('saved');
          expect(existsSync(join(lib, o.path as string))).toBe(true);
        }
      } else missing.push(markerOf(e.body));
    }
    const uncertain = store.listTasks({ states: ['uncertain'], limit: 200 }).items;
    const uncertainMarkers = new Set(uncertain.map((t) => t.request.input.style_prompt as string));
    const integrity = store.integrityCheck();
    const partials = filesUnder(join(lib, '.partial')).concat(
      filesUnder(lib).filter((f) => f.endsWith('.partial') || f.endsWith('.part')),
    );
    const saved = store.countTasks({ states: ['saved'] }).total;
    const adopted = local.items.filter((t) =>
      store.events(t.id).some((e) => e.detail?.startsWith('found in the service’s task history')),
    ).length;

    console.log(
      `crash test: kills=${kills} ledger=${ledger.length} inLibrary=${inLibrary} missing=${missing.length} adopted=${adopted} ` +
        `uncertain=${uncertain.length} saved=${saved} duplicates=${duplicates} integrity=${integrity} partialFiles=${partials.length} ` +
        `killedRuns=${killedFor}ms finalRun=${finalFor}ms`,
    );
    // a created task left behind says why: its events and what the history showed
    for (const m of missing) {
      const t = uncertain.find((u) => u.request.input.style_prompt === m);
      const entry = ledger.find((e) => markerOf(e.body) === m);
      console.log(
        `created but not in the library: ${m} (remote ${entry?.taskId}, received ${entry?.receivedAt})`,
        JSON.stringify({ settlement: t?.settlement, events: t ? store.events(t.id) : null }, null, 1),
      );
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    expect(duplicates).toBe(0);
    expect(missing.length).toBeLessThanOrEqual(kills);
    for (const m of missing) expect(uncertainMarkers.has(m)).toBe(true);
    // every paid result saved: nothing the service created is left uncertain
    expect(missing).toEqual([]);
    const created = new Set(ledger.map((e) => markerOf(e.body)));
    for (const t of uncertain) {
      expect(created.has(t.request.input.style_prompt as string)).toBe(false);
      expect(t.settlement?.outcome).toBe('not-created');
      expect(t.error?.message).toMatch(/^the service never created it; nothing was billed/);
    }
    expect(saved + uncertain.length).toBe(TOTAL);
    expect(integrity).toBe('ok');
    expect(partials).toEqual([]);
  } finally {
    store.close();
  }
});
