import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every Node process of the run (vitest's workers, and the CLI, crash-test and sandbox children
// the tests spawn, which inherit this environment) keeps its compiled code in one cache: a spawn of
// `src/cli/media-task.ts` then takes about 250 ms instead of 550 ms on this 2-core machine.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules/.cache/node-compile-cache');

/**
 * Three projects, run together in one group: two files at a time (vitest's default, cores - 1, is
 * one on this 2-core machine), the browser files first (the sequencer takes projects by name),
 * each worker taking the next file as it finishes, so neither half waits for the other's last file.
 * - `unit`: everything in test/ except the browser tests and the files that replace modules,
 *   which are `unit-isolated` (see ISOLATED_UNIT_FILES; `--project 'unit*'` runs both). A unit
 *   file waits about half its time (child processes, sandbox time, sockets): one at a time the
 *   project took 332 s of wall and 176 s of CPU, two at a time 219 s and 170 s (all isolated).
 *   Both unit projects, back to back at load 7-11: 416 s of wall and 268 s of CPU before the CLI
 *   files called `main` in-process and before `isolate: false`, 265 s and 137 s after.
 * - `e2e`: test/e2e, the built renderer in Chromium over the real backend. The renderer is built
 *   once by the global setup (before any file runs); each file starts its own browser, sandbox,
 *   backend and page server on ports the system picks, in temp folders of its own, so two files
 *   share nothing but the read-only build. A browser file waits most of its time too (sandbox
 *   tasks, UI timers): one at a time `--project e2e` took 728 s of wall and 203 s of
 *   CPU, two at a time 367 s and 209 s (back to back, load 7-11).
 * All projects must keep the same `maxWorkers` to stay one group (vitest refuses otherwise).
 * `npx vitest run --project 'unit*'` or `--project e2e` runs one side.
 * Three workers were tried on 2 cores (the whole suite, others' work at load 8-19): 480 s of wall
 * against 545 s with two (load 9-14), but the browser files' own times grew by 40% and
 * engine-lineage's 1 s `expect.poll` failed; two it stays.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

/**
 * Pictures for a person to look at (the README's screenshots, the look tests' pictures at
 * 800 x 600 and 1920 x 1080 in both themes) assert nothing and cost over a minute of the suite:
 * they are taken by `npm run shots` (SHOTS=1; UPDATE_SCREENSHOTS=1 also writes docs/screenshots).
 */
const TAKING_PICTURES = process.env.SHOTS === '1' || process.env.UPDATE_SCREENSHOTS === '1';

/**
 * The unit files that replace a module for their own tests (`vi.mock`, `vi.doMock`): they run
 * isolated (project `unit-isolated`, a fresh process each, as every file did before), since a
 * module evaluated with their stand-in would stay in a shared worker for the files after them,
 * and a module another file evaluated first would not be replaced for them.
 *
 * Every other unit file runs with `isolate: false`: a worker process takes file after file and
 * keeps the modules it has evaluated (src/core, the sandbox, the test helpers), instead of a new
 * process importing them again for each of ~140 files. vitest still restores spies and mocks
 * after each file; a file must leave nothing behind (close what it opens, put back what it
 * changes: process.env, the working folder, listeners, a store's state). Measured back to back
 * on the 103 unit files under 3 s each (load 7-10): isolated 54 s and 75 s of wall, 53-55 s of
 * CPU; not isolated 35 s and 42 s of wall, 22-23 s of CPU.
 */
const REPLACES_MODULES = /\bvi\.(mock|doMock)\(/;
const ISOLATED_UNIT_FILES = readdirSync(join(import.meta.dirname, 'test'), {
  recursive: true,
  encoding: 'utf8',
})
  .filter((f) => f.endsWith('.test.ts') && !f.startsWith('e2e'))
  .filter((f) => REPLACES_MODULES.test(readFileSync(join(import.meta.dirname, 'test', f), 'utf8')))
  .map((f) => `test/${f.replaceAll('\\', '/')}`);

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', '**/node_modules/**', ...ISOLATED_UNIT_FILES],
          environment: 'node',
          pool: 'forks',
          isolate: false,
          maxWorkers: WORKERS,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: ISOLATED_UNIT_FILES,
          environment: 'node',
          pool: 'forks',
          maxWorkers: WORKERS,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: TAKING_PICTURES ? [] : ['test/e2e/screenshots.test.ts'],
          environment: 'node',
          pool: 'forks',
          globalSetup: ['test/e2e/harness/global-setup.ts'],
          // a worker takes file after file, keeping playwright, the backend, the sandbox and the
          // page bridge's bundle loaded (each file still starts its own browser and rig): 8 short
          // browser files back to back at load 8-10 took 51 s of wall and 29 s of CPU isolated,
          // 39 s and 19.5 s not
          isolate: false,
          maxWorkers: WORKERS,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
