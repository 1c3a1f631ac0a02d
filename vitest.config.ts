import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every Node process of the run (vitest's workers, and the CLI, crash-test and sandbox children
// the tests spawn, which inherit this environment) keeps its compiled code in one cache: a spawn of
// `src/cli/media-task.ts` then takes about 250 ms instead of 550 ms on this 2-core machine.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules/.cache/node-compile-cache');

/**
 * Two projects, run together in one group: two files at a time (vitest's default, cores - 1, is
 * one on this 2-core machine), the browser files first (the sequencer takes projects by name),
 * each worker taking the next file as it finishes, so neither half waits for the other's last file.
 * - `unit`: everything in test/ except the browser tests. A unit file waits about half its time
 *   (child processes, sandbox time, sockets): one at a time the project took 332 s of wall and
 *   176 s of CPU, two at a time 219 s and 170 s.
 * - `e2e`: test/e2e, the built renderer in Chromium over the real backend. The renderer is built
 *   once by the global setup (before any file runs); each file starts its own browser, sandbox,
 *   backend and page server on ports the system picks, in temp folders of its own, so two files
 *   share nothing but the read-only build. A browser file waits most of its time too (sandbox
 *   tasks, UI timers): one at a time `--project e2e` took 728 s of wall and 203 s of
 *   CPU, two at a time 367 s and 209 s (back to back, load 7-11).
 * Both projects must keep the same `maxWorkers` to stay one group (vitest refuses otherwise).
 * `npx vitest run --project unit` or `--project e2e` runs one of them.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

/**
 * Pictures for a person to look at (the README's screenshots, the look tests' pictures at
 * 800 x 600 and 1920 x 1080 in both themes) assert nothing and cost over a minute of the suite:
 * they are taken by `npm run shots` (SHOTS=1; UPDATE_SCREENSHOTS=1 also writes docs/screenshots).
 */
const TAKING_PICTURES = process.env.SHOTS === '1' || process.env.UPDATE_SCREENSHOTS === '1';

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
          maxWorkers: WORKERS,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
