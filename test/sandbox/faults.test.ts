/** Each fault kind as a client sees it, seeding, applyTo, and the ledger over HTTP. */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { FaultOptions, Sandbox } from '../../src/sandbox/index.ts';
import { getTask, KEY, postTask, startTestSandbox, taskIdOf, waitForEnd } from './sandbox-http.ts';

const song = {
  model: 'service/ace-step',
  task_type: 'txt2audio',
  input: { style_prompt: 'noise', duration: 1 },
};

async function withSandbox(faults: FaultOptions, run: (sb: Sandbox) => Promise<void>) {
  const sb = await startTestSandbox({ faults, concurrencyLimit: 100 });
  try {
    await run(sb);
  } finally {
    await sb.stop();
  }
}

async function ledgerOverHttp(sb: Sandbox) {
  const res = await fetch(`${sb.url}/_sandbox/ledger`);
  expect(res.status).toBe(200);
  return (await res.json()) as { entries: Array<{ taskId: string; body: unknown; apiKey?: string }> };
}

describe('faults', () => {
  it('resetBeforeBody: the connection drops and nothing is recorded', async () => {
    await withSandbox({ resetBeforeBodyRate: 1 }, async (sb) => {
      await expect(postTask(sb, song)).rejects.toThrow();
      expect(sb.ledger()).toHaveLength(0);
      expect((await ledgerOverHttp(sb)).entries).toHaveLength(0);
    });
  });

  it('resetAfterBody: the client sees a socket error but the task is in the ledger', async () => {
    await withSandbox({ resetAfterBodyRate: 1, applyTo: 'create' }, async (sb) => {
      await expect(postTask(sb, song)).rejects.toThrow();
      const ledger = await ledgerOverHttp(sb);
      expect(ledger.entries).toHaveLength(1);
      // over HTTP the ledger never shows the key (sb.ledger() in code has it)
      expect(ledger.entries[0]).toMatchObject({ body: song });
      expect(ledger.entries[0]).not.toHaveProperty('apiKey');
      expect(sb.ledger()[0]).toMatchObject({ apiKey: KEY, body: song });
      const done = await waitForEnd(sb, ledger.entries[0]!.taskId);
      expect(done.json.data.status).toBe('completed');
    });
  });

  it('malformedJson: a 200 whose body is not JSON, the create still accepted', async () => {
    await withSandbox({ malformedJsonRate: 1, applyTo: 'create' }, async (sb) => {
      const answer = await postTask(sb, song);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/json/);
      expect(() => JSON.parse(answer.text)).toThrow();
      expect(sb.ledger()).toHaveLength(1);
    });
  });

  it('serverError and rateLimit answer before processing', async () => {
    await withSandbox({ serverErrorRate: 1 }, async (sb) => {
      const answer = await postTask(sb, song);
      expect(answer.status).toBe(500);
      expect(answer.json).toMatchObject({ code: 500, data: null, error: { code: 500 } });
      expect(sb.ledger()).toHaveLength(0);
    });
    await withSandbox({ rateLimitRate: 1, retryAfterSeconds: 3 }, async (sb) => {
      const answer = await postTask(sb, song);
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('3');
      expect(answer.json.error.code).toBe(429);
      expect(sb.ledger()).toHaveLength(0);
    });
  });

  it('slow: the answer comes after slowMs', async () => {
    await withSandbox({ slowRate: 1, slowMs: 250 }, async (sb) => {
      const started = Date.now();
      const answer = await postTask(sb, song);
      expect(answer.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    });
  });

  it('applyTo limits faults to creates or fetches, and never touches files or the ledger', async () => {
    await withSandbox({ serverErrorRate: 1, applyTo: 'fetch' }, async (sb) => {
      const created = await postTask(sb, song);
      expect(created.status).toBe(200);
      const fetched = await getTask(sb, taskIdOf(created));
      expect(fetched.status).toBe(500);
      expect((await ledgerOverHttp(sb)).entries).toHaveLength(1);
      sb.setFaults({});
      const done = await waitForEnd(sb, taskIdOf(created));
      sb.setFaults({ serverErrorRate: 1, malformedJsonRate: 1, resetBeforeBodyRate: 1 });
      const file = await fetch(done.json.data.output.audio_url);
      expect(file.status).toBe(200);
      await file.arrayBuffer();
    });
  });

  it('is seeded: the same seed gives the same sequence of faults', async () => {
    const faults: FaultOptions = { seed: 42, serverErrorRate: 0.5, applyTo: 'fetch' };
    const sequence = async (sb: Sandbox, id: string) => {
      const out = [];
      for (let i = 0; i < 16; i++) out.push((await getTask(sb, id)).status);
      return out;
    };
    await withSandbox({}, async (sb) => {
      const id = taskIdOf(await postTask(sb, song));
      sb.setFaults(faults);
      const first = await sequence(sb, id);
      sb.setFaults(faults);
      const second = await sequence(sb, id);
      expect(second).toEqual(first);
      expect(first).toContain(500);
      expect(first).toContain(200);
      sb.setFaults({ ...faults, seed: 43 });
      expect(await sequence(sb, id)).not.toEqual(first);
    });
  });

  it('faults can be changed over HTTP at run time', async () => {
    await withSandbox({}, async (sb) => {
      const put = await request(`${sb.url}/_sandbox/faults`, {
        method: 'PUT',
        body: JSON.stringify({ serverErrorRate: 1 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(put.statusCode).toBe(200);
      expect(await put.body.json()).toEqual({ faults: { serverErrorRate: 1 } });
      expect((await postTask(sb, song)).status).toBe(500);
    });
  });
});
