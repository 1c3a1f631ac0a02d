/**
 * Peak memory of saving a 500 MB video result from the service (issue 19, item 8):
 * (a) whole: fetch the answer into memory (arrayBuffer), write it, read its MP4 facts from the bytes;
 * (b) saved: the app's own path, downloadOutput (streamed to a partial file, hashed and sniffed as
 *     it comes, renamed into the task's folder) then readVideoFacts (positional reads of the boxes).
 * The file is a real MP4 from the sandbox's writer (2 s, 160 x 96) followed by a `free` box that
 * brings it to 500 MB, served over loopback HTTP by this process. Each variant runs in a fresh
 * child process (this file, `--child <variant> <url>`); peak = the child's maximum resident set
 * size (getrusage maxRSS); a baseline child (imports only) shows what Node and the imports cost.
 * Target: the saved variant's peak above the baseline's under 100 MB; the ratio to the whole
 * variant's is printed.
 *
 * Run: node bench/video-save.bench.ts   (exit 0 on PASS, 1 on FAIL)
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDownloadAgent, downloadOutput } from '../src/core/downloads/index.ts';
import { readVideoFacts } from '../src/core/engine/saving/poster-saving.ts';
import { readMp4FactsFromBytes } from '../src/core/inputs/index.ts';
import { generateVideoMp4 } from '../src/sandbox/media/video-mp4.ts';
import { runChildReport } from './child-report.ts';

const FILE_MB = 500;
const TARGET_ABOVE_BASELINE_MB = 100;
const MB = 1024 * 1024;
const VARIANTS = ['baseline', 'whole', 'saved'] as const;
type Variant = (typeof VARIANTS)[number];

interface ChildReport {
  variant: Variant;
  bytes: number;
  seconds: number;
  maxRssMb: number;
  facts: string;
}

async function runWhole(url: string, dir: string): Promise<{ bytes: number; facts: string }> {
  const answer = await fetch(url);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  await writeFile(join(dir, 'whole.mp4'), bytes);
  const facts = await readMp4FactsFromBytes(bytes);
  return { bytes: bytes.length, facts: `${facts.width}x${facts.height} ${facts.durationSeconds}s` };
}

async function runSaved(url: string, dir: string): Promise<{ bytes: number; facts: string }> {
  const saved = await downloadOutput(url, {
    libraryDir: dir,
    taskId: 'bench-video',
    createdAt: new Date().toISOString(),
    index: 0,
    kind: 'video',
    maxBytes: 1024 * MB,
    dispatcher: createDownloadAgent({ allowLoopback: true, trustedOrigin: null }),
  });
  const facts = await readVideoFacts(join(dir, saved.path));
  return { bytes: saved.size, facts: `${facts.width}x${facts.height} ${facts.durationSeconds}s` };
}

async function runChild(variant: Variant, url: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), `video-save-${variant}-`));
  const started = performance.now();
  try {
    const result =
      variant === 'whole'
        ? await runWhole(url, dir)
        : variant === 'saved'
          ? await runSaved(url, dir)
          : { bytes: 0, facts: '' };
    const report: ChildReport = {
      variant,
      ...result,
      seconds: (performance.now() - started) / 1000,
      maxRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A playable MP4 followed by a `free` box of zeros, `FILE_MB` in all. */
async function writeVideoFile(path: string): Promise<number> {
  const video = generateVideoMp4({ prompt: 'waves rolling onto a beach', seconds: 2 });
  const freeBytes = FILE_MB * MB - video.length;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(freeBytes, 0);
  header.write('free', 4, 'latin1');
  const handle = await open(path, 'w');
  try {
    await handle.write(video);
    await handle.write(header);
    const block = Buffer.alloc(MB);
    let left = freeBytes - 8;
    while (left > 0) {
      const { bytesWritten } = await handle.write(block, 0, Math.min(MB, left));
      left -= bytesWritten;
    }
  } finally {
    await handle.close();
  }
  return (await stat(path)).size;
}

function spawnChild(variant: Variant, url: string): Promise<ChildReport> {
  return runChildReport<ChildReport>(fileURLToPath(import.meta.url), variant, url);
}

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'video-save-bench-'));
  const file = join(dir, 'result.mp4');
  const server = createServer((request, response) => {
    if (request.url !== '/result.mp4') {
      response.writeHead(404).end();
      return;
    }
    void stat(file).then((info) => {
      response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': String(info.size) });
      createReadStream(file).pipe(response);
    });
  });
  try {
    const size = await writeVideoFile(file);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/result.mp4`;
    console.log(`a ${(size / MB).toFixed(0)} MB MP4 served at ${url}`);
    const reports: Partial<Record<Variant, ChildReport>> = {};
    for (const variant of VARIANTS) {
      const report = await spawnChild(variant, url);
      reports[variant] = report;
      console.log(
        `  ${variant.padEnd(8)} peak RSS ${report.maxRssMb.toFixed(1)} MB, ${(report.bytes / MB).toFixed(0)} MB in ${report.seconds.toFixed(1)} s${report.facts ? ` (read: ${report.facts})` : ''}`,
      );
    }
    const base = reports.baseline?.maxRssMb ?? 0;
    const saved = (reports.saved?.maxRssMb ?? Number.NaN) - base;
    const whole = (reports.whole?.maxRssMb ?? Number.NaN) - base;
    console.log(
      `\nabove the baseline: saved ${saved.toFixed(1)} MB, whole ${whole.toFixed(1)} MB (ratio ${(saved / whole).toFixed(3)})`,
    );
    const ok = saved < TARGET_ABOVE_BASELINE_MB && reports.saved?.facts === reports.whole?.facts;
    console.log(
      `${ok ? 'PASS' : 'FAIL'}  saving a ${FILE_MB} MB video takes under ${TARGET_ABOVE_BASELINE_MB} MB above the baseline, reading the same facts: ${saved.toFixed(1)} MB`,
    );
    return ok ? 0 : 1;
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await runChild(process.argv[3] as Variant, process.argv[4] ?? '');
} else {
  process.exitCode = await main();
}
