/**
 * The refusals the real service makes, none of which creates or bills a task: a refusal inside an
 * HTTP 200, 403 for task types the plan does not allow, 402 when the balance cannot pay, and 429
 * over the concurrency limit; in both answer profiles.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnswerProfile,
  type FaultOptions,
  HOSTED_POINTS_PER_MICRO,
  type Sandbox,
  type SandboxOptions,
} from '../../src/sandbox/index.ts';
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

/** The sandbox's starting balance unless a test sets one: 10 USD. */
const START_MICROS = 10_000_000;

/**
 * The account's balance is `micros` micro-dollars: in dollars, and in credits of the profile's unit
 * (a point of 1 micro-USD in the spec profile, of 1e-7 USD in the hosted one).
 */
async function expectBalance(sb: Sandbox, micros: number, profile: AnswerProfile = 'spec') {
  const { data } = (await getJson(sb, '/account/info')).json;
  expect(data.equivalent_in_usd).toBe(micros / 1_000_000);
  expect(data.credits).toBe(micros * (profile === 'hosted' ? HOSTED_POINTS_PER_MICRO : 1));
}

/** Nothing was made: no task id in the answer, an empty ledger, the whole balance left. */
async function expectNothingCreated(
  sb: Sandbox,
  answer: JsonAnswer,
  profile: AnswerProfile = 'spec',
  balanceMicros = START_MICROS,
) {
  expect(answer.json?.data?.task_id).toBeUndefined();
  expect(answer.json?.task_id).toBeUndefined();
  expect(sb.ledger()).toHaveLength(0);
  await expectBalance(sb, balanceMicros, profile);
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
      await expectNothingCreated(sb, answer, 'hosted');
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
      await expectNothingCreated(sb, refused, 'hosted');
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
      await expectBalance(sb, 500);
    });
    await withSandbox({ balanceMicros: 0, profile: 'hosted' }, async (sb) => {
      const answer = await postTask(sb, song(1));
      expect(answer.status).toBe(402);
      expect(Object.keys(answer.json)).toEqual(['code', 'data', 'message']);
      expect(answer.json.code).toBe(402);
      await expectNothingCreated(sb, answer, 'hosted', 0);
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
        // the running song holds its 500 micro-dollars, however the profile counts credits
        await expectBalance(sb, START_MICROS - 500, 'hosted');
      },
    );
  });
});
