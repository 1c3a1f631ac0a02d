/**
 * Peak memory of sending a 200 MB local file inline as Base64 in a create-task request:
 * (a) naive: read the whole file, Base64 it, JSON.stringify, Buffer.from;
 * (b) streaming: encodeCreateRequestBody, consumed fully (bytes counted).
 * Each variant runs in a fresh child process (this same file, `--child <variant> <file>`), so
 * each starts clean. Peak = the child's maximum resident set size (getrusage maxRSS), which
 * also catches peaks inside synchronous steps; heap+external sampled every 5 ms is shown too.
 * A baseline child (imports only) shows what Node itself costs. Target: streaming/naive <= 0.25.
 *
 * Run: node bench/encode-request.bench.ts   (exit 0 on PASS, 1 on FAIL)
 */

import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The encoder's own file rather than the media door: the door brings the rest of the media code
// (thumbnails load sharp when first used), which is not part of what is measured.
import {
  type CreateRequestBody,
  encodeCreateRequestBody,
  encodedBodyLength,
} from '../src/core/inputs/request-body-encoding.ts';
import { runChildReport } from './child-report.ts';

const FILE_MB = 200;
const TARGET_RATIO = 0.25;
const MB = 1024 * 1024;
const VARIANTS = ['baseline', 'naive', 'streaming'] as const;
type Variant = (typeof VARIANTS)[number];

interface ChildReport {
  variant: Variant;
  bodyBytes: number;
  maxRssMb: number;
  sampledRssMb: number;
  sampledHeapExternalMb: number;
  seconds: number;
}

const request: CreateRequestBody = {
  model: 'service/ace-step',
  task_type: 'audio2audio',
  input: { style_audio: '', style_prompt: 'lo-fi piano', lyrics: '[inst]', negative_prompt: '' },
  config: { webhook_config: { endpoint: '', secret: '' } },
};

/** Samples memory every few ms (and on demand) and keeps the peaks. */
class MemorySampler {
  rss = 0;
  heapExternal = 0;
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), 5);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  sample(): void {
    const usage = process.memoryUsage();
    this.rss = Math.max(this.rss, usage.rss);
    // arrayBuffers is already part of external.
    this.heapExternal = Math.max(this.heapExternal, usage.heapUsed + usage.external);
  }
}

async function runNaive(path: string, sampler: MemorySampler): Promise<number> {
  const bytes = await readFile(path);
  sampler.sample();
  const base64 = bytes.toString('base64');
  sampler.sample();
  const json = JSON.stringify({ ...request, input: { ...request.input, style_audio: base64 } });
  sampler.sample();
  const body = Buffer.from(json);
  sampler.sample();
  return body.length;
}

async function runStreaming(path: string, sampler: MemorySampler): Promise<number> {
  let count = 0;
  let chunks = 0;
  for await (const chunk of encodeCreateRequestBody(request, { style_audio: path })) {
    count += chunk.length;
    if (++chunks % 64 === 0) sampler.sample();
  }
  return count;
}

async function runChild(variant: Variant, path: string): Promise<void> {
  const sampler = new MemorySampler();
  sampler.start();
  const started = performance.now();
  let bodyBytes = 0;
  if (variant === 'naive') bodyBytes = await runNaive(path, sampler);
  if (variant === 'streaming') bodyBytes = await runStreaming(path, sampler);
  const seconds = (performance.now() - started) / 1000;
  sampler.stop();
  const report: ChildReport = {
    variant,
    bodyBytes,
    maxRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    sampledRssMb: sampler.rss / MB,
    sampledHeapExternalMb: sampler.heapExternal / MB,
    seconds,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

async function writeTestFile(path: string): Promise<void> {
  const block = randomBytes(MB);
  const handle = await open(path, 'w');
  try {
    for (let i = 0; i < FILE_MB; i++) await handle.write(block);
  } finally {
    await handle.close();
  }
}

function spawnChild(variant: Variant, path: string): Promise<ChildReport> {
  return runChildReport<ChildReport>(fileURLToPath(import.meta.url), variant, path);
}

function printReport(report: ChildReport): void {
  const f = (n: number) => n.toFixed(1).padStart(8);
  console.log(
    `${report.variant.padEnd(10)} peak RSS ${f(report.maxRssMb)} MB | sampled RSS ${f(report.sampledRssMb)} MB | ` +
      `sampled heap+external ${f(report.sampledHeapExternalMb)} MB | ${report.seconds.toFixed(2)} s`,
  );
}

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'mts-bench-'));
  try {
    const path = join(dir, 'input.bin');
    await writeTestFile(path);
    const expectedBytes = await encodedBodyLength(request, { style_audio: path });
    console.log(`encode-request: ${FILE_MB} MB file, request body ${(expectedBytes / MB).toFixed(1)} MB`);
    const reports = new Map<Variant, ChildReport>();
    for (const variant of VARIANTS) {
      const report = await spawnChild(variant, path);
      printReport(report);
      reports.set(variant, report);
    }
    const naive = reports.get('naive')!;
    const streaming = reports.get('streaming')!;
    if (naive.bodyBytes !== expectedBytes || streaming.bodyBytes !== expectedBytes) {
      console.log(
        `FAIL: body sizes differ (naive ${naive.bodyBytes}, streaming ${streaming.bodyBytes}, expected ${expectedBytes})`,
      );
      return 1;
    }
    const base = reports.get('baseline')!.maxRssMb;
    console.log(
      `growth over the baseline: naive ${(naive.maxRssMb - base).toFixed(1)} MB, ` +
        `streaming ${(streaming.maxRssMb - base).toFixed(1)} MB`,
    );
    const ratio = streaming.maxRssMb / naive.maxRssMb;
    const pass = ratio <= TARGET_RATIO;
    console.log(
      `streaming/naive peak RSS = ${streaming.maxRssMb.toFixed(1)} / ${naive.maxRssMb.toFixed(1)} MB = ` +
        `${ratio.toFixed(3)} (target <= ${TARGET_RATIO}): ${pass ? 'PASS' : 'FAIL'}`,
    );
    return pass ? 0 : 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await runChild(process.argv[3] as Variant, process.argv[4] ?? '');
} else {
  process.exitCode = await main();
}
