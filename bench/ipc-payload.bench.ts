/**
 * What crosses the window bridge per task: the bytes of one task change (as the engine emits it
 * to `tasks.changed`) and of one list page of 50 (`tasks.list`), measured as V8's structured
 * clone (what Electron's IPC serialises), for face swaps whose two pictures come as Base64
 * (the largest a picture may be: about 12 MB of PNG each, 2047 x 2047 noise) against the same
 * face swaps with URL inputs, the baseline measured in the same run.
 *
 * Target (issue 10): at most 4 KB per change and 200 KB per page, whatever the inputs. Before
 * the inputs were stored as library files, a face swap of two 1.4 MB pictures made a 2.9 MB
 * list item and a 5.8 MB change.
 *
 * The engine has no service (offline queue): nothing is sent anywhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import sharp from 'sharp';
import { type TaskChange, TaskEngine } from '../src/main/engine/index.ts';

const PAGE = 50;
const HEAVY_TASKS = 4;
const CHANGE_LIMIT = 4 * 1024;
const PAGE_LIMIT = 200 * 1024;

async function noisePng(side: number, seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(side * side * 3);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

interface Figures {
  maxChangeBytes: number;
  pageBytes: number;
}

async function measure(
  inputs: () => Promise<{ target: string; swap: string }>,
  count: number,
): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), 'mts-bench-ipc-'));
  const engine = await TaskEngine.open({ libraryDir: join(dir, 'library'), service: null, log: () => {} });
  let maxChangeBytes = 0;
  const off = engine.onTaskChanges((batch: TaskChange[]) => {
    for (const change of batch) maxChangeBytes = Math.max(maxChangeBytes, serialize(change).length);
  });
  try {
    for (let i = 0; i < count; i++) {
      const { target, swap } = await inputs();
      await engine.queueTask({
        model: 'image-toolkit',
        taskType: 'face-swap',
        input: { target_image: target, swap_image: swap },
        title: `Face swap ${i + 1}`,
      });
    }
    await engine.idle();
    await new Promise((r) => setTimeout(r, 200)); // the change batcher's interval, and then some
    const page = engine.store.listTasks({ limit: PAGE });
    return { maxChangeBytes, pageBytes: serialize(page).length };
  } finally {
    off();
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function run(): Promise<boolean> {
  const pictures = await Promise.all([noisePng(2047, 1), noisePng(2047, 2)]);
  const [target, swap] = pictures.map((p) => p.toString('base64')) as [string, string];
  console.log(
    `inputs: two PNGs of ${kb(pictures[0]?.length ?? 0)} and ${kb(pictures[1]?.length ?? 0)}, as Base64`,
  );

  const baseline = await measure(
    async () => ({ target: 'https://example.com/target.png', swap: 'https://example.com/face.png' }),
    PAGE,
  );
  // A page of 50 with the heavy tasks in it: the rest have URL inputs (50 tasks of 25 MB each
  // would take a minute to queue and say nothing more).
  let queued = 0;
  const heavy = await measure(async () => {
    queued += 1;
    return queued <= HEAVY_TASKS
      ? { target, swap }
      : { target: 'https://example.com/target.png', swap: 'https://example.com/face.png' };
  }, PAGE);

  console.log(
    `per change: URL inputs ${kb(baseline.maxChangeBytes)}, Base64 inputs ${kb(heavy.maxChangeBytes)} ` +
      `(ratio ${(heavy.maxChangeBytes / baseline.maxChangeBytes).toFixed(2)}; target <= ${kb(CHANGE_LIMIT)})`,
  );
  console.log(
    `page of ${PAGE}: URL inputs ${kb(baseline.pageBytes)}, with ${HEAVY_TASKS} Base64 tasks ${kb(heavy.pageBytes)} ` +
      `(ratio ${(heavy.pageBytes / baseline.pageBytes).toFixed(2)}; target <= ${kb(PAGE_LIMIT)})`,
  );
  const pass =
    heavy.maxChangeBytes <= CHANGE_LIMIT && heavy.pageBytes <= PAGE_LIMIT && baseline.pageBytes <= PAGE_LIMIT;
  console.log(pass ? 'PASS' : 'FAIL');
  return pass;
}

process.exitCode = (await run()) ? 0 : 1;
