/**
 * Error bodies in every shape the service and our sandbox use, and refusals given as the `code`
 * of an HTTP 200 answer: mapped to the right typed error, quoting the service, never the key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  mayHaveBeenProcessed,
  PlanRefusedError,
  ProtocolError,
  RateLimitedError,
  refusalCodeOf,
  ServerError,
  ServiceClient,
  UnauthorizedError,
} from '../../src/core/service/index.ts';
import { carriesTask, type HttpAnswer, readAnswer } from '../../src/core/service/response-mapping.ts';
import { createSecretScrubber } from '../../src/core/service/secret-scrubber.ts';
import { errorBody } from '../../src/sandbox/error-body.ts';
import { textsOf } from './key-leak.ts';
import { type RawServer, sendJson, startRawServer } from './raw-http-server.ts';
import { faceSwapCreateFormA } from './wire-payloads.ts';

const API_KEY = 'sk-live-error-bodies-0123456789abcdef';
const NOW = Date.parse('2025-09-01T00:00:00Z');
const context = (operation: 'create' | 'get' = 'create') => ({
  operation,
  scrubber: createSecretScrubber(API_KEY),
  nowMs: NOW,
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers, body: Buffer.from(text) };
}

function refusalOf(status: number, body: unknown, headers: Record<string, string> = {}): unknown {
  try {
    readAnswer(answer(status, body, headers), context());
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('error bodies of a non-2xx answer', () => {
  it.each([
    [
      'the real {code, message}',
      { code: 400, message: 'Invalid request parameters' },
      'Invalid request parameters',
    ],
    ['the real {code, data: null, message}', { code: 400, data: null, message: 'bad input' }, 'bad input'],
    [
      'our sandbox {code, message, data, error}',
      errorBody(400, 'input.duration: too long'),
      'input.duration: too long',
    ],
    [
      'an error object with only raw_message',
      { code: 400, message: '', error: { code: 1001, raw_message: 'raw words', message: null } },
      'raw words',
    ],
  ])('reads %s', (_name, body, quote) => {
    const error = refusalOf(400, body) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.serviceMessage).toBe(quote);
    expect(error.message).toContain(quote);
    expect(error.inBody).toBe(false);
    expect(refusalCodeOf(error)).toBe(400);
  });

  it('falls back to a text excerpt when every field is null', () => {
    const error = refusalOf(400, { code: null, message: null, data: null, error: null }) as BadRequestError;
    expect(error.serviceMessage).toContain('"code":null');
  });

  it('reads 403 as the plan, not the key, and 401 as the key', () => {
    const plan = refusalOf(403, { code: 403, message: 'Insufficient plan level' }) as PlanRefusedError;
    expect(plan).toBeInstanceOf(PlanRefusedError);
    expect(plan.kind).toBe('plan-refused');
    expect(plan.retryable).toBe(false);
    expect(plan.message).toBe(
      'Your plan at the service does not allow this (HTTP 403): Insufficient plan level',
    );
    expect(plan.serviceMessage).toBe('Insufficient plan level');
    const key = refusalOf(401, { code: 401, data: null, message: 'Unauthorized' });
    expect(key).toBeInstanceOf(UnauthorizedError);
    expect((key as Error).message).toMatch(/refused the API key \(HTTP 401\)\. Check the key in Settings\./);
  });

  it('keeps an HTTP 5xx a server failure that may have been processed', () => {
    const error = refusalOf(502, { code: 502, message: 'upstream down' });
    expect(error).toBeInstanceOf(ServerError);
    expect(mayHaveBeenProcessed(error as ServerError)).toBe(true);
  });
});

describe('refusals given as the code of an HTTP 200 answer with no task', () => {
  it.each([
    [401, UnauthorizedError],
    [403, PlanRefusedError],
    [429, RateLimitedError],
    [400, BadRequestError],
    [404, BadRequestError],
    [422, BadRequestError],
    [500, BadRequestError],
    [503, BadRequestError],
  ])('reads code %i as %o, not as an unreadable answer', (code, type) => {
    const error = refusalOf(200, { code, data: null, message: `service words ${code}` });
    expect(error).toBeInstanceOf(type);
    const refusal = error as BadRequestError;
    expect(refusal.status).toBe(200);
    expect(refusal.message).toContain(`code ${code} in an HTTP 200 answer`);
    expect(refusal.message).toContain(`service words ${code}`);
    expect(mayHaveBeenProcessed(refusal)).toBe(false);
  });

  it('keeps the code in the body on a bad request, so it can be told apart from the HTTP status', () => {
    const error = refusalOf(200, { code: 404, message: 'task not found' }) as BadRequestError;
    expect(error.inBody).toBe(true);
    expect(error.serviceCode).toBe(404);
    expect(error.serviceMessage).toBe('task not found');
    expect(refusalCodeOf(error)).toBe(404);
  });

  it('honours Retry-After on a 429 given in the body', () => {
    const error = refusalOf(
      200,
      { code: 429, message: 'slow down' },
      { 'retry-after': '7' },
    ) as RateLimitedError;
    expect(error.retryAfterMs).toBe(7000);
  });

  it('reads the task when the body carries one, whatever its code', () => {
    const payload = { ...faceSwapCreateFormA(), code: 500, message: 'failed to pre-process task runtime' };
    const task = readAnswer(answer(200, payload), context());
    expect(task.id).toBe('a1b2c3d4-0000-4000-8000-000000000001');
    const flat = readAnswer(answer(200, { code: 400, task_id: 't-1', status: 'pending' }), context());
    expect(flat.id).toBe('t-1');
  });

  it('leaves a success code, a code that is not a number, and no code to the normaliser', () => {
    for (const body of [
      { code: 200, data: null },
      { code: 0 },
      { code: '403', message: 'x' },
      { message: 'x' },
    ]) {
      const error = refusalOf(200, body) as ProtocolError;
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.reason.length).toBeGreaterThan(0);
    }
  });

  it('never quotes the key the service echoes back', () => {
    const error = refusalOf(200, { code: 403, message: `plan too low for key ${API_KEY}` });
    for (const text of textsOf(error)) expect(text).not.toContain(API_KEY);
  });

  it('knows where a task is', () => {
    expect(carriesTask({ data: { task_id: 'a' } })).toBe(true);
    expect(carriesTask({ task_id: 'a' })).toBe(true);
    expect(carriesTask({ data: { task_id: '' } })).toBe(false);
    expect(carriesTask({ data: null, task_id: null })).toBe(false);
    expect(carriesTask([{ task_id: 'a' }])).toBe(false);
  });
});

describe('the client with refusals in the body', () => {
  const servers: RawServer[] = [];
  const clients: ServiceClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function clientAnswering(handler: Parameters<typeof startRawServer>[0]) {
    const server = await startRawServer(handler);
    servers.push(server);
    const client = new ServiceClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 },
    });
    clients.push(client);
    return { server, client };
  }

  const request = {
    model: 'Qubico/image-toolkit',
    task_type: 'face-swap',
    input: { target_image: 'https://img.example.test/a.png', swap_image: 'https://img.example.test/b.png' },
  };

  it('does not send a create again after a plan refusal in a 200', async () => {
    const { server, client } = await clientAnswering((_req, res) =>
      sendJson(res, 200, { code: 403, message: 'Insufficient plan level' }),
    );
    await expect(client.createTask(request)).rejects.toBeInstanceOf(PlanRefusedError);
    expect(server.requests).toHaveLength(1);
  });

  it('sends a create again after a 429 in a 200, and reads the task then', async () => {
    const { server, client } = await clientAnswering((_req, res, index) =>
      index === 0
        ? sendJson(res, 200, { code: 429, message: 'too many' })
        : sendJson(res, 200, faceSwapCreateFormA()),
    );
    const task = await client.createTask(request);
    expect(task.status).toBe('pending');
    expect(server.requests).toHaveLength(2);
  });
});
