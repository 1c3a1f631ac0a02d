/**
 * ServiceClient against a raw node:http server, for the network-level cases the sandbox cannot
 * produce: refused connections, a server that never answers, Retry-After as an HTTP date,
 * answers echoing the key, streamed bodies, aborts, path prefixes and keep-alive.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  BadRequestError,
  isServiceError,
  NetworkError,
  PlanRefusedError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  ServiceClient,
  type ServiceClientOptions,
  UnauthorizedError,
} from '../../src/core/service/index.ts';
import { createSecretScrubber } from '../../src/core/service/secret-scrubber.ts';
import { networkErrorFrom } from '../../src/core/service/transport-failure.ts';
import { MODELS } from '../../src/shared/index.ts';
import { expectNoKeyLeak, failureOf } from './key-leak.ts';
import { closedPort, type RawServer, sendJson, startRawServer } from './raw-http-server.ts';
import { audioCreateFormA, faceSwapCreateFormA } from './wire-payloads.ts';

const API_KEY = 'sk-live-7f3c9a1b2d4e6f80a1b2c3d4e5f60718';
const FAST_RETRY = { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 };
const REQUEST = {
  model: MODELS.imageToolkit,
  task_type: 'face-swap',
  input: { target_image: 'https://img.example.test/a.png', swap_image: 'https://img.example.test/b.png' },
};

const errors: unknown[] = [];
const servers: RawServer[] = [];
const clients: ServiceClient[] = [];

function clientFor(baseUrl: string, extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  const client = new ServiceClient({ baseUrl, apiKey: API_KEY, retry: FAST_RETRY, ...extra });
  clients.push(client);
  return client;
}

async function serve(handler: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(handler);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(() => {
  expectNoKeyLeak(errors, API_KEY);
});

describe('configuration', () => {
  it('rejects a base URL that is not http(s), clearly', () => {
    expect(() => new ServiceClient({ baseUrl: 'ftp://127.0.0.1/api', apiKey: API_KEY })).toThrow(
      /must start with https:\/\//,
    );
    expect(() => new ServiceClient({ baseUrl: 'not a url', apiKey: API_KEY })).toThrow(/not a web address/);
  });

  it('sends the key only over https, or over http to this computer', () => {
    for (const baseUrl of ['http://api.example.com', 'http://10.0.0.5:8080', 'http://192.168.1.2']) {
      expect(() => new ServiceClient({ baseUrl, apiKey: API_KEY })).toThrow(
        /https:\/\/ \(http:\/\/ is allowed only for this computer/,
      );
    }
    expect(
      () =>
        new ServiceClient({
          baseUrl: 'https://api.example.com',
          apiKey: API_KEY,
          uploadUrl: 'http://up.example.com/x',
        }),
    ).toThrow(/upload address is refused/);
    for (const baseUrl of [
      'https://api.example.com',
      'http://127.0.0.1:1',
      'http://localhost:2',
      'http://[::1]:3',
    ]) {
      expect(() => new ServiceClient({ baseUrl, apiKey: API_KEY })).not.toThrow();
    }
  });

  it('refuses a key with a space, a non-ASCII character or the wrong length, naming the problem', () => {
    const bad: [string, RegExp][] = [
      ['abc def-secret', /space/],
      ['abcdef\u00a0secret', /space/],
      ['abcdéf-secret', /character a key cannot have/],
      ['short', /too short/],
      ['x'.repeat(501), /too long/],
    ];
    for (const [apiKey, why] of bad) {
      expect(() => new ServiceClient({ baseUrl: 'http://127.0.0.1:1', apiKey })).toThrow(why);
    }
  });

  it('rejects an empty key or one that cannot be sent, without echoing it', () => {
    expect(() => new ServiceClient({ baseUrl: 'http://127.0.0.1:1', apiKey: '' })).toThrow(/empty/);
    try {
      new ServiceClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'abc\ndef-secret' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('def-secret');
    }
  });

  it('does not show the key when the client itself is printed or serialised', () => {
    const client = clientFor('http://127.0.0.1:1');
    expect(JSON.stringify(client)).not.toContain(API_KEY);
    expect(String(Object.values(client))).not.toContain(API_KEY);
  });
});

describe('requests', () => {
  it('POSTs JSON with the key under a base URL path prefix, and reads the task', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, faceSwapCreateFormA()));
    const client = clientFor(`${server.url}/gateway/`);
    const task = await client.createTask(REQUEST);
    expect(task.id).toBe('a1b2c3d4-0000-4000-8000-000000000001');
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/gateway/api/v1/task');
    expect(req?.headers['x-api-key']).toBe(API_KEY);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req?.body ?? '')).toEqual(REQUEST);
  });

  it('encodes the task id in the path and reuses one keep-alive connection', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, audioCreateFormA()));
    const client = clientFor(server.url);
    await client.getTask('a/b c?d');
    await client.getTask('plain-id');
    expect(server.requests.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/api/v1/task/a%2Fb%20c%3Fd'],
      ['GET', '/api/v1/task/plain-id'],
    ]);
    expect(server.requests[0]?.headers['x-api-key']).toBe(API_KEY);
    expect(server.connections()).toBe(1);
  });

  it('refuses an empty task id without a request', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, audioCreateFormA()));
    const client = clientFor(server.url);
    const error = await failureOf(client.getTask(''), errors);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(0);
  });

  it('streams a body from the factory, calling it once per attempt', async () => {
    const server = await serve((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '0' })
        : sendJson(res, 200, faceSwapCreateFormA()),
    );
    const client = clientFor(server.url);
    let calls = 0;
    const text = JSON.stringify(REQUEST);
    const body = () => {
      calls++;
      return (async function* () {
        const bytes = new TextEncoder().encode(text);
        for (let i = 0; i < bytes.length; i += 16) yield bytes.subarray(i, i + 16);
      })();
    };
    const task = await client.createTask(REQUEST, { body });
    expect(task.status).toBe('pending');
    expect(calls).toBe(2);
    expect(server.requests.map((r) => r.body)).toEqual([text, text]);
  });

  it('gives back the error of a failing body source as is, without retrying', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, faceSwapCreateFormA()));
    const client = clientFor(server.url);
    const failure = new Error('could not read the input file');
    let calls = 0;
    const body = () => {
      calls++;
      return (async function* () {
        yield new TextEncoder().encode('{"model":');
        throw failure;
      })();
    };
    await expect(client.createTask(REQUEST, { body })).rejects.toBe(failure);
    expect(calls).toBe(1);
  });
});

describe('network failures', () => {
  it('retries a create on a refused connection: it never reached the server', async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`);
    const error = await failureOf(client.createTask(REQUEST), errors);
    expect(error).toBeInstanceOf(NetworkError);
    const e = error as NetworkError;
    expect(e.mayHaveReachedServer).toBe(false);
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.retryable).toBe(true);
    expect(e.attempts).toBe(3);
    expect(e.message).toMatch(/refused/);
  });

  it('does not repeat a create when the headers never come; a read is repeated', async () => {
    const server = await serve(() => {
      // read the request, never answer
    });
    const client = clientFor(server.url, { timeouts: { headersMs: 150 } });
    const createError = await failureOf(client.createTask(REQUEST), errors);
    expect(createError).toBeInstanceOf(NetworkError);
    expect((createError as NetworkError).mayHaveReachedServer).toBe(true);
    expect((createError as NetworkError).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect((createError as NetworkError).message).toMatch(/may have been created/);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    // undici's headers timer ticks by about 1 s, so keep the number of timeouts small
    const reader = clientFor(server.url, {
      timeouts: { headersMs: 150 },
      retry: { ...FAST_RETRY, maxAttempts: 2 },
    });
    const getError = await failureOf(reader.getTask('t1'), errors);
    expect(getError).toBeInstanceOf(NetworkError);
    expect((getError as NetworkError).attempts).toBe(2);
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('does not repeat a create when the connection drops after the request was received', async () => {
    const server = await serve((_req, res) => res.socket?.destroy());
    const client = clientFor(server.url);
    const error = await failureOf(client.createTask(REQUEST), errors);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveReachedServer).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['ECONNREFUSED', false],
    ['ENOTFOUND', false],
    ['EAI_AGAIN', false],
    ['UND_ERR_CONNECT_TIMEOUT', false],
    ['UND_ERR_HEADERS_TIMEOUT', true],
    ['UND_ERR_BODY_TIMEOUT', true],
  ])('classifies %s as may-have-reached %s, whatever the progress', (code, expected) => {
    const error = Object.assign(new Error(`failure ${code}`), { code });
    const context = {
      operation: 'create' as const,
      origin: 'http://127.0.0.1:1',
      scrubber: createSecretScrubber(API_KEY),
    };
    for (const sent of [false, true]) {
      const progress = { bodyBytesSent: sent ? 10 : 0, requestSent: sent, responseStarted: false };
      const networkError = networkErrorFrom(error, progress, context);
      errors.push(networkError);
      expect(networkError.mayHaveReachedServer).toBe(expected);
      expect(networkError.code).toBe(code);
    }
  });

  it('classifies a socket closed before or after the request by how far it got', () => {
    const error = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const context = {
      operation: 'create' as const,
      origin: 'http://127.0.0.1:1',
      scrubber: createSecretScrubber(API_KEY),
    };
    const before = networkErrorFrom(
      error,
      { bodyBytesSent: 0, requestSent: false, responseStarted: false },
      context,
    );
    const after = networkErrorFrom(
      error,
      { bodyBytesSent: 120, requestSent: true, responseStarted: false },
      context,
    );
    errors.push(before, after);
    expect(before.mayHaveReachedServer).toBe(false);
    expect(after.mayHaveReachedServer).toBe(true);
  });
});

describe('HTTP errors', () => {
  it('waits for a Retry-After given as an HTTP date before reading again', async () => {
    let retryAt = 0;
    const server = await serve((_req, res, i) => {
      if (i === 0) {
        retryAt = Math.ceil((Date.now() + 300) / 1000) * 1000;
        sendJson(res, 503, { message: 'maintenance' }, { 'retry-after': new Date(retryAt).toUTCString() });
      } else {
        sendJson(res, 200, audioCreateFormA());
      }
    });
    const client = clientFor(server.url);
    const task = await client.getTask('t1');
    expect(task.status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    // HTTP dates have whole seconds; allow the timer's few ms of slack
    expect(server.requests[1]?.at).toBeGreaterThanOrEqual(retryAt - 15);
  });

  it('gives a create 503 back at once as a ServerError with the wait the service asked for', async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        503,
        { message: 'maintenance' },
        { 'retry-after': new Date(Date.now() + 5000).toUTCString() },
      ),
    );
    const client = clientFor(server.url);
    const error = await failureOf(client.createTask(REQUEST), errors);
    expect(error).toBeInstanceOf(ServerError);
    const e = error as ServerError;
    expect(e.status).toBe(503);
    expect(e.serviceMessage).toBe('maintenance');
    expect(e.retryAfterMs).toBeGreaterThan(3000);
    expect(server.requests).toHaveLength(1);
  });

  it('gives back a 429 whose Retry-After is too long for one call, with retryAfterMs', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 429, { message: 'quota' }, { 'retry-after': '3600' }),
    );
    const client = clientFor(server.url);
    const error = await failureOf(client.getTask('t1'), errors);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(server.requests).toHaveLength(1);
  });

  it('maps 403 to PlanRefusedError and 404 to BadRequestError with the service message', async () => {
    const server = await serve((req, res) =>
      req.url.endsWith('/forbidden')
        ? sendJson(res, 403, { code: 403, message: 'Insufficient plan level' })
        : sendJson(res, 404, {
            code: 404,
            message: 'failed',
            data: null,
            error: { code: 1004, message: 'task not found' },
          }),
    );
    const client = clientFor(server.url);
    const forbidden = await failureOf(client.getTask('forbidden'), errors);
    expect(forbidden).toBeInstanceOf(PlanRefusedError);
    expect((forbidden as PlanRefusedError).message).toBe(
      'Your plan at the service does not allow this (HTTP 403): Insufficient plan level',
    );
    expect(server.requests).toHaveLength(1);
    const missing = await failureOf(client.getTask('nope'), errors);
    expect(missing).toBeInstanceOf(BadRequestError);
    expect((missing as BadRequestError).serviceMessage).toBe('task not found');
    expect((missing as BadRequestError).serviceCode).toBe(1004);
    expect((missing as BadRequestError).status).toBe(404);
  });

  it('falls back to the top-level message, then to a text excerpt', async () => {
    const server = await serve((req, res) => {
      if (req.url.endsWith('/top'))
        sendJson(res, 422, { code: 422, message: 'duration must be at most 240' });
      else {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`bad things ${'x'.repeat(500)}`);
      }
    });
    const client = clientFor(server.url);
    const top = (await failureOf(client.getTask('top'), errors)) as BadRequestError;
    expect(top.serviceMessage).toBe('duration must be at most 240');
    expect(top.message).toContain('duration must be at most 240');
    const text = (await failureOf(client.getTask('text'), errors)) as BadRequestError;
    expect(text.serviceMessage?.startsWith('bad things xxx')).toBe(true);
    expect(text.serviceMessage?.length).toBeLessThanOrEqual(200);
  });

  it('reports a body larger than the limit as a ProtocolError', async () => {
    const big = { ...audioCreateFormA(), padding: 'x'.repeat(5000) };
    const server = await serve((_req, res) => sendJson(res, 200, big));
    const client = clientFor(server.url, { maxResponseBytes: 1000 });
    const error = await failureOf(client.getTask('t1'), errors);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(/larger than 1000 bytes/);
  });
});

describe('the key is never echoed back', () => {
  it('scrubs the key from error bodies, excerpts and echoed payloads', async () => {
    const server = await serve((req, res) => {
      const key = String(req.headers['x-api-key']);
      if (req.url.endsWith('/bad')) {
        sendJson(res, 400, {
          message: `bad key ${key}`,
          error: { code: 7, message: `header x-api-key: ${key} is malformed` },
        });
      } else if (req.url.endsWith('/down')) {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end(`<html>upstream failed for key=${key}</html>`);
      } else if (req.url.endsWith('/garbage')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"data": {"task_id": "x", "echo": "${key}"`);
      } else if (req.url.endsWith('/shape')) {
        sendJson(res, 200, { data: { task_id: key, status: 7 } });
      } else if (req.url.endsWith('/unauthorized')) {
        sendJson(res, 401, { message: `invalid key ${encodeURIComponent(key)}` });
      } else {
        sendJson(res, 200, { ...audioCreateFormA(), echoed_key: key });
      }
    });
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const bad = (await failureOf(client.getTask('bad'), errors)) as BadRequestError;
    expect(bad.serviceMessage).toBe('header x-api-key: [redacted] is malformed');
    const down = (await failureOf(client.getTask('down'), errors)) as ServerError;
    expect(down.serviceMessage).toContain('[redacted]');
    const garbage = (await failureOf(client.getTask('garbage'), errors)) as ProtocolError;
    expect(garbage).toBeInstanceOf(ProtocolError);
    expect(garbage.excerpt).toContain('[redacted]');
    const shape = (await failureOf(client.getTask('shape'), errors)) as ProtocolError;
    expect(shape).toBeInstanceOf(ProtocolError);
    expect(shape.excerpt).toContain('[redacted]');
    const unauthorized = await failureOf(client.getTask('unauthorized'), errors);
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    const task = await client.getTask('ok');
    expect(JSON.stringify(task)).not.toContain(API_KEY);
    expectNoKeyLeak([bad, down, garbage, shape, unauthorized], API_KEY);
  });
  it('scrubs the key when the service echoes it JSON-escaped or URL-encoded inside a body it cannot read', async () => {
    // \uXXXX for every character, \/ for a slash, %XX: spellings that survive JSON.parse-free excerpts
    const unicode = [...API_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const mixed = `${API_KEY.slice(0, 5)}\\u${API_KEY.charCodeAt(5).toString(16).padStart(4, '0').toUpperCase()}${API_KEY.slice(6)}`;
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url.endsWith('/unicode')) res.end(`{"data": {"task_id": "x", "echo": "${unicode}"`);
      else if (req.url.endsWith('/mixed')) res.end(`{"broken": "${mixed}" `);
      else res.end(`not json: key=${encodeURIComponent(API_KEY).toLowerCase()}`);
    });
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const failures = [];
    for (const path of ['unicode', 'mixed', 'percent']) {
      const error = (await failureOf(client.getTask(path), errors)) as ProtocolError;
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.excerpt).toContain('[redacted]');
      failures.push(error);
    }
    expectNoKeyLeak(failures, API_KEY);
    for (const error of failures) {
      expect(error.message).not.toContain(unicode);
      expect(error.message).not.toMatch(/sk-li/);
    }
  });
});

describe('cancelling', () => {
  it('says a create cancelled while waiting for the answer may have reached the server', async () => {
    const server = await serve(() => {
      // never answer
    });
    const client = clientFor(server.url);
    const controller = new AbortController();
    const pending = client.createTask(REQUEST, { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await failureOf(pending, errors);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).mayHaveReachedServer).toBe(true);
    expect(isServiceError(error)).toBe(true);
  });

  it('says a create cancelled before it started did not reach the server', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, faceSwapCreateFormA()));
    const client = clientFor(server.url);
    const error = await failureOf(client.createTask(REQUEST, { signal: AbortSignal.abort() }), errors);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).mayHaveReachedServer).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('stops waiting between retries when cancelled', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 503, { message: 'busy' }, { 'retry-after': '30' }),
    );
    const client = clientFor(server.url, { retry: { maxAttempts: 4, maxRetryAfterMs: 60_000 } });
    const controller = new AbortController();
    const started = Date.now();
    const pending = client.getTask('t1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await failureOf(pending, errors);
    expect(error).toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.requests).toHaveLength(1);
  });
});
