/**
 * The cap on a draft's input in main: a 100 MB "Other" input sent through the real IPC handler
 * (`backend.handle('tasks.queue')`) is refused at the contract with a message naming its size
 * and the cap, nothing is queued or sent; the engine refuses it too when called directly (the
 * command line); media fields holding Base64 are not counted. Real backend, engine and sandbox.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskEngine } from '../../src/core/engine/index.ts';
import type { Task } from '../../src/shared/index.ts';
import { type Harness, openBackend, removeDir, tempDir, waitUntil } from './backend-fixtures.ts';

let dir: string;
let h: Harness;

beforeAll(async () => {
  dir = await tempDir('mts-draft-size-');
  h = await openBackend(dir);
});

afterAll(async () => {
  await h?.backend.close();
  await removeDir(dir);
});

const other = (input: Record<string, unknown>, taskType = 'txt2img') => ({
  model: taskType === 'upscale' ? 'image-toolkit' : 'image-gen',
  taskType,
  input,
});

describe('the input size cap at the IPC boundary', () => {
  it('refuses 100 MB of JSON input with the size and the cap, queueing nothing', async () => {
    const before = (await h.ok<{ total: number }>('tasks.count', {})).total;
    const result = await h.call('tasks.queue', other({ prompt: 'a castle', notes: 'x'.repeat(100_000_000) }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'invalid-input', field: 'input' });
    expect(result.error.message).toMatch(
      /^input: is 100 MB of JSON text \(100,000,0\d\d bytes\); the limit is 1 MB \(1,000,000 bytes\), media fields not counted$/,
    );
    expect((await h.ok<{ total: number }>('tasks.count', {})).total).toBe(before);
  });

  it('refuses just over the cap, in nested values too, and accepts just under', async () => {
    const over = await h.call(
      'tasks.queue',
      other({ prompt: 'a castle', extra: { list: ['y'.repeat(1_000_001)] } }),
    );
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error.message).toMatch(/^input: is 1 MB of JSON text \(1,000,0\d\d bytes\)/);
    const under = await h.call('tasks.queue', other({ prompt: 'a castle', notes: 'z'.repeat(999_000) }));
    expect(under.ok, JSON.stringify(under).slice(0, 300)).toBe(true);
  });

  it('does not count a media field holding Base64: a 1.5 MB picture queues and is saved', async () => {
    const noise = randomBytes(700 * 700 * 3);
    const png = await sharp(noise, { raw: { width: 700, height: 700, channels: 3 } })
      .png()
      .toBuffer();
    const base64 = png.toString('base64');
    expect(base64.length).toBeGreaterThan(1_000_000);
    const task = await h.ok<Task>('tasks.queue', other({ image: base64, scale: 2 }, 'upscale'));
    const saved = await waitUntil(
      async () => {
        const t = await h.ok<Task | null>('tasks.get', { id: task.id });
        return t && ['saved', 'failed'].includes(t.state) ? t : null;
      },
      'the task to end',
      30_000,
    );
    expect(saved.state).toBe('saved');
  });
});

describe('the input size cap in the engine (the command line queues through it)', () => {
  it('refuses an input over the cap with the same words', async () => {
    const engine = await TaskEngine.open({ libraryDir: join(dir, 'cli-library'), service: null });
    try {
      await expect(
        engine.queueTask(other({ prompt: 'a castle', notes: 'x'.repeat(2_000_000) })),
      ).rejects.toThrow(/^input: is 2 MB of JSON text \(2,000,032 bytes\); the limit is 1 MB/);
      expect(engine.store.countInStates(['queued'])).toBe(0);
    } finally {
      await engine.close();
    }
  });
});
