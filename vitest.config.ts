import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every Node process of the run (vitest's workers, and the CLI, crash-test and sandbox children
// the tests spawn, which inherit this environment) keeps its compiled code in one cache: a spawn of
// `src/cli/media-task.ts` then takes about 250 ms instead of 550 ms on this 2-core machine.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules/.cache/node-compile-cache');

/**
 * Two projects, run one after the other (unit first):
 * - `unit`: everything in test/ except the browser tests; files run in parallel, at least two at
 *   a time: vitest's default (cores - 1) is one on a 2-core machine, and a unit file waits about
 *   half its time (child processes, sandbox time, sockets): one at a time the project took 332 s
 *   of wall and 176 s of CPU, two at a time 219 s and 170 s.
 * - `e2e`: test/e2e, the built renderer in Chromium over the real backend. The renderer is
 *   built once by the global setup; files run one at a time (each starts its own browser,
 *   sandbox and backend, and the machine has 2 cores).
 * `npx vitest run --project unit` or `--project e2e` runs one of them.
 */
export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', '**/node_modules/**'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: Math.max(2, availableParallelism() - 1),
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          globalSetup: ['test/e2e/harness/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
