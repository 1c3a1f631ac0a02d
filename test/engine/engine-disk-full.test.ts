/**
 * The library's disk fills up while the engine sends queued tasks to the real sandbox. The
 * library is on an 8 MB tmpfs (this needs root and `mount`: elsewhere the test skips and says
 * why), and the engine runs in a child process, as the CLI would. A filler file takes all the
 * room but 256 KB, which another program's temporary file takes and gives back for a moment now
 * and then, so some writes get through and most do not.
 *
 * While the disk is full: no crash (the idle WAL checkpoint fails too), never more than one
 * create at the service whose answer the library has not recorded, and the engine status says
 * why nothing is sent. Once the files are deleted the engine goes on by itself and every task
 * ends saved (or, at most one, uncertain), none sent twice.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineStatus } from '../../src/core/engine/index.ts';
import type { LedgerEntry, Sandbox } from '../../src/sandbox/index.ts';
import { API_KEY, sandbox } from './engine-fixtures.ts';
import { type LineChild, startLineChild } from './line-child.ts';

/**
 * Small, yet with room for the songs and the WAL once the files are gone: the store checkpoints
 * the WAL only when writes pause, and this engine polls 8 tasks every 40 ms, so its WAL grows to
 * about 1.2 MB before it is copied into the database.
 */
const TMPFS_SIZE = '8m';
const COUNT = 8;
const SONG_SECONDS = 3;
/** How long the disk stays (nearly always) full while the engine tries to send. */
const FULL_MS = 3_000;
/** The room another program's temporary file takes and gives back. */
const ROOM_BYTES = 256 * 1024;
/** How long that room is free each time, and how long it is taken. */
const ROOM_FREE_MS = 20;
const ROOM_TAKEN_MS = 150;
const worker = join(import.meta.dirname, 'disk-full-worker.ts');

interface DumpedTask {
  id: string;
  marker: string;
  state: string;
  remoteId: string | null;
  error: string | null;
}

interface Dump {
  status: EngineStatus;
  tasks: DumpedTask[];
}

let mountDir: string | null = null;
let skipReason: string | null = null;
let sb: Sandbox | null = null;
let child: LineChild | null = null;

/** Mounts a small tmpfs on a new folder, or notes why it cannot. */
function mountSmallTmpfs(): void {
  if (process.platform !== 'linux') {
    skipReason = `no tmpfs on ${process.platform}`;
    return;
  }
  if (process.getuid?.() !== 0) {
    skipReason = 'mounting a tmpfs needs root';
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'mts-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir], { stdio: 'pipe' });
    mountDir = dir;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    skipReason = `cannot mount a tmpfs here (${stderr || (err as Error).message})`;
  }
}

beforeAll(() => {
  mountSmallTmpfs();
  if (skipReason) console.warn(`disk-full test skipped: ${skipReason}`);
});

afterAll(async () => {
  child?.process.kill('SIGKILL');
  await child?.exited;
  await sb?.stop();
  if (mountDir) {
    execFileSync('umount', [mountDir]);
    rmSync(mountDir, { recursive: true, force: true });
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `path` until the file system has no room left. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [256 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size, 0xaa);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Another program's temporary file: gives its room back for a moment, takes it again, until stopped. */
function churnRoom(path: string): { stop(): Promise<void> } {
  let running = true;
  const done = (async () => {
    while (running) {
      rmSync(path, { force: true });
      await sleep(ROOM_FREE_MS);
      fillDisk(path);
      await sleep(ROOM_TAKEN_MS);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function dumpOf(engine: LineChild): Promise<Dump> {
  engine.send('dump');
  expect(await engine.nextLine()).toBe('DUMP');
  return JSON.parse(await engine.nextLine()) as Dump;
}

/** Creates the service made whose task id no local task has recorded. */
function inDoubt(ledger: readonly LedgerEntry[], tasks: readonly DumpedTask[]): number {
  const recorded = new Set(tasks.map((t) => t.remoteId));
  return ledger.filter((e) => !recorded.has(e.taskId)).length;
}

/** Waits until the engine reports no storage problem and every task is saved or uncertain. */
async function waitForSettled(engine: LineChild, timeoutMs: number): Promise<Dump> {
  const started = Date.now();
  for (;;) {
    const dump = await dumpOf(engine);
    const done = dump.tasks.every((t) => t.state === 'saved' || t.state === 'uncertain');
    if (done && dump.status.storageProblem === null) return dump;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`tasks did not settle once the disk had room again: ${JSON.stringify(dump)}`);
    }
    await sleep(50);
  }
}

describe('a full disk under the library', () => {
  it('stops sending, says why, never crashes, and resumes when there is room', {
    timeout: 40_000,
  }, async (ctx) => {
    if (!mountDir) return ctx.skip(skipReason ?? 'no tmpfs');
    sb = await sandbox({ timeScale: 0.01 });
    const ledger = () => (sb as Sandbox).ledger();
    child = startLineChild(worker, [
      join(mountDir, 'lib'),
      sb.url,
      API_KEY,
      String(COUNT),
      String(SONG_SECONDS),
    ]);
    const engine = child;
    expect(await engine.nextLine(15_000)).toBe('QUEUED');

    const filler = join(mountDir, 'filler');
    const otherProgram = join(mountDir, 'other-program.tmp');
    fillDisk(filler);
    truncateSync(filler, statSync(filler).size - ROOM_BYTES);
    const churn = churnRoom(otherProgram);
    engine.send('go');
    let maxInDoubt = 0;
    let problem: string | null = null;
    const until = Date.now() + FULL_MS;
    while (Date.now() < until) {
      const dump = await dumpOf(engine);
      maxInDoubt = Math.max(maxInDoubt, inDoubt(ledger(), dump.tasks));
      problem ??= dump.status.storageProblem;
      await sleep(25);
    }
    await churn.stop();
    console.log(
      `disk full: ${ledger().length} create(s) sent, at most ${maxInDoubt} in doubt; status: ${problem}`,
    );
    expect(maxInDoubt).toBeLessThanOrEqual(1);
    expect(problem).toMatch(/^The library's disk is full: nothing more is sent until there is room/);

    rmSync(filler);
    rmSync(otherProgram, { force: true });
    const final = await waitForSettled(engine, 20_000);
    const uncertain = final.tasks.filter((t) => t.state === 'uncertain');
    const saved = final.tasks.filter((t) => t.state === 'saved');
    console.log(`room again: saved=${saved.length} uncertain=${uncertain.length} ledger=${ledger().length}`);
    expect(saved.length + uncertain.length).toBe(COUNT);
    expect(uncertain.length).toBeLessThanOrEqual(1);
    expect(inDoubt(ledger(), final.tasks)).toBeLessThanOrEqual(uncertain.length);
    const markers = ledger().map((e) => (e.body as { input: { style_prompt: string } }).input.style_prompt);
    expect(new Set(markers).size).toBe(markers.length);

    engine.process.stdin.end();
    expect(await engine.nextLine()).toBe('CLOSED');
    expect(await engine.exited).toEqual({ code: 0, signal: null });
    child = null;
  });
});
