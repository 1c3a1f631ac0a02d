/** Per-key concurrency (stage and refuse) and the expiry of output URLs. */
import { describe, expect, it } from 'vitest';
import { getTask, postTask, startTestSandbox, taskIdOf, waitForEnd } from './sandbox-http.ts';

const song = {
  model: 'service/ace-step',
  task_type: 'txt2audio',
  input: { style_prompt: 'drone', duration: 1 },
};

describe('concurrency limit', () => {
  it("holds tasks over the limit as staged, then runs them as slots free ('stage')", async () => {
    const sb = await startTestSandbox({ concurrencyLimit: 2, overLimit: 'stage', timeScale: 0.05 });
    try {
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(taskIdOf(await postTask(sb, song)));
      const statuses = await Promise.all(ids.map(async (id) => (await getTask(sb, id)).json.data.status));
      expect(statuses.slice(0, 2).every((s) => s === 'pending' || s === 'processing')).toBe(true);
      expect(statuses.slice(2)).toEqual(['staged', 'staged']);
      const third = await getTask(sb, ids[2]!);
      expect(third.json.data.meta.started_at).toBe('0001-01-01T00:00:00Z');
      expect(sb.ledger()).toHaveLength(4);

      const ends = await Promise.all(ids.map((id) => waitForEnd(sb, id)));
      expect(ends.map((e) => e.json.data.status)).toEqual([
        'completed',
        'completed',
        'completed',
        'completed',
      ]);
      const started = ends.map((e) => Date.parse(e.json.data.meta.started_at));
      const ended = ends.map((e) => Date.parse(e.json.data.meta.ended_at));
      // a staged task only started once an earlier one had ended
      expect(started[2]!).toBeGreaterThanOrEqual(Math.min(ended[0]!, ended[1]!));
    } finally {
      await sb.stop();
    }
  });

  it("refuses creates over the limit with 429 and Retry-After ('refuse')", async () => {
    const sb = await startTestSandbox({ concurrencyLimit: 1, overLimit: 'refuse', timeScale: 0.05 });
    try {
      const first = await postTask(sb, song);
      expect(first.status).toBe(200);
      const refused = await postTask(sb, song);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.json).toMatchObject({ code: 429, data: null, error: { code: 429 } });
      expect(refused.json.message).toMatch(/concurrency/);
      expect(sb.ledger()).toHaveLength(1);
      await waitForEnd(sb, taskIdOf(first));
      const later = await postTask(sb, song);
      expect(later.status).toBe(200);
    } finally {
      await sb.stop();
    }
  });
});

describe('output expiry', () => {
  it('answers 410 with an error body once outputTtlMs has passed', async () => {
    const sb = await startTestSandbox({ outputTtlMs: 300 });
    try {
      const done = await waitForEnd(sb, taskIdOf(await postTask(sb, song)));
      const url = done.json.data.output.audio_url;
      const fresh = await fetch(url);
      expect(fresh.status).toBe(200);
      await fresh.arrayBuffer();
      await new Promise((r) => setTimeout(r, 350));
      const stale = await fetch(url);
      expect(stale.status).toBe(410);
      expect(((await stale.json()) as { message: string }).message).toMatch(/expired/);
      // the record still shows the URL, as the service would
      expect((await getTask(sb, done.json.data.task_id)).json.data.output.audio_url).toBe(url);
    } finally {
      await sb.stop();
    }
  });

  it('early-expiry fault: the output expires earlyExpiryMs after completion', async () => {
    const sb = await startTestSandbox({ faults: { earlyExpiryRate: 1, earlyExpiryMs: 0 } });
    try {
      const done = await waitForEnd(sb, taskIdOf(await postTask(sb, song)));
      expect(done.json.data.status).toBe('completed');
      const res = await fetch(done.json.data.output.audio_url);
      expect(res.status).toBe(410);
      await res.arrayBuffer();
    } finally {
      await sb.stop();
    }
  });

  it('outputs made on the main thread (no worker) work the same', async () => {
    const sb = await startTestSandbox({ generationWorkers: 0 });
    try {
      const done = await waitForEnd(sb, taskIdOf(await postTask(sb, song)));
      const res = await fetch(done.json.data.output.audio_url);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(44);
    } finally {
      await sb.stop();
    }
  });
});
