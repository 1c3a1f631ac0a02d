/**
 * The key goes only to the addresses it is tied to (issue 17, item 1): every request of the
 * service client that carries the key, each of its operations, is made to one of the addresses
 * the key binding lists (and the confirmation dialog names), so an endpoint added to the client
 * without the binding knowing it fails here, and the client refuses to send the key elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/core/service/index.ts';
import { keyAddressesOf } from '../../src/core/settings/index.ts';
import { type RawServer, startRawServer } from './raw-http-server.ts';

const KEY = 'bound-key-0123456789';
let server: RawServer;

beforeAll(async () => {
  server = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"code":200,"data":{},"message":"success"}');
  });
});

afterAll(async () => {
  await server?.close();
});

describe('the key binding lists every address the client sends the key to', () => {
  it('tasks, a task, the balance, the task history, the running tasks and uploads', async () => {
    const service = { baseUrl: `${server.url}/prefix`, uploadUrl: `${server.url}/files/upload` };
    const client = new ServiceClient({ ...service, apiKey: KEY, retry: { maxAttempts: 1 } });
    const bound = (keyAddressesOf(service) ?? []).map((a) => a.url);
    const calls = [
      () => client.createTask({ model: 'm', task_type: 't', input: {} }),
      () => client.getTask('a-task-id'),
      () => client.getAccount(),
      () => client.history({ page: 1, pageSize: 10, family: 'llm', fromMs: 0, toMs: 1000 }),
      () => client.activeTasks(),
      () => client.uploadFile({ fileName: 'a.png', base64: 'AAAA' }),
    ];
    try {
      for (const call of calls) await call().catch(() => undefined);
    } finally {
      await client.close();
    }
    const withKey = server.requests.filter((r) => r.headers['x-api-key'] === KEY);
    expect(withKey).toHaveLength(calls.length);
    for (const request of withKey) {
      const address = `${server.url}${request.url.split('?')[0]}`;
      const tied = bound.some((url) => address === url || address.startsWith(`${url}/`));
      expect(tied, `${request.method} ${address} is not among ${bound.join(', ')}`).toBe(true);
    }
  });
});
