/**
 * The budget against what tasks really cost: a task type with no published price is never
 * counted as $0 (the user is asked), and once the service reports a task's usage, that is what
 * counts. Real sandbox over HTTP, real library.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PriceUnknownError, type TaskEngine } from '../../src/core/engine/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import { openEngine, removeDir, sandbox, tempDir, waitForState } from './engine-fixtures.ts';

let engine: TaskEngine | null = null;
let sb: Sandbox | null = null;
let dir = '';

afterEach(async () => {
  await engine?.close();
  await sb?.stop();
  if (dir) await removeDir(dir);
  engine = null;
  sb = null;
});

const UPSCALE = { model: MODELS.imageToolkit, taskType: 'upscale', input: { image: 'https://x.test/a.png' } };

describe('the budget', () => {
  it('asks before queueing a task with no published price under a budget, and queues it on the word', async () => {
    dir = await tempDir();
    engine = await openEngine(dir, null);
    engine.setBudget(1_000_000);
    await expect(engine.queueTask(UPSCALE)).rejects.toThrow(PriceUnknownError);
    await expect(engine.queueTask(UPSCALE)).rejects.toThrow(/publishes no price for upscale/);
    expect(engine.store.countInStates(['queued'])).toBe(0);
    const queued = await engine.queueTask({ ...UPSCALE, acceptUnknownPrice: true });
    expect(queued.state).toBe('queued');
    // without a budget there is nothing to protect: it queues (the composer shows the price as unknown)
    engine.setBudget(null);
    expect((await engine.queueTask(UPSCALE)).state).toBe('queued');
  });

  it('counts what the service charged once it says, and refuses what would go over', async () => {
    sb = await sandbox({ timeScale: 0.01 });
    dir = await tempDir();
    engine = await openEngine(dir, sb);
    // a 10 s song is estimated at $0.005; the sandbox reports 5,000 points (micro-dollars)
    const song = await engine.queueTask({
      model: MODELS.audio,
      taskType: 'txt2audio',
      input: { style_prompt: 'a', duration: 10 },
    });
    const saved = await waitForState(engine, song.id, ['saved', 'failed']);
    expect(saved.usage?.consume).toBe(5_000);
    expect(engine.store.costSummary().spentMicros).toBe(5_000);
    engine.setBudget(12_000);
    const next = { model: MODELS.audio, taskType: 'txt2audio', input: { style_prompt: 'b', duration: 10 } };
    await engine.queueTask(next);
    await expect(engine.queueTask(next)).rejects.toThrow(/over your budget of \$0\.012/);
  });
});

describe('costs as billed (hosted units: a point is 1e-7 USD, an llm unit 1e-6 USD)', () => {
  it('converts each usage type, counts the same figure in the budget, and nothing for a failed task', async () => {
    sb = await sandbox({ timeScale: 0.01, profile: 'hosted' });
    dir = await tempDir();
    engine = await openEngine(dir, sb);
    const model3d = await engine.queueTask({
      model: 'Qubico/trellis',
      taskType: 'text-to-3d',
      input: { prompt: 'a wooden toy boat' },
    });
    const song = await engine.queueTask({
      model: MODELS.audio,
      taskType: 'txt2audio',
      input: { style_prompt: 'a', duration: 10 },
    });
    const saved3d = await waitForState(engine, model3d.id, ['saved', 'failed']);
    expect(saved3d.usage).toMatchObject({ type: 'point', consume: 400_000 });
    // $0.04, not $0.40: the account's credits and equivalent_in_usd say a point is 0.1 micro-dollar
    expect(saved3d.cost).toMatchObject({ micros: 40_000, flagged: false, pointValueFrom: 'account' });
    const savedSong = await waitForState(engine, song.id, ['saved', 'failed']);
    expect(savedSong.usage).toMatchObject({ type: 'llm', consume: 5_000 });
    expect(savedSong.cost).toMatchObject({ micros: 5_000, flagged: false, pointValueFrom: 'usage type' });
    expect(engine.store.costSummary().spentMicros).toBe(45_000);
  });

  it('counts nothing for a task the service failed and did not bill', async () => {
    sb = await sandbox({ timeScale: 0.01, profile: 'hosted', faults: { taskFailureRate: 1 } });
    dir = await tempDir();
    engine = await openEngine(dir, sb);
    const task = await engine.queueTask({
      model: 'Qubico/trellis',
      taskType: 'text-to-3d',
      input: { prompt: 'a wooden toy boat' },
    });
    const failed = await waitForState(engine, task.id, ['failed', 'saved']);
    expect(failed.state).toBe('failed');
    expect(failed.usage?.consume).toBe(0);
    expect(failed.cost).toMatchObject({ micros: 0 });
    expect(engine.store.costSummary().spentMicros).toBe(0);
  });
});
