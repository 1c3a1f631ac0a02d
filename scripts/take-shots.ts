/**
 * `npm run shots`: the pictures a person looks at before a change to the screens is resolved.
 * Runs the README's screenshots (test/e2e/screenshots.test.ts, to test-results/screenshots/, and
 * to docs/screenshots/ with `--update`) and the look tests' pictures at 800 x 600 and
 * 1920 x 1080 in both themes (result-look, batch-look, video-3d-library: to /tmp/*-shots or their
 * *_SHOTS_DIR; library-compare: to test-results/screenshots/compare-*). `npm test` leaves them
 * out: they assert nothing and cost over a minute.
 */
import { spawnSync } from 'node:child_process';

const FILES = [
  'test/e2e/screenshots.test.ts',
  'test/e2e/result-look.test.ts',
  'test/e2e/batch-look.test.ts',
  'test/e2e/video-3d-library.test.ts',
  'test/e2e/library-compare.test.ts',
];

const env: NodeJS.ProcessEnv = { ...process.env, SHOTS: '1' };
if (process.argv.includes('--update')) env.UPDATE_SCREENSHOTS = '1';
const run = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', ...FILES], {
  stdio: 'inherit',
  env,
  shell: process.platform === 'win32',
});
process.exitCode = run.status ?? 1;
