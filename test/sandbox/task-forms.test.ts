/** Every create and fetch form, through the shared schemas and normaliser, and each lifecycle to its output. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import {
  FormASchema,
  FormBSchema,
  FormCSchema,
  ImageEditCreateSchema,
  normaliseTaskResponse,
  WebhookPayloadSchema,
} from '../../src/shared/index.ts';
import { readWavInfo } from '../support/wav-info.ts';
import {
  getTask,
  pngBytes,
  pngDataUri,
  postTask,
  startFileServer,
  startTestSandbox,
  type TestServer,
  taskIdOf,
  waitForEnd,
  wavBytes,
} from './sandbox-http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OFFSET_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

let sb: Sandbox;
let images: TestServer;

beforeAll(async () => {
  sb = await startTestSandbox({ concurrencyLimit: 50 });
  images = await startFileServer({
    '/face.jpg': { type: 'image/png', body: await pngBytes(80, 60, [10, 200, 30]) },
    '/scene.png': { type: 'image/png', body: await pngBytes(120, 90, [30, 30, 220]) },
  });
});

afterAll(async () => {
  await sb.stop();
  await images.close();
});

function normalised(payload: unknown) {
  const result = normaliseTaskResponse(payload);
  if (!result.ok) throw new Error(result.reason);
  return result.task;
}

async function download(url: string) {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
    bytes,
  };
}

describe('ace-step txt2audio', () => {
  it('creates in form A with timestamp and a fully filled data object', async () => {
    const before = Math.floor(Date.now() / 1000);
    const created = await postTask(sb, {
      model: 'service/ace-step',
      task_type: 'txt2audio',
      input: {
        style_prompt: 'lofi piano',
        lyrics: '[verse]\nhello\n[chorus]\nla la',
        duration: 7,
        negative_prompt: 'drums',
      },
      config: { webhook_config: { endpoint: '', secret: '' } },
    });
    expect(created.status).toBe(200);
    expect(FormASchema.safeParse(created.json).success).toBe(true);
    const body = created.json;
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.code).toBeUndefined();
    const d = body.data;
    expect(d.task_id).toMatch(UUID);
    expect(d).toMatchObject({
      model: 'service/ace-step',
      task_type: 'txt2audio',
      status: 'pending',
      config: { service_mode: '', webhook_config: { endpoint: '', secret: '' } },
      input: {
        style_prompt: 'lofi piano',
        lyrics: '[verse]\nhello\n[chorus]\nla la',
        duration: 7,
        negative_style_prompt: 'drums',
        style_audio: '',
      },
      output: null,
      detail: null,
      logs: [],
      error: { code: 0, raw_message: '', message: '', detail: null },
    });
    expect(d.meta.created_at).toMatch(OFFSET_TIME);
    expect(d.meta.started_at).toBe('0001-01-01T00:00:00Z');
    expect(d.meta.ended_at).toBe('0001-01-01T00:00:00Z');
    expect(d.meta.usage).toEqual({ type: 'point', frozen: 3500, consume: 0 });
    expect(d.meta.is_using_private_pool).toBe(false);
    const task = normalised(body);
    expect(task.form).toBe('A');
    expect(task.status).toBe('pending');
    expect(task.startedAt).toBeNull();

    const done = await waitForEnd(sb, d.task_id);
    expect(done.json.code).toBe(200);
    expect(done.json.message).toBe('success');
    expect(typeof done.json.timestamp).toBe('number');
    const fetched = normalised(done.json);
    expect(fetched.form).toBe('A');
    expect(fetched.status).toBe('completed');
    expect(fetched.usage).toEqual({ type: 'point', frozen: 3500, consume: 3500 });
    expect(Date.parse(fetched.startedAt!)).toBeGreaterThanOrEqual(Date.parse(fetched.createdAt!));
    expect(Date.parse(fetched.endedAt!)).toBeGreaterThanOrEqual(Date.parse(fetched.startedAt!));
    expect(fetched.outputs).toHaveLength(1);
    expect(fetched.outputs[0]).toMatchObject({ kind: 'audio', field: 'output.audio_url' });

    const file = await download(done.json.data.output.audio_url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('audio/wav');
    expect(Number(file.length)).toBe(file.bytes.length);
    const info = readWavInfo(file.bytes);
    expect(info.durationSeconds).toBe(7);
  });

  it('serves audio2audio, edit and extend with WAV outputs of the expected length', async () => {
    const audio = wavBytes(2).toString('base64');
    const cases = [
      {
        task_type: 'audio2audio',
        input: { style_audio: audio, style_prompt: 'jazz', duration: 3 },
        seconds: 3,
      },
      { task_type: 'edit', input: { audio, edit_style_prompt: 'rock', duration: 2 }, seconds: 2 },
      {
        task_type: 'extend',
        input: { audio, duration: 2, left_extend_duration: 1, right_extend_duration: 1.5 },
        seconds: 4.5,
      },
    ];
    const ids = [];
    for (const c of cases) {
      const created = await postTask(sb, {
        model: 'service/ace-step',
        task_type: c.task_type,
        input: c.input,
      });
      expect(created.status, created.text).toBe(200);
      ids.push(taskIdOf(created));
    }
    for (const [i, id] of ids.entries()) {
      const done = await waitForEnd(sb, id);
      expect(normalised(done.json).status).toBe('completed');
      const file = await download(done.json.data.output.audio_url);
      expect(file.type).toBe('audio/wav');
      expect(readWavInfo(file.bytes).durationSeconds).toBeCloseTo(cases[i]!.seconds, 3);
    }
  });
});

describe('image-toolkit', () => {
  it('creates face-swap in form A with code and message, empty input and meta, then fetches the full record', async () => {
    const created = await postTask(sb, {
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      input: { target_image: `${images.url}/scene.png`, swap_image: await pngDataUri(40, 40) },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({ code: 200, message: 'success' });
    expect(created.json.timestamp).toBeUndefined();
    expect(created.json.data).toMatchObject({ status: 'pending', output: null, meta: {}, input: {} });
    expect(Object.keys(created.json.data.meta)).toHaveLength(0);
    expect(normalised(created.json).form).toBe('A');

    const done = await waitForEnd(sb, taskIdOf(created));
    expect(done.json).toMatchObject({ code: 200, message: 'success' });
    expect(done.json.data.input.target_image).toBe(`${images.url}/scene.png`);
    expect(done.json.data.meta.usage).toEqual({ type: 'point', frozen: 10_000, consume: 10_000 });
    const task = normalised(done.json);
    expect(task.outputs.map((o) => o.field)).toEqual(['output.image_url']);
    const file = await download(done.json.data.output.image_url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/png');
    expect(file.bytes.subarray(1, 4).toString()).toBe('PNG');
  });

  it('serves multi-face-swap, background-remove, segment and upscale with PNG outputs', async () => {
    const image = await pngDataUri(50, 40);
    const cases = [
      { task_type: 'multi-face-swap', input: { target_image: `${images.url}/face.jpg`, swap_image: image } },
      { task_type: 'background-remove', input: { image } },
      { task_type: 'segment', input: { image, prompt: 'the cat' } },
      { task_type: 'upscale', input: { image, scale: 2 } },
    ];
    const ids = [];
    for (const c of cases) {
      const created = await postTask(sb, { model: 'service/image-toolkit', ...c });
      expect(created.status, created.text).toBe(200);
      ids.push(taskIdOf(created));
    }
    for (const [i, id] of ids.entries()) {
      const done = await waitForEnd(sb, id);
      expect(done.json.data.status, JSON.stringify(done.json.data.error)).toBe('completed');
      const file = await download(done.json.data.output.image_url);
      expect(file.type).toBe('image/png');
      if (cases[i]!.task_type === 'upscale') {
        const { imageDimensions } = await import('../../src/sandbox/media/index.ts');
        expect(await imageDimensions(file.bytes)).toMatchObject({ width: 100, height: 80 });
      }
    }
  });
});

describe('image-edit', () => {
  it('creates in the form of spec 2.7 and fetches in form A with image_url and image_urls', async () => {
    const created = await postTask(sb, {
      model: 'service/image-edit',
      task_type: 'image-edit',
      input: {
        image1: `${images.url}/scene.png`,
        image2: await pngDataUri(30, 30),
        prompt: 'put image2 on image1',
        seed: 3,
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(Object.keys(created.json).sort()).toEqual(['created_at', 'status', 'task_id']);
    expect(created.json.status).toBe('pending');
    expect(created.json.created_at).toMatch(/Z$/);
    expect(ImageEditCreateSchema.safeParse(created.json).success).toBe(true);
    expect(normalised(created.json).form).toBe('image-edit-create');

    const done = await waitForEnd(sb, created.json.task_id);
    const task = normalised(done.json);
    expect(task.form).toBe('A');
    expect(task.usage?.consume).toBe(25_000);
    expect(done.json.data.output.image_urls).toEqual([done.json.data.output.image_url]);
    const file = await download(done.json.data.output.image_url);
    expect(file.type).toBe('image/png');
  });
});

describe('image-gen txt2img', () => {
  it('creates in form A and fetches the detailed form C with works', async () => {
    const created = await postTask(sb, {
      model: 'service/image-gen',
      task_type: 'txt2img',
      input: { prompt: 'a red fox', width: 96, height: 64, seed: 5 },
    });
    expect(created.status, created.text).toBe(200);
    expect(normalised(created.json).form).toBe('A');
    const id = taskIdOf(created);

    const pending = await getTask(sb, id);
    expect(FormCSchema.safeParse(pending.json).success).toBe(true);
    expect(pending.json.data.works).toEqual([]);

    const done = await waitForEnd(sb, id);
    expect(FormCSchema.safeParse(done.json).success).toBe(true);
    const d = done.json.data;
    expect(JSON.parse(d.input)).toEqual({ prompt: 'a red fox', width: 96, height: 64, seed: 5 });
    expect(d.task).toMatchObject({ type: 'txt2img', status: 2, favored: false, deleted: false });
    expect(d.task.taskInfo.arguments).toContainEqual({ name: 'prompt', value: 'a red fox' });
    expect(d.metadata.ended_at).toMatch(OFFSET_TIME);
    expect(d.works).toHaveLength(1);
    expect(d.works[0]).toMatchObject({ contentType: 'image/png', resource: { width: 96, height: 64 } });
    const task = normalised(done.json);
    expect(task.form).toBe('C');
    expect(task.status).toBe('completed');
    expect(task.outputs).toEqual([
      { kind: 'image', url: d.works[0].resource.resource, field: 'works[0].resource.resource' },
    ]);
    const file = await download(d.works[0].resource.resource);
    expect(file.type).toBe('image/png');
  });
});

describe('video-gen txt2video', () => {
  it('creates in form A and fetches form B only, with an MP4 output', async () => {
    const created = await postTask(sb, {
      model: 'service/video-gen',
      task_type: 'txt2video',
      input: { prompt: 'waves', duration: 1 },
    });
    expect(created.status, created.text).toBe(200);
    expect(normalised(created.json).form).toBe('A');
    const id = taskIdOf(created);
    const early = await getTask(sb, id);
    expect(FormBSchema.safeParse(early.json).success).toBe(true);
    expect(normalised(early.json)).toMatchObject({ form: 'B', outputs: [] });

    const done = await waitForEnd(sb, id);
    expect(Object.keys(done.json.data).sort()).toEqual(['output', 'status', 'task_id']);
    expect(Object.keys(done.json.data.output)).toEqual(['video_url']);
    const task = normalised(done.json);
    expect(task.form).toBe('B');
    expect(task.outputs[0]?.kind).toBe('video');
    const file = await download(done.json.data.output.video_url);
    expect(file.type).toBe('video/mp4');
    expect(file.bytes.subarray(4, 8).toString()).toBe('ftyp');

    const range = await fetch(done.json.data.output.video_url, { headers: { range: 'bytes=0-7' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer())).toHaveLength(8);
  });
});

describe.each(['spec', 'hosted'] as const)(
  'the entries keyed by model and task type (%s profile)',
  (profile) => {
    let served: Sandbox;
    beforeAll(async () => {
      served = profile === 'spec' ? sb : await startTestSandbox({ profile, concurrencyLimit: 50 });
    });
    afterAll(async () => {
      if (served !== sb) await served.stop();
    });
    const dataOf = (json: { data?: Record<string, unknown> }) => json.data as Record<string, unknown>;

    it('Flux txt2img: batch_size PNGs in image_url and image_urls, checked against its own rules', async () => {
      const refused = await postTask(served, {
        model: 'Qubico/flux1-schnell',
        task_type: 'txt2img',
        input: { prompt: 'a fox', guidance_scale: 9 },
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('input.guidance_scale must be between 1.5 and 5, got 9');
      const created = await postTask(served, {
        model: 'Qubico/flux1-schnell',
        task_type: 'txt2img',
        input: { prompt: 'a fox in the snow', width: 320, height: 200, batch_size: 3 },
      });
      expect(created.status, created.text).toBe(200);
      const done = await waitForEnd(served, taskIdOf(created));
      const output = dataOf(done.json).output as { image_url: string; image_urls: string[] };
      expect(output.image_urls).toHaveLength(3);
      expect(output.image_url).toBe(output.image_urls[0]);
      for (const url of output.image_urls) {
        const file = await download(url);
        expect(file.type).toBe('image/png');
        expect(file.bytes.subarray(1, 4).toString()).toBe('PNG');
      }
      expect(new Set(output.image_urls).size).toBe(3);
    });

    it('video-toolkit upscale: {video} (no "image is required"), an MP4 in video_url', async () => {
      const created = await postTask(served, {
        model: 'Qubico/video-toolkit',
        task_type: 'upscale',
        input: { video: 'https://example.com/clips/walk.mp4' },
      });
      expect(created.status, created.text).toBe(200);
      const done = await waitForEnd(served, taskIdOf(created));
      const output = dataOf(done.json).output as Record<string, string>;
      expect(Object.keys(output)).toEqual(['video_url']);
      const file = await download(output.video_url as string);
      expect(file.type).toBe('video/mp4');
      expect(file.bytes.subarray(4, 8).toString()).toBe('ftyp');
      const noVideo = await postTask(served, {
        model: 'Qubico/video-toolkit',
        task_type: 'upscale',
        input: {},
      });
      expect(noVideo.status).toBe(400);
      expect(noVideo.text).toContain('input.video is required');
    });
  },
);

describe('failure', () => {
  it('ends in failed with an error object and no output when the task fails', async () => {
    const failing = await startTestSandbox({ faults: { taskFailureRate: 1 } });
    try {
      const created = await postTask(failing, {
        model: 'service/ace-step',
        task_type: 'txt2audio',
        input: { style_prompt: 'ambient', duration: 5 },
      });
      const done = await waitForEnd(failing, taskIdOf(created));
      const task = normalised(done.json);
      expect(task.status).toBe('failed');
      expect(task.outputs).toEqual([]);
      expect(done.json.data.output).toBeNull();
      expect(task.error).toMatchObject({ code: 10000 });
      expect(task.error?.message).not.toBe('');
      expect(task.usage?.consume).toBe(0);
      expect(WebhookPayloadSchema.safeParse({ timestamp: 1, data: done.json.data }).success).toBe(true);
    } finally {
      await failing.stop();
    }
  });
});
