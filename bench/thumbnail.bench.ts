/**
 * Thumbnail of a 2048 x 2048 JPEG (makeThumbnail: decode, 320 px WebP), sharp's WebAssembly build
 * (what the packaged app loads) against the native build (plain Node, tests, the CLI).
 * Each build runs in a fresh child process (this file, `--child <build> <jpeg>`): the wasm32
 * child hides the native `@img/sharp-<platform>` packages with a module resolve hook, so sharp's
 * loader falls back to `@img/sharp-wasm32` as it does in the packaged app. Per build: time to
 * load sharp, first thumbnail, median of the next runs, and peak memory (maxRSS).
 * Printed: wasm32 / native ratios. Target (a thumbnail is made once per downloaded image, off
 * the UI): wasm32 median <= 1 s.
 *
 * Run: node bench/thumbnail.bench.ts   (exit 0 on PASS, 1 on FAIL)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIDE = 2048;
const RUNS = 7;
const TARGET_WASM_MEDIAN_MS = 1000;
const BUILDS = ['native', 'wasm32'] as const;
type Build = (typeof BUILDS)[number];

interface ChildReport {
  build: Build;
  loaded: string;
  loadMs: number;
  firstMs: number;
  medianMs: number;
  maxRssMb: number;
}

/** Makes sharp's native platform packages unresolvable in this process (the packaged app has none). */
function hideNativeSharp(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (/^@img\/sharp-(?!wasm32)/.test(specifier)) {
        const error = new Error(`Cannot find module '${specifier}' (hidden by the benchmark)`);
        Object.assign(error, { code: 'MODULE_NOT_FOUND' });
        throw error;
      }
      return nextResolve(specifier, context);
    },
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** One build: loads sharp, thumbnails the JPEG RUNS + 1 times, reports times and peak memory. */
async function runChild(build: Build, jpeg: string): Promise<void> {
  if (build === 'wasm32') hideNativeSharp();
  const { imageCodecBuild, loadSharp } = await import('../src/image-codec/index.ts');
  const { makeThumbnail } = await import('../src/core/downloads/thumbnail.ts');
  const t0 = performance.now();
  await loadSharp();
  const loadMs = performance.now() - t0;
  const dir = join(jpeg, '..');
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    await makeThumbnail(dir, 'source.jpg', i);
    times.push(performance.now() - start);
  }
  const report: ChildReport = {
    build,
    loaded: await imageCodecBuild(),
    loadMs,
    firstMs: times[0] ?? Number.NaN,
    medianMs: median(times.slice(1)),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
  console.log(JSON.stringify(report));
}

/** A 2048 x 2048 JPEG of smooth gradients and noise (so it is not trivially compressible). */
async function makeSourceJpeg(path: string): Promise<void> {
  const { loadSharp } = await import('../src/image-codec/index.ts');
  const sharp = await loadSharp();
  const pixels = Buffer.alloc(SIDE * SIDE * 3);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const i = (y * SIDE + x) * 3;
      pixels[i] = (x * 255) / SIDE;
      pixels[i + 1] = (y * 255) / SIDE;
      pixels[i + 2] = ((x ^ y) * 31) & 255;
    }
  }
  const bytes = await sharp(pixels, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(path, bytes);
}

function spawnChild(build: Build, jpeg: string): ChildReport {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [self, '--child', build, jpeg], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${build} child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as ChildReport;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'thumbnail-bench-'));
  try {
    const jpeg = join(dir, 'source.jpg');
    await makeSourceJpeg(jpeg);
    const reports = BUILDS.map((build) => spawnChild(build, jpeg));
    for (const r of reports) {
      console.log(
        `${r.build.padEnd(7)} (loaded ${r.loaded}): load ${r.loadMs.toFixed(0)} ms, first ${r.firstMs.toFixed(0)} ms, ` +
          `median of ${RUNS} ${r.medianMs.toFixed(0)} ms, peak RSS ${r.maxRssMb.toFixed(0)} MB`,
      );
    }
    const [native, wasm] = reports as [ChildReport, ChildReport];
    const timeRatio = wasm.medianMs / native.medianMs;
    const memoryRatio = wasm.maxRssMb / native.maxRssMb;
    console.log(`wasm32 / native: time ${timeRatio.toFixed(2)}x, peak memory ${memoryRatio.toFixed(2)}x`);
    const pass =
      wasm.loaded === 'wasm32' && native.loaded !== 'wasm32' && wasm.medianMs <= TARGET_WASM_MEDIAN_MS;
    console.log(
      `${pass ? 'PASS' : 'FAIL'}: wasm32 median ${wasm.medianMs.toFixed(0)} ms (target <= ${TARGET_WASM_MEDIAN_MS} ms)`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) await runChild(process.argv[childAt + 1] as Build, process.argv[childAt + 2] ?? '');
else await main();
