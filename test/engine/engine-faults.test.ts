/**
 * Fault test: with the sandbox's faults on (500s, 429s, resets before and after the body,
 * malformed JSON, slow answers, failing tasks, expiring outputs) every task ends in a correct
 * state with a clear message, and no create is ever repeated.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import { openEngine, removeDir, sandbox, tempDir, waitUntil } from './engine-fixtures.ts';

let dir: string;
let sb: Sandbox;
let engine: TaskEngine;

beforeAll(async () => {
  dir = await tempDir('mts-faults-');
  sb = await sandbox({
    timeScale: 0.01,
    faults: {
      seed: 7,
      serverErrorRate: 0.12,
      rateLimitRate: 0.1,
      retryAfterSeconds: 1,
      resetBeforeBodyRate: 0.05,
      resetAfterBodyRate: 0.05,
      malformedJsonRate: 0.05,
      slowRate: 0.05,
      slowMs: 150,
      taskFailureRate: 0.1,
      earlyExpiryRate: 0.1,
      earlyExpiryMs: 0,
    },
  });
  engine = await openEngine(join(dir, 'lib'), sb, { maxActiveRemote: 6 });
});

afterAll(async () => {
  await engine?.close();
  await sb?.stop();
  await removeDir(dir);
});

const ENDS = ['saved', 'failed', 'expired', 'uncertain'];

it('ends every task correctly under faults and never repeats a create', { timeout: 120_000 }, async () => {
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) {
    ids.push(
      (
        await engine.queueTask({
          model: MODELS.audio,
          taskType: 'txt2audio',
          input: { style_prompt: `fault-${i}`, duration: 3 },
        })
      ).id,
    );
  }
  await waitUntil(
    () => ids.every((id) => ENDS.includes(engine.store.getTask(id)?.state ?? '')),
    'every task to end',
    100_000,
  );
  const tasks = ids.map((id) => engine.store.getTask(id)!);
  const counts: Record<string, number> = {};
  for (const t of tasks) {
    counts[t.state] = (counts[t.state] ?? 0) + 1;
    if (t.state !== 'saved') {
      expect(t.error?.message, `task ${t.id} (${t.state}) has a message`).toMatch(/\w{4,}/);
    }
    if (t.state === 'saved') {
      for (const o of t.outputs) expect(existsSync(join(engine.libraryDir, o.path!))).toBe(true);
    }
    if (t.state === 'expired') expect(t.outputs[0]?.url).toMatch(/^http/);
    if (t.state === 'uncertain') expect(t.error?.message).toMatch(/may or may not/);
  }
  const ledger = sb.ledger();
  const perMarker = new Map<string, number>();
  for (const e of ledger) {
    const marker = (e.body as { input: { style_prompt: string } }).input.style_prompt;
    perMarker.set(marker, (perMarker.get(marker) ?? 0) + 1);
  }
  console.log(
    `fault test: ${JSON.stringify(counts)}; ledger ${ledger.length} creates for ${ids.length} tasks`,
  );
  expect([...perMarker.values()].every((n) => n === 1)).toBe(true);
  // every billed create is either in the library under its id or its task is uncertain
  for (const e of ledger) {
    const local = engine.store.getTaskByRemoteId(e.taskId);
    if (!local) {
      const marker = (e.body as { input: { style_prompt: string } }).input.style_prompt;
      const t = tasks.find((x) => x.request.input.style_prompt === marker);
      expect(t?.state).toBe('uncertain');
    }
  }
  expect(counts.saved ?? 0).toBeGreaterThan(10);
});
