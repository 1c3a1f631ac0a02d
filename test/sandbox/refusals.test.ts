/**
 * The refusals the real service makes, none of which creates or bills a task: a refusal inside an
 * HTTP 200, 403 for task types the plan does not allow, 402 when the balance cannot pay, and 429
 * over the concurrency limit; in both answer profiles.
 */
import { describe, expect, it } from 'vitest';
import type { FaultOptions, Sandbox, SandboxOptions } from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import {
  getJson,
  type JsonAnswer,
  pngDataUri,
  postTask,
  selfFaceSwap,
  startTestSandbox,
  waitForEnd,
} from './sandbox-http.ts';

const song = (duration: number) => ({
  model: MODELS.audio,
  task_type: 'txt2audio',
  input: { style_prompt: 'noise', duration },
});

async function withSandbox(options: SandboxOptions, run: (sb: Sandbox) => Promise<void>) {
  const sb = await startTestSandbox({ concurrencyLimit: 100, ...options });
  try {
    await run(sb);
  } finally {
    await sb.stop();
  }
}

async function credits(sb: Sandbox): Promise<number> {
  return (await getJson(sb, '/account/info')).json.data.credits;
}

/** Nothing was made: no task id in the answer, an empty ledger, the whole balance left. */
async function expectNothingCreated(sb: Sandbox, answer: JsonAnswer, balance = 10_000_000) {
  expect(answer.json?.data?.task_id).toBeUndefined();
  expect(answer.json?.task_id).toBeUndefined();
  expect(sb.ledger()).toHaveLength(0);
  expect(await credits(sb)).toBe(balance);
}

async function putFaults(sb: Sandbox, faults: unknown) {
  const res = await fetch(`${sb.url}/_sandbox/faults`, { method: 'PUT', body: JSON.stringify(faults) });
  return { status: res.status, json: (await res.json()) as { message?: string; faults?: FaultOptions } };
}

describe('a refusal inside an HTTP 200', () => {
  it('answers HTTP 200 with the spec error body and code 400 by default, creating nothing', async () => {
    await withSandbox({ faults: { bodyRefusalRate: 1 } }, async (sb) => {
      const answer = await postTask(sb, song(2));
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        code: 400,
        message: 'request refused (sandbox fault injection)',
        data: null,
        error: { code: 400 },
      });
      await expectNothingCreated(sb, answer);
    });
  });

  it('uses the hosted error body and the configured code and message', async () => {
    const faults: FaultOptions = {
      bodyRefusalRate: 1,
      bodyRefusalCode: 429,
      bodyRefusalMessage: 'too many tasks',
    };
    await withSandbox({ profile: 'hosted', faults }, async (sb) => {
      const answer = await postTask(sb, song(2));
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ code: 429, data: null, message: 'too many tasks' });
      await expectNothingCreated(sb, answer);
    });
  });

  it('acts on creates only: applyTo fetch turns it off; a bad request is still a 400', async () => {
    await withSandbox({ faults: { bodyRefusalRate: 1, applyTo: 'fetch' } }, async (sb) => {
      const answer = await postTask(sb, song(2));
      expect(answer.status).toBe(200);
      expect(answer.json.data.task_id).toBeDefined();
    });
    await withSandbox({ faults: { bodyRefusalRate: 1 } }, async (sb) => {
      expect((await postTask(sb, song(999))).status).toBe(400);
    });
  });

  it('is seeded: half the creates refused at rate 0.5, the same ones for the same seed', async () => {
    const pattern = async () => {
      const codes: number[] = [];
      await withSandbox({ faults: { bodyRefusalRate: 0.5, seed: 11 } }, async (sb) => {
        for (let i = 0; i < 12; i++) codes.push((await postTask(sb, song(1))).json.code ?? 200);
      });
      return codes;
    };
    const first = await pattern();
    expect(first).toContain(400);
    expect(first.some((c) => c !== 400)).toBe(true);
    expect(await pattern()).toEqual(first);
  });
});

describe('plan refusals', () => {
  it('answers 403 Insufficient plan level for a refused task type, others still accepted', async () => {
    await withSandbox({ profile: 'hosted', faults: { planRefusedTaskTypes: ['face-swap'] } }, async (sb) => {
      const refused = await postTask(sb, selfFaceSwap(await pngDataUri(16, 16)));
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ code: 403, message: 'Insufficient plan level' });
      await expectNothingCreated(sb, refused);
      expect((await postTask(sb, song(1))).status).toBe(200);
    });
  });

  it('can be set over HTTP at run time, checking the task types', async () => {
    await withSandbox({}, async (sb) => {
      const bad = await putFaults(sb, { planRefusedTaskTypes: ['no-such-type'] });
      expect(bad.status).toBe(400);
      expect(bad.json.message).toContain('planRefusedTaskTypes');
      expect((await putFaults(sb, { uploadRefused: 'yes' })).status).toBe(400);
      expect((await putFaults(sb, { bodyRefusalCode: 200 })).json.message).toContain('bodyRefusalCode');
      expect((await putFaults(sb, { planRefused: [] })).json.message).toContain("unknown key 'planRefused'");
      const set = await putFaults(sb, { planRefusedTaskTypes: ['txt2audio'] });
      expect(set.json).toEqual({ faults: { planRefusedTaskTypes: ['txt2audio'] } });
      const refused = await postTask(sb, song(1));
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ code: 403, message: 'Insufficient plan level', data: null });
      expect(sb.ledger()).toHaveLength(0);
    });
  });
});

describe('balance', () => {
  it('answers 402 insufficient credits when the balance cannot pay, and bills nothing', async () => {
    await withSandbox({ balanceMicros: 2_500 }, async (sb) => {
      const first = await postTask(sb, song(4));
      expect(first.status).toBe(200);
      const second = await postTask(sb, song(4));
      expect(second.status).toBe(402);
      expect(second.json).toMatchObject({ code: 402, data: null, error: { code: 402 } });
      expect(second.json.message).toMatch(/^insufficient credits: this task needs 2000 credits, 500 left/);
      expect(sb.ledger()).toHaveLength(1);
      await waitForEnd(sb, first.json.data.task_id);
      expect(await credits(sb)).toBe(500);
    });
    await withSandbox({ balanceMicros: 0, profile: 'hosted' }, async (sb) => {
      const answer = await postTask(sb, song(1));
      expect(answer.status).toBe(402);
      expect(Object.keys(answer.json)).toEqual(['code', 'data', 'message']);
      expect(answer.json.code).toBe(402);
      await expectNothingCreated(sb, answer, 0);
    });
  });
});

describe('concurrency refusal', () => {
  it("answers 429 with Retry-After in the hosted body with overLimit 'refuse'", async () => {
    await withSandbox(
      { profile: 'hosted', concurrencyLimit: 1, overLimit: 'refuse', timeScale: 1 },
      async (sb) => {
        expect((await postTask(sb, song(1))).status).toBe(200);
        const refused = await postTask(sb, song(1));
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(refused.json).toMatchObject({ code: 429, data: null });
        expect(refused.json.message).toContain('concurrency limit');
        expect(sb.ledger()).toHaveLength(1);
        expect(await credits(sb)).toBe(10_000_000 - 500);
      },
    );
  });
});
