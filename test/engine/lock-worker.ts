/**
 * Child process of the library lock test. Mode `lock`: reads commands from stdin, one a line:
 * `try AT` (wait until epoch ms AT, then take the library's lock; prints `HELD`, `BUSY …` or
 * `ERROR …`) and
 * `release` (prints `RELEASED`). Mode `engine`: opens a whole engine on the library, prints
 * `READY` (or `BUSY …`) and keeps it open until killed or stdin ends.
 * Usage: node lock-worker.ts LIBRARY lock|engine
 */
import { createInterface } from 'node:readline';
import { acquireLibraryLock, LibraryBusyError, type LibraryLock } from '../../src/core/library/index.ts';

const [libraryDir, mode] = process.argv.slice(2) as [string, string];

/** Spins until `at` so every child tries at the same moment, not when its line arrives. */
function waitUntil(at: number): void {
  while (Date.now() < at) {
    // busy wait: a timer would add a millisecond of jitter
  }
}

function tryLock(held: LibraryLock | null): LibraryLock | null {
  if (held) return held;
  try {
    const lock = acquireLibraryLock(libraryDir);
    process.stdout.write('HELD\n');
    return lock;
  } catch (err) {
    const word = err instanceof LibraryBusyError ? 'BUSY' : 'ERROR';
    process.stdout.write(`${word} ${(err as Error).message}\n`);
    return null;
  }
}

async function runLockMode(): Promise<void> {
  let held: LibraryLock | null = null;
  process.stdout.write('STARTED\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, arg] = line.trim().split(' ');
    if (command === 'try') {
      waitUntil(Number(arg));
      held = tryLock(held);
    } else if (command === 'release') {
      held?.release();
      held = null;
      process.stdout.write('RELEASED\n');
    }
  }
  held?.release();
}

async function runEngineMode(): Promise<void> {
  // imported here: the lock mode starts faster without the whole engine
  const { TaskEngine } = await import('../../src/core/engine/index.ts');
  let engine: Awaited<ReturnType<typeof TaskEngine.open>>;
  try {
    engine = await TaskEngine.open({ libraryDir, service: null });
  } catch (err) {
    if (!(err instanceof LibraryBusyError)) throw err;
    process.stdout.write(`BUSY ${err.message}\n`);
    return;
  }
  process.stdout.write('READY\n');
  for await (const _line of createInterface({ input: process.stdin })) {
    // keeps the engine open until stdin ends
  }
  await engine.close();
}

if (mode === 'engine') await runEngineMode();
else await runLockMode();
