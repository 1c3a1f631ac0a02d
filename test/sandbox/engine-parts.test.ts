/** The sandbox's inner parts on their own: scheduler, output cache, generation pool, ranges, timing. */
import { describe, expect, it } from 'vitest';
import { GenerationPool } from '../../src/sandbox/generation-pool.ts';
import { parseRange } from '../../src/sandbox/http-answers.ts';
import { stageDurations } from '../../src/sandbox/index.ts';
import { OutputCache } from '../../src/sandbox/output-cache.ts';
import { TaskScheduler } from '../../src/sandbox/task-scheduler.ts';

describe('TaskScheduler', () => {
  it('runs jobs in time order with one timer, and none after stop', async () => {
    const scheduler = new TaskScheduler();
    const ran: number[] = [];
    const now = Date.now();
    for (const d of [40, 10, 30, 0, 20]) scheduler.at(now + d, () => ran.push(d));
    scheduler.after(60, () => ran.push(60));
    await scheduler.sleep(50);
    expect(ran).toEqual([0, 10, 20, 30, 40]);
    scheduler.stop();
    await new Promise((r) => setTimeout(r, 30));
    expect(ran).toEqual([0, 10, 20, 30, 40]);
  });

  it('handles thousands of jobs', async () => {
    const scheduler = new TaskScheduler();
    let count = 0;
    const now = Date.now();
    for (let i = 0; i < 5000; i++) scheduler.at(now + ((i * 7919) % 30), () => count++);
    await scheduler.sleep(40);
    expect(count).toBe(5000);
    expect(scheduler.size).toBe(0);
    scheduler.stop();
  });
});

describe('OutputCache', () => {
  it('shares one copy per key, evicts regenerable bytes over budget and makes them again', async () => {
    const cache = new OutputCache(100);
    let made = 0;
    const produce = async () => {
      made++;
      return Buffer.alloc(80, 1);
    };
    await cache.acquire('a', 'audio/wav', produce, true);
    await cache.acquire('a', 'audio/wav', produce, true);
    expect(made).toBe(1);
    await cache.acquire('pinned', 'image/png', async () => Buffer.alloc(60, 2), false);
    expect(cache.heldBytes).toBe(60);
    const again = await cache.read('a');
    expect(again?.bytes).toEqual(Buffer.alloc(80, 1));
    expect(made).toBe(2);
    expect((await cache.read('pinned'))?.contentType).toBe('image/png');
    cache.release('pinned');
    expect(await cache.read('pinned')).toBeNull();
    cache.release('a');
    expect(await cache.read('a')).not.toBeNull();
    cache.release('a');
    expect(await cache.read('a')).toBeNull();
  });
});

describe('GenerationPool', () => {
  it('makes outputs on a worker thread without falling back', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const pool = new GenerationPool(1);
    try {
      const png = await pool.run({ kind: 'textImage', prompt: 'x', seed: 1, width: 32, height: 24 });
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      const wav = await pool.run({
        kind: 'song',
        params: { stylePrompt: 'x', lyrics: '', durationSeconds: 0.5 },
      });
      expect(wav.subarray(0, 4).toString()).toBe('RIFF');
      await expect(
        pool.run({ kind: 'song', params: { stylePrompt: 'x', lyrics: '', durationSeconds: -1 } }),
      ).rejects.toThrow(/durationSeconds/);
      expect(warnings.filter((w) => w.includes('generation worker'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await pool.stop();
    }
  });
});

describe('GenerationPool fallback', () => {
  it('generates on the main thread when the worker cannot start', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const pool = new GenerationPool(1, new URL('file:///nonexistent/generation-worker.ts'));
    try {
      const jobs = [1, 2, 3].map((seed) =>
        pool.run({ kind: 'textImage', prompt: 'y', seed, width: 16, height: 16 }),
      );
      const pngs = await Promise.all(jobs);
      expect(pngs.every((p) => p.subarray(1, 4).toString() === 'PNG')).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(warnings.some((w) => w.includes('generation worker unavailable'))).toBe(true);
    } finally {
      process.off('warning', onWarning);
      await pool.stop();
    }
  });
});

describe('parseRange', () => {
  it('reads single byte ranges', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-3', 10)).toEqual({ start: 0, end: 3 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-4', 10)).toEqual({ start: 6, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('invalid');
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
  });
});

describe('stageDurations', () => {
  it('scales with timeScale and audio length, with a fixed spread per task id', () => {
    const a = stageDurations('task-a', 'txt2audio', { duration: 60 }, 1);
    expect(a).toEqual(stageDurations('task-a', 'txt2audio', { duration: 60 }, 1));
    expect(a.pendingMs).toBeGreaterThanOrEqual(2700);
    expect(a.pendingMs).toBeLessThanOrEqual(3300);
    expect(a.processingMs).toBeGreaterThanOrEqual(7200);
    expect(a.processingMs).toBeLessThanOrEqual(8800);
    const fast = stageDurations('task-a', 'txt2audio', { duration: 60 }, 0.1);
    expect(fast.processingMs).toBeCloseTo(a.processingMs / 10, -1);
    const video = stageDurations('task-b', 'txt2video', {}, 1);
    expect(video.processingMs).toBeGreaterThan(13_000);
  });
});
