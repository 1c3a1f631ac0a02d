/** A thousand tasks in flight and a burst of fetches over keep-alive connections: every answer is right. */
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { KEY, postTask, startTestSandbox, taskIdOf } from './sandbox-http.ts';

describe('throughput', () => {
  it('answers fetches quickly with 1,000 tasks in flight', async () => {
    // timeScale 1: every task stays pending/processing for the whole test
    const sb = await startTestSandbox({ timeScale: 1, concurrencyLimit: 2_000 });
    const agent = new Agent({ connections: 16, pipelining: 1 });
    try {
      const ids: string[] = [];
      const body = { model: 'service/image-gen', task_type: 'txt2img', input: { prompt: 'p' } };
      for (let batch = 0; batch < 10; batch++) {
        const created = await Promise.all(Array.from({ length: 100 }, () => postTask(sb, body)));
        ids.push(...created.map(taskIdOf));
      }
      expect(new Set(ids).size).toBe(1_000);
      const total = 3_000;
      let next = 0;
      let ok = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < total) {
            const id = ids[next++ % ids.length]!;
            const res = await request(`${sb.url}/api/v1/task/${id}`, {
              dispatcher: agent,
              headers: { 'x-api-key': KEY },
            });
            const json = (await res.body.json()) as { data: { task_id: string } };
            if (res.statusCode === 200 && json.data.task_id === id) ok++;
          }
        }),
      );
      expect(ok).toBe(total);
      // speed is measured by bench/sandbox-throughput.bench.ts, not here
    } finally {
      await agent.close();
      await sb.stop();
    }
  });
});
