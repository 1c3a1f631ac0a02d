/** Webhook delivery to a real receiver: payload, secret header, retries with backoff. */
import { describe, expect, it } from 'vitest';
import { normaliseTaskResponse, WebhookPayloadSchema } from '../../src/shared/service/index.ts';
import { postTask, startTestSandbox, startWebhookReceiver, taskIdOf, until } from './sandbox-http.ts';

function songWith(endpoint: string, secret: string) {
  return {
    model: 'service/ace-step',
    task_type: 'txt2audio',
    input: { style_prompt: 'chiptune', duration: 1 },
    config: { webhook_config: { endpoint, secret } },
  };
}

describe('webhooks', () => {
  it('POSTs {timestamp, data} with x-webhook-secret when the task completes', async () => {
    const receiver = await startWebhookReceiver();
    const sb = await startTestSandbox();
    try {
      const id = taskIdOf(await postTask(sb, songWith(`${receiver.url}/hook`, 's3cret')));
      await until(() => receiver.received.length >= 1, 5_000, 'the webhook');
      const hook = receiver.received[0]!;
      expect(hook.headers['x-webhook-secret']).toBe('s3cret');
      expect(hook.headers['content-type']).toMatch(/application\/json/);
      expect(WebhookPayloadSchema.safeParse(hook.body).success).toBe(true);
      expect(hook.body.data).toMatchObject({ task_id: id, status: 'completed' });
      const task = normaliseTaskResponse(hook.body);
      expect(task.ok && task.task.outputs[0]?.kind).toBe('audio');
      await new Promise((r) => setTimeout(r, 50));
      expect(receiver.received).toHaveLength(1);
      expect(sb.webhookDeliveries()).toEqual([
        expect.objectContaining({
          taskId: id,
          endpoint: `${receiver.url}/hook`,
          attempt: 1,
          status: 200,
          error: null,
        }),
      ]);
    } finally {
      await sb.stop();
      await receiver.close();
    }
  });

  it('retries after a 500 with doubling backoff and records every attempt', async () => {
    const receiver = await startWebhookReceiver([500, 503]);
    const sb = await startTestSandbox({
      webhookBackoffMs: 60,
      webhookAttempts: 4,
      faults: { taskFailureRate: 1 },
    });
    try {
      const id = taskIdOf(await postTask(sb, songWith(receiver.url, 'k')));
      await until(() => receiver.received.length >= 3, 5_000, 'three attempts');
      const [a, b, c] = receiver.received;
      expect(b!.at - a!.at).toBeGreaterThanOrEqual(55);
      expect(c!.at - b!.at).toBeGreaterThanOrEqual(115);
      expect(c!.body).toEqual(a!.body);
      expect(c!.body.data.status).toBe('failed');
      expect(c!.headers['x-webhook-secret']).toBe('k');
      await until(() => sb.webhookDeliveries().length >= 3, 2_000, 'recorded attempts');
      expect(sb.webhookDeliveries().map((d) => [d.taskId, d.attempt, d.status])).toEqual([
        [id, 1, 500],
        [id, 2, 503],
        [id, 3, 200],
      ]);
      expect(sb.webhookDeliveries()[0]!.error).toBe('HTTP 500');
    } finally {
      await sb.stop();
      await receiver.close();
    }
  });

  it('gives up after webhookAttempts and records network errors', async () => {
    const receiver = await startWebhookReceiver();
    const deadUrl = receiver.url;
    await receiver.close();
    const sb = await startTestSandbox({ webhookBackoffMs: 10, webhookAttempts: 3 });
    try {
      await postTask(sb, songWith(deadUrl, ''));
      await until(() => sb.webhookDeliveries().length >= 3, 5_000, 'three failed attempts');
      await new Promise((r) => setTimeout(r, 100));
      const deliveries = sb.webhookDeliveries();
      expect(deliveries).toHaveLength(3);
      expect(deliveries.every((d) => d.status === null && typeof d.error === 'string')).toBe(true);
    } finally {
      await sb.stop();
    }
  });
});
