/**
 * ServiceClient through the real sandbox service (src/sandbox): every task type end to end,
 * every error the sandbox can produce mapped to its typed error, reads retried through
 * transient faults, and creates never repeated once the service may have received them
 * (checked against the sandbox's ledger of accepted creates).
 */
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  ServiceClient,
  type ServiceClientOptions,
  UnauthorizedError,
} from '../../src/core/service/index.ts';
import { type FaultOptions, type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { type CreateTaskRequest, isTerminalStatus, MODELS, type RemoteTask } from '../../src/shared/index.ts';
import { expectNoKeyLeak, failureOf } from './key-leak.ts';

const API_KEY = 'sandbox-key-5b9e0c3a7d1f4e2b8c6a';
const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 40 };

let sandbox: Sandbox;
let pngBase64 = '';
const errors: unknown[] = [];
const clients: ServiceClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, timeScale: 0.01 });
  const png = await sharp({
    create: { width: 96, height: 96, channels: 3, background: { r: 200, g: 120, b: 80 } },
  })
    .png()
    .toBuffer();
  pngBase64 = png.toString('base64');
});

afterEach(async () => {
  sandbox.setFaults({});
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await sandbox?.stop();
  expectNoKeyLeak(errors, API_KEY);
});

function client(extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  const c = new ServiceClient({ baseUrl: sandbox.url, apiKey: API_KEY, retry: FAST_RETRY, ...extra });
  clients.push(c);
  return c;
}

/**
 * A client whose jitter source is the hook between two attempts: it clears the sandbox's faults
 * after `failures` failed attempts, so "fails N times, then succeeds" is exact, not timing luck.
 */
function clientHealingAfter(failures: number, extra: Partial<ServiceClientOptions> = {}) {
  const seen = { retries: 0 };
  const c = client({
    ...extra,
    random: () => {
      seen.retries++;
      if (seen.retries >= failures) sandbox.setFaults({});
      return 0.5;
    },
  });
  return { client: c, seen };
}

function withFaults(faults: FaultOptions): void {
  sandbox.setFaults({ seed: 7, ...faults });
}

async function untilTerminal(c: ServiceClient, id: string, timeoutMs = 15_000): Promise<RemoteTask> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await c.getTask(id);
    if (isTerminalStatus(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const audioRequest = (duration = 4): CreateTaskRequest => ({
  model: MODELS.audio,
  task_type: 'txt2audio',
  input: { style_prompt: 'calm piano', negative_prompt: 'drums', lyrics: '[inst]', duration },
});

function faceSwapRequest(): CreateTaskRequest {
  return {
    model: MODELS.imageToolkit,
    task_type: 'face-swap',
    input: { target_image: pngBase64, swap_image: pngBase64 },
  };
}

describe('every task type, created and fetched', () => {
  it('txt2audio: form A with timestamp, then an audio output', async () => {
    const c = client();
    const before = sandbox.ledger().length;
    const created = await c.createTask(audioRequest());
    expect(created.form).toBe('A');
    expect(created).toMatchObject({ model: MODELS.audio, taskType: 'txt2audio' });
    expect(isTerminalStatus(created.status)).toBe(false);
    expect(created.input).toMatchObject({ negative_style_prompt: 'drums' });
    const done = await untilTerminal(c, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs).toHaveLength(1);
    expect(done.outputs[0]).toMatchObject({ kind: 'audio', field: 'output.audio_url' });
    expect(done.outputs[0]?.url.startsWith(`${sandbox.url}/files/`)).toBe(true);
    expect(done.startedAt).not.toBeNull();
    expect(done.usage?.consume).toBe(2000);
    const entries = sandbox.ledger().slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.body).toEqual(audioRequest());
  });

  it('face-swap: form A with code, pending, no output; then an image', async () => {
    const c = client();
    const created = await c.createTask(faceSwapRequest());
    expect(created).toMatchObject({ form: 'A', status: 'pending', outputs: [], input: {}, usage: null });
    const done = await untilTerminal(c, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs[0]).toMatchObject({ kind: 'image', field: 'output.image_url' });
  });

  it('image-edit: the 2.7 create form, then image outputs', async () => {
    const c = client();
    const created = await c.createTask({
      model: MODELS.imageEdit,
      task_type: 'image-edit',
      input: { image1: pngBase64, prompt: 'make image1 blue', seed: 3, steps: 8, flow_shift: 3 },
    });
    expect(created.form).toBe('image-edit-create');
    expect(created.createdAt).not.toBeNull();
    const done = await untilTerminal(c, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs.length).toBeGreaterThanOrEqual(1);
    expect(done.outputs.every((o) => o.kind === 'image')).toBe(true);
  });

  it('txt2img: fetched in the detailed form C with works', async () => {
    const c = client();
    const created = await c.createTask({
      model: MODELS.imageGen,
      task_type: 'txt2img',
      input: { prompt: 'a red kite', width: 128, height: 128 },
    });
    const done = await untilTerminal(c, created.id);
    expect(done.form).toBe('C');
    expect(done.status).toBe('completed');
    expect(done.input).toMatchObject({ prompt: 'a red kite' });
    expect(done.outputs[0]).toMatchObject({ kind: 'image', field: 'works[0].resource.resource' });
  });

  it('txt2video: fetched in form B with a video output', async () => {
    const c = client();
    const created = await c.createTask({
      model: MODELS.video,
      task_type: 'txt2video',
      input: { prompt: 'waves', duration: 1 },
    });
    const first = await c.getTask(created.id);
    expect(first.form).toBe('B');
    const done = await untilTerminal(c, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs).toEqual([expect.objectContaining({ kind: 'video', field: 'output.video_url' })]);
  });

  it('a task that fails carries the service error', async () => {
    sandbox.setFaults({ taskFailureRate: 1 });
    const c = client();
    const created = await c.createTask(audioRequest(2));
    const done = await untilTerminal(c, created.id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe(10000);
    expect(done.error?.message.length).toBeGreaterThan(0);
  });
});

describe('errors the sandbox answers', () => {
  it('401 for a wrong key: UnauthorizedError, nothing billed, not retried', async () => {
    const before = sandbox.ledger().length;
    const c = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'wrong-key-0000', retry: FAST_RETRY });
    clients.push(c);
    const create = await failureOf(c.createTask(audioRequest()), errors);
    expect(create).toBeInstanceOf(UnauthorizedError);
    expect((create as UnauthorizedError).status).toBe(401);
    expect((create as UnauthorizedError).attempts).toBe(1);
    const get = await failureOf(c.getTask('3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90'), errors);
    expect(get).toBeInstanceOf(UnauthorizedError);
    expect(sandbox.ledger().length).toBe(before);
  });

  it('400 with the service message naming the field', async () => {
    const c = client();
    const error = await failureOf(c.createTask(audioRequest(500)), errors);
    expect(error).toBeInstanceOf(BadRequestError);
    const e = error as BadRequestError;
    expect(e.status).toBe(400);
    expect(e.serviceMessage).toMatch(/input\.duration/);
    expect(e.message).toContain(e.serviceMessage);
    expect(e.retryable).toBe(false);
  });

  it('400 for an id that is not a UUID, 404 for an unknown task', async () => {
    const c = client();
    const malformed = (await failureOf(c.getTask('not-a-uuid'), errors)) as BadRequestError;
    expect(malformed).toBeInstanceOf(BadRequestError);
    expect(malformed.serviceMessage).toMatch(/task_id/);
    const unknown = (await failureOf(
      c.getTask('00000000-0000-4000-8000-000000000000'),
      errors,
    )) as BadRequestError;
    expect(unknown).toBeInstanceOf(BadRequestError);
    expect(unknown.status).toBe(404);
  });

  it('429 with Retry-After: RateLimitedError with retryAfterMs once the attempts run out', async () => {
    withFaults({ rateLimitRate: 1, retryAfterSeconds: 0 });
    const c = client({ retry: { ...FAST_RETRY, maxAttempts: 2 } });
    const error = await failureOf(c.getTask('3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90'), errors);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(0);
    expect((error as RateLimitedError).attempts).toBe(2);
  });

  it('500: ServerError for a read after its attempts', async () => {
    withFaults({ serverErrorRate: 1 });
    const c = client({ retry: { ...FAST_RETRY, maxAttempts: 3 } });
    const error = await failureOf(c.getTask('3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90'), errors);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(500);
    expect((error as ServerError).attempts).toBe(3);
  });
});

describe('reads retried through transient faults', () => {
  let taskId = '';
  beforeAll(async () => {
    const c = new ServiceClient({ baseUrl: sandbox.url, apiKey: API_KEY });
    taskId = (await c.createTask(audioRequest(2))).id;
    await c.close();
  });

  it.each<[string, FaultOptions]>([
    ['500', { serverErrorRate: 1 }],
    ['429', { rateLimitRate: 1, retryAfterSeconds: 0 }],
    ['reset before the body', { resetBeforeBodyRate: 1 }],
    ['reset after the body', { resetAfterBodyRate: 1 }],
  ])('%s twice, then the task', async (_name, faults) => {
    withFaults({ ...faults, applyTo: 'fetch' });
    const { client: c, seen } = clientHealingAfter(2);
    const task = await c.getTask(taskId);
    expect(task.id).toBe(taskId);
    expect(seen.retries).toBe(2);
  });

  it('a reset is a NetworkError that may have reached the server', async () => {
    withFaults({ resetAfterBodyRate: 1, applyTo: 'fetch' });
    const c = client({ retry: { maxAttempts: 1 } });
    const error = await failureOf(c.getTask(taskId), errors);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveReachedServer).toBe(true);
  });

  it('malformed JSON is a ProtocolError with a short excerpt', async () => {
    withFaults({ malformedJsonRate: 1, applyTo: 'fetch' });
    const c = client();
    const error = await failureOf(c.getTask(taskId), errors);
    expect(error).toBeInstanceOf(ProtocolError);
    const e = error as ProtocolError;
    expect(e.excerpt.length).toBeGreaterThan(0);
    expect(e.excerpt.length).toBeLessThanOrEqual(200);
    expect(e.excerpt.startsWith('{')).toBe(true);
    expect(e.message).toMatch(/not JSON/);
  });
});

describe('a create is never repeated once the service may have it', () => {
  async function createFailure(faults: FaultOptions, request = audioRequest()) {
    withFaults({ ...faults, applyTo: 'create' });
    const before = sandbox.ledger().length;
    const { client: c, seen } = clientHealingAfter(1);
    const error = await failureOf(c.createTask(request), errors);
    return { error, seen, billed: sandbox.ledger().length - before };
  }

  it('reset after the body: NetworkError that may have reached it, billed exactly once', async () => {
    const { error, seen, billed } = await createFailure({ resetAfterBodyRate: 1 });
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveReachedServer).toBe(true);
    expect((error as NetworkError).message).toMatch(/may have been created/);
    expect(seen.retries).toBe(0);
    expect(billed).toBe(1);
  });

  it('500: ServerError, not retried, nothing billed', async () => {
    const { error, seen, billed } = await createFailure({ serverErrorRate: 1 });
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).attempts).toBe(1);
    expect(seen.retries).toBe(0);
    expect(billed).toBe(0);
  });

  it('malformed JSON: ProtocolError with an excerpt, not retried, billed exactly once', async () => {
    const { error, seen, billed } = await createFailure({ malformedJsonRate: 1 });
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).excerpt.length).toBeLessThanOrEqual(200);
    expect((error as ProtocolError).excerpt.length).toBeGreaterThan(0);
    expect(seen.retries).toBe(0);
    expect(billed).toBe(1);
  });

  it('reset before the body: the client cannot tell it was not read, so it does not repeat it', async () => {
    const { error, seen, billed } = await createFailure({ resetBeforeBodyRate: 1 });
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveReachedServer).toBe(true);
    expect(seen.retries).toBe(0);
    expect(billed).toBe(0);
  });

  it('429: retried after the Retry-After, billed exactly once', async () => {
    withFaults({ rateLimitRate: 1, retryAfterSeconds: 1, applyTo: 'create' });
    const before = sandbox.ledger().length;
    const { client: c, seen } = clientHealingAfter(1);
    const started = Date.now();
    const task = await c.createTask(faceSwapRequest());
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(task.status).toBe('pending');
    expect(seen.retries).toBe(1);
    const entries = sandbox.ledger().slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.taskId).toBe(task.id);
  });

  it('many creates under random faults: billed at most once each, and a success is always billed', async () => {
    withFaults({
      seed: 11,
      applyTo: 'create',
      serverErrorRate: 0.15,
      rateLimitRate: 0.15,
      retryAfterSeconds: 0,
      resetBeforeBodyRate: 0.1,
      resetAfterBodyRate: 0.1,
      malformedJsonRate: 0.1,
    });
    const c = client();
    const before = sandbox.ledger().length;
    let successes = 0;
    let failures = 0;
    for (let i = 0; i < 30; i++) {
      const request = audioRequest(1 + (i % 5));
      (request.input as Record<string, unknown>).lyrics = `[verse] take ${i}`;
      try {
        await c.createTask(request);
        successes++;
      } catch (error) {
        errors.push(error);
        failures++;
      }
    }
    const entries = sandbox.ledger().slice(before);
    const takes = entries.map((e) => (e.body as { input: { lyrics: string } }).input.lyrics);
    expect(new Set(takes).size).toBe(takes.length);
    expect(successes + failures).toBe(30);
    expect(entries.length).toBeGreaterThanOrEqual(successes);
    expect(failures).toBeGreaterThan(0);
    expect(successes).toBeGreaterThan(0);
  });
});

describe('a very short key', () => {
  it('is not scrubbed out of field names or values, so answers still parse', async () => {
    const sb = await startSandbox({ apiKey: 'sandbox-key-1', timeScale: 0.01 });
    const client = new ServiceClient({ baseUrl: sb.url, apiKey: 'sandbox-key-1' });
    try {
      const task = await client.createTask({
        model: 'service/ace-step',
        task_type: 'txt2audio',
        input: { style_prompt: 'kick drums', duration: 5 },
      });
      expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
      expect((task.input as { style_prompt: string }).style_prompt).toBe('kick drums');
    } finally {
      await client.close();
      await sb.stop();
    }
  });
});

describe("the account's task lists", () => {
  it('reads the history by family and time (a create cut before its answer listed) and the running counts', async () => {
    const c = client();
    const sentAt = Date.now();
    const song = {
      model: MODELS.audio,
      task_type: 'txt2audio',
      input: { style_prompt: 'lists', duration: 2 },
    };
    const made = await c.createTask(song);
    sandbox.setFaults({ resetAfterBodyRate: 1, applyTo: 'create' });
    await expect(c.createTask(song)).rejects.toBeInstanceOf(NetworkError);
    sandbox.setFaults({});
    const cut = sandbox.ledger().at(-1)?.taskId;
    const page = await c.history({
      page: 1,
      pageSize: 100,
      family: 'llm',
      fromMs: sentAt - 1000,
      toMs: Date.now(),
    });
    expect(page.records.map((r) => r.taskId).slice(0, 2)).toEqual([cut, made.id]);
    expect(page.records[0]).toMatchObject({ model: MODELS.audio, action: 'txt2audio' });
    expect(page.records[0]?.createdAtMs).toBeGreaterThanOrEqual(sentAt - 1000);
    expect((await c.history({ page: 1, pageSize: 10, family: 'flux' })).records).toEqual([]);
    const counts = await c.activeTasks();
    expect(Array.isArray(counts)).toBe(true);
    for (const row of counts) expect(row.staged + row.pending + row.processing).toBeGreaterThan(0);
    expect((await c.getAccount()).accountName).toBe('sandbox');
  });
});
