/** The hosted answer profile: the real service's envelope, nulls, times and error bodies, read by the app's normaliser. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import {
  defaultModelIdOf,
  entryById,
  hostedProfile,
  MODELS,
  normaliseTaskResponse,
} from '../../src/shared/index.ts';
import {
  getTask,
  pngDataUri,
  postTask,
  selfFaceSwap,
  startTestSandbox,
  startWebhookReceiver,
  until,
  waitForEnd,
} from './sandbox-http.ts';

/** `2025-06-11T11:43:31.673594+08:00`: microseconds and the +08:00 offset. */
const HOSTED_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+08:00$/;
const NO_ERROR = { code: 0, raw_message: '', message: '', detail: null };
/** The id the real service's clients send for the song model. */
const HOSTED_SONG_MODEL = defaultModelIdOf(entryById('ace-step/txt2audio')!, hostedProfile());

let sb: Sandbox;

beforeAll(async () => {
  sb = await startTestSandbox({ profile: 'hosted', concurrencyLimit: 50 });
});

afterAll(async () => {
  await sb.stop();
});

function normalised(payload: unknown) {
  const result = normaliseTaskResponse(payload);
  if (!result.ok) throw new Error(result.reason);
  return result.task;
}

/** A hosted time is the same instant as `ms`, to the millisecond. */
function expectSameInstant(text: string, ms: number, slackMs: number) {
  expect(text).toMatch(HOSTED_TIME);
  expect(Math.abs(Date.parse(text) - ms)).toBeLessThanOrEqual(slackMs);
}

describe('hosted profile: records', () => {
  it('creates and fetches a song in the envelope, with nulls until the times exist, echoing the Qubico id', async () => {
    expect(HOSTED_SONG_MODEL.startsWith('Qubico/')).toBe(true);
    const sentAt = Date.now();
    const created = await postTask(sb, {
      model: HOSTED_SONG_MODEL,
      task_type: 'txt2audio',
      input: { style_prompt: 'lofi piano', duration: 4, negative_style_prompt: 'drums' },
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.json)).toEqual(['code', 'data', 'message']);
    expect(created.json).toMatchObject({ code: 200, message: 'success' });
    const d = created.json.data;
    expect(d).toMatchObject({
      model: HOSTED_SONG_MODEL,
      task_type: 'txt2audio',
      status: 'pending',
      config: { service_mode: '', webhook_config: { endpoint: '', secret: '' } },
      input: { style_prompt: 'lofi piano', duration: 4, negative_style_prompt: 'drums' },
      output: null,
      detail: null,
      logs: null,
      error: NO_ERROR,
    });
    expect(d.meta.started_at).toBeNull();
    expect(d.meta.ended_at).toBeNull();
    expect(d.meta.usage).toEqual({ type: 'llm', frozen: 2000, consume: 0 });
    expectSameInstant(d.meta.created_at, sentAt, 2_000);
    const pending = normalised(created.json);
    expect(pending).toMatchObject({
      status: 'pending',
      startedAt: null,
      endedAt: null,
      model: HOSTED_SONG_MODEL,
    });

    const done = await waitForEnd(sb, d.task_id);
    expect(Object.keys(done.json)).toEqual(['code', 'data', 'message']);
    const f = done.json.data;
    expect(f).toMatchObject({ model: HOSTED_SONG_MODEL, status: 'completed', logs: [], error: NO_ERROR });
    expect(f.meta.usage).toEqual({ type: 'llm', frozen: 2000, consume: 2000 });
    for (const field of ['created_at', 'started_at', 'ended_at']) expect(f.meta[field]).toMatch(HOSTED_TIME);
    expect(Date.parse(f.meta.ended_at)).toBeGreaterThanOrEqual(Date.parse(f.meta.started_at));
    const task = normalised(done.json);
    expect(task.status).toBe('completed');
    expect(task.outputs[0]).toMatchObject({ kind: 'audio', field: 'output.audio_url' });
  });

  it("creates a face swap as the docs' example shows it (input {}, output null, meta {}), then fetches the full record", async () => {
    const created = await postTask(sb, selfFaceSwap(await pngDataUri(32, 32)));
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ code: 200, message: 'success' });
    expect(created.json.data).toMatchObject({
      status: 'pending',
      input: {},
      output: null,
      meta: {},
      logs: null,
    });
    const done = await waitForEnd(sb, created.json.data.task_id);
    // $0.01 in the hosted profile's points of 1e-7 USD (issue 20, item 4: the real units)
    expect(done.json.data.meta.usage).toEqual({ type: 'point', frozen: 100_000, consume: 100_000 });
    expect(typeof done.json.data.output.image_url).toBe('string');
    expect(normalised(done.json).outputs).toHaveLength(1);
  });

  it('creates a Flux picture as its docs show (status "", error code 1100 without words), read as pending, not failed', async () => {
    const created = await postTask(sb, {
      model: 'Qubico/flux1-dev',
      task_type: 'txt2img',
      input: { prompt: 'a little cat', width: 256, height: 256 },
    });
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({
      status: '',
      output: {},
      meta: {},
      error: { code: 1100, message: '' },
    });
    expect(normalised(created.json)).toMatchObject({ status: 'pending', error: null });
    const done = await waitForEnd(sb, created.json.data.task_id);
    expect(done.json.data).toMatchObject({ status: 'completed', error: NO_ERROR });
    expect(normalised(done.json).outputs.map((o) => o.kind)).toEqual(['image']);
  });

  it('creates an image edit in the envelope too (not the bare form of spec 2.7)', async () => {
    const created = await postTask(sb, {
      model: MODELS.imageEdit,
      task_type: 'image-edit',
      input: { image1: await pngDataUri(24, 24), prompt: 'make it blue' },
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.json)).toEqual(['code', 'data', 'message']);
    expect(created.json.data).toMatchObject({
      model: MODELS.imageEdit,
      task_type: 'image-edit',
      status: 'pending',
    });
    expect(created.json.data.meta.started_at).toBeNull();
    expect(normalised(created.json).status).toBe('pending');
  });

  it('sends webhooks with the hosted record as data', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const created = await postTask(sb, {
        model: HOSTED_SONG_MODEL,
        task_type: 'txt2audio',
        input: { style_prompt: 'bells', duration: 1 },
        config: { webhook_config: { endpoint: `${receiver.url}/hook`, secret: 's' } },
      });
      await until(() => receiver.received.length > 0, 5_000, 'the webhook');
      const { data } = receiver.received[0]!.body;
      expect(data).toMatchObject({ task_id: created.json.data.task_id, status: 'completed', logs: [] });
      expect(data.meta.ended_at).toMatch(HOSTED_TIME);
    } finally {
      await receiver.close();
    }
  });
});

describe('hosted profile: errors', () => {
  it('answers 400 as {code, message}, naming the field', async () => {
    const answer = await postTask(sb, {
      model: HOSTED_SONG_MODEL,
      task_type: 'txt2audio',
      input: { duration: 500 },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.json)).toEqual(['code', 'message']);
    expect(answer.json.code).toBe(400);
    expect(answer.json.message).toContain('input.');
  });

  it('answers 401 as {code: 401, message: "Invalid API key"} for a missing or wrong key', async () => {
    for (const key of [null, 'wrong']) {
      const answer = await getTask(sb, '7c9e6679-7425-40de-944b-e07fc1f90ae7', key);
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ code: 401, message: 'Invalid API key' });
    }
  });

  it('answers other statuses as {code, data: null, message}', async () => {
    const unknown = await getTask(sb, '7c9e6679-7425-40de-944b-e07fc1f90ae7');
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.json)).toEqual(['code', 'data', 'message']);
    expect(unknown.json).toMatchObject({ code: 404, data: null });
    const wrongMethod = await fetch(`${sb.url}/api/v1/task`, { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({ code: 405, data: null });
  });
});
