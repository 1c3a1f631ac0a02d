/**
 * The library lock across real processes: six children race for it in forty rounds (half of
 * them right after the holder was SIGKILLed) and exactly one holds it each round; an engine in a
 * child that is SIGKILLed leaves no stale lock behind, and a live one refuses the next engine.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import { LibraryBusyError } from '../../src/core/library/index.ts';
import { openEngine, removeDir, tempDir } from './engine-fixtures.ts';
import { type LineChild, startLineChild } from './line-child.ts';

const worker = join(import.meta.dirname, 'lock-worker.ts');
const PROCESSES = 6;
const ROUNDS = 40;

function startChild(lib: string, mode: 'lock' | 'engine'): LineChild {
  return startLineChild(worker, [lib, mode]);
}

async function startLockChild(lib: string): Promise<LineChild> {
  const child = startChild(lib, 'lock');
  expect(await child.nextLine()).toBe('STARTED');
  return child;
}

async function kill(child: LineChild): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

let dir: string;
let children: LineChild[];
let engine: TaskEngine | null;

beforeEach(async () => {
  dir = await tempDir('mts-lock-');
  children = [];
  engine = null;
});

afterEach(async () => {
  await Promise.all(children.map(kill));
  await engine?.close();
  await removeDir(dir);
});

const REFUSAL = /^BUSY the library .* is already open in another process/;

/**
 * One round: every child tries at the same moment. Returns the indexes of those that got the
 * lock, and the replies that are neither the lock nor the refusal.
 */
async function raceOnce(): Promise<{ holders: number[]; odd: string[] }> {
  const at = Date.now() + 30;
  for (const child of children) child.send(`try ${at}`);
  const replies = await Promise.all(children.map((c) => c.nextLine()));
  return {
    holders: replies.flatMap((reply, i) => (reply === 'HELD' ? [i] : [])),
    odd: replies.filter((reply) => reply !== 'HELD' && !REFUSAL.test(reply)),
  };
}

describe('library lock', () => {
  it(`gives the lock to exactly one of ${PROCESSES} processes, ${ROUNDS} rounds, holders killed or released`, {
    timeout: 60_000,
  }, async () => {
    const lib = join(dir, 'lib');
    mkdirSync(lib, { recursive: true });
    children = await Promise.all(Array.from({ length: PROCESSES }, () => startLockChild(lib)));
    const started = Date.now();
    const holdersPerRound: number[] = [];
    const oddReplies: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { holders, odd } = await raceOnce();
      holdersPerRound.push(holders.length);
      oddReplies.push(...odd);
      for (const i of holders) {
        const holder = children[i] as LineChild;
        if (round % 2 === 1) {
          // a crash: the next round starts with a lock whose holder died without releasing it
          await kill(holder);
          children[i] = await startLockChild(lib);
        } else {
          holder.send('release');
          expect(await holder.nextLine()).toBe('RELEASED');
        }
      }
    }
    console.log(`library lock race: ${ROUNDS} rounds of ${PROCESSES} in ${Date.now() - started} ms`);
    expect(holdersPerRound).toEqual(Array.from({ length: ROUNDS }, () => 1));
    expect(oddReplies).toEqual([]);
  });

  it('refuses an engine while another process has the library, and frees it when that process is SIGKILLed', async () => {
    const lib = join(dir, 'lib');
    const holder = startChild(lib, 'engine');
    children.push(holder);
    expect(await holder.nextLine()).toBe('READY');

    const refused = await openEngine(lib, null).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(LibraryBusyError);
    expect((refused as LibraryBusyError).message).toBe(
      `the library ${lib} is already open in another process (pid ${holder.process.pid}); close it first`,
    );

    await kill(holder);
    engine = await openEngine(lib, null);
    expect(engine.store.countTasks({}).total).toBe(0);

    const second = startChild(lib, 'engine');
    children.push(second);
    expect(await second.nextLine()).toBe(
      `BUSY the library ${lib} is already open in another process (pid ${process.pid}); close it first`,
    );
    await second.exited;
  });
});
