/**
 * Runs every benchmark in this folder (`*.bench.ts`), one child process each so that memory
 * and timing do not leak between them, and prints a summary. `npm run bench -- polling` runs
 * only the benchmarks whose name contains "polling".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const file of benches) {
  console.log(`\n=== ${file}`);
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
  results.push({ name: file, ok: child.status === 0, seconds: (Date.now() - started) / 1000 });
}
console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.seconds.toFixed(1)} s)`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
