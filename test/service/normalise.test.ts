import { describe, expect, it } from 'vitest';
import {
  isTerminalStatus,
  KNOWN_REMOTE_STATUSES,
  normaliseStatus,
  normaliseTaskResponse,
  type RemoteTask,
} from '../../src/shared/service/index.ts';
import {
  audioCreateFormA,
  detailedFormC,
  faceSwapCreateFormA,
  failedFetchFormA,
  imageEditCreate,
  videoFetchFormB,
} from './wire-payloads.ts';

function taskOf(payload: unknown): RemoteTask {
  const result = normaliseTaskResponse(payload);
  if (!result.ok) throw new Error(`expected a task, got: ${result.reason}`);
  return result.task;
}

function reasonOf(payload: unknown): string {
  const result = normaliseTaskResponse(payload);
  if (result.ok) throw new Error(`expected a rejection, got task ${result.task.id}`);
  return result.reason;
}

describe('form A (audio create, with timestamp)', () => {
  const task = taskOf(audioCreateFormA());

  it('reads identity, status and form', () => {
    expect(task).toMatchObject({
      id: '3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90',
      model: 'service/ace-step',
      taskType: 'txt2audio',
      status: 'completed',
      form: 'A',
      error: null,
    });
  });

  it('reads the audio output', () => {
    expect(task.outputs).toEqual([
      { kind: 'audio', url: 'https://cdn.example.test/audio/3f0c8a2e.mp3', field: 'output.audio_url' },
    ]);
  });

  it('reads the meta times as UTC ISO strings and the usage', () => {
    expect(task.createdAt).toBe('2025-04-18T10:15:20.123Z');
    expect(task.startedAt).toBe('2025-04-18T10:15:22.000Z');
    expect(task.endedAt).toBe('2025-04-18T10:16:01.000Z');
    expect(task.usage).toEqual({ type: 'point', frozen: 0, consume: 150000 });
  });

  it('keeps the stored input, echo field names included', () => {
    expect(task.input).toMatchObject({
      negative_style_prompt: 'distorted vocals',
      duration: 30,
      style_audio: '',
    });
  });
});

describe('form A (face-swap create, with code and message)', () => {
  const task = taskOf(faceSwapCreateFormA());

  it('is pending, not terminal, with no output, no usage and no times', () => {
    expect(task).toMatchObject({
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      model: 'service/image-toolkit',
      taskType: 'face-swap',
      status: 'pending',
      outputs: [],
      usage: null,
      createdAt: null,
      startedAt: null,
      endedAt: null,
      input: {},
      form: 'A',
    });
  });
});

describe('form B (video fetch)', () => {
  it('reads the video output and says form B', () => {
    const task = taskOf(videoFetchFormB());
    expect(task).toMatchObject({
      id: 'b7e6d5c4-1111-4111-8111-111111111111',
      status: 'completed',
      form: 'B',
    });
    expect(task.model).toBeNull();
    expect(task.outputs).toEqual([
      { kind: 'video', url: 'https://cdn.example.test/video/b7e6d5c4.mp4', field: 'output.video_url' },
    ]);
  });
});

describe('image-edit create form (2.7)', () => {
  it('reads id, status and created_at without an envelope', () => {
    const task = taskOf(imageEditCreate());
    expect(task).toMatchObject({
      id: 'c0ffee00-2222-4222-8222-222222222222',
      status: 'pending',
      createdAt: '2025-04-18T10:20:00.000Z',
      outputs: [],
      form: 'image-edit-create',
    });
  });
});

describe('form C (detailed record with task and works)', () => {
  const task = taskOf(detailedFormC());

  it('lower-cases the status and reads works as outputs', () => {
    expect(task.status).toBe('completed');
    expect(task.form).toBe('C');
    expect(task.outputs).toEqual([
      { kind: 'image', url: 'https://cdn.example.test/works/1.png', field: 'works[0].resource.resource' },
      { kind: 'image', url: 'https://cdn.example.test/works/2.png', field: 'works[1].resource.resource' },
    ]);
  });

  it('parses the input string into an object and reads quota usage and times', () => {
    expect(task.input).toEqual({ prompt: 'a lighthouse at dusk', steps: 30 });
    expect(task.usage).toEqual({ type: 'quota', frozen: 0, consume: 25000 });
    expect(task.taskType).toBe('txt2img');
    expect(task.endedAt).toBe('2025-04-18T10:00:25.000Z');
  });

  it('keeps an input string that is not JSON as it is', () => {
    const payload = detailedFormC();
    payload.data.input = 'prompt=a lighthouse';
    expect(taskOf(payload).input).toBe('prompt=a lighthouse');
  });

  it('rejects a form C whose works is not an array, naming form C', () => {
    const payload: Record<string, unknown> = detailedFormC();
    (payload.data as Record<string, unknown>).works = 'none';
    expect(reasonOf(payload)).toMatch(/form C/);
  });
});

describe('statuses', () => {
  it.each([
    ['Completed', 'completed', true],
    ['FAILED', 'failed', true],
    [' Processing ', 'processing', false],
    ['staged', 'staged', false],
    ['Staged', 'staged', false],
    ['queued_for_gpu', 'queued_for_gpu', false],
    ['success', 'completed', true],
    ['Succeeded', 'completed', true],
    ['finished', 'completed', true],
    ['cancelled', 'cancelled', true],
    ['Canceled', 'cancelled', true],
    ['ERROR', 'failed', true],
    ['in_progress', 'processing', false],
    ['starting', 'pending', false],
    ['Retry', 'retry', false],
  ])('reads %j as %j (terminal %s)', (raw, status, terminal) => {
    const payload = faceSwapCreateFormA();
    payload.data.status = raw;
    const task = taskOf(payload);
    expect(task.status).toBe(status);
    expect(isTerminalStatus(task.status)).toBe(terminal);
    expect(task.serviceStatus).toBe(raw.trim().toLowerCase());
  });

  it('lists cancelled among the known and terminal statuses', () => {
    expect(KNOWN_REMOTE_STATUSES).toContain('cancelled');
    expect(isTerminalStatus('CANCELED')).toBe(true);
    expect(normaliseStatus(' In_Progress ')).toBe('processing');
    expect(normaliseStatus('toString')).toBe('tostring');
  });
});

describe('tolerance of the real service', () => {
  it('reads 0001-01-01T00:00:00Z as "not yet"', () => {
    const payload = audioCreateFormA();
    payload.data.status = 'pending';
    payload.data.meta.started_at = '0001-01-01T00:00:00Z';
    payload.data.meta.ended_at = '0001-01-01T00:00:00Z';
    const task = taskOf(payload);
    expect(task.startedAt).toBeNull();
    expect(task.endedAt).toBeNull();
    expect(task.createdAt).not.toBeNull();
  });

  it('accepts logs: null', () => {
    const payload: Record<string, unknown> = audioCreateFormA();
    (payload.data as Record<string, unknown>).logs = null;
    expect(taskOf(payload).id).toBe('3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90');
  });

  it('reads a processing record with ended_at, usage fields, error and logs null', () => {
    const payload = audioCreateFormA() as unknown as { data: Record<string, unknown> };
    payload.data.status = 'processing';
    payload.data.output = null;
    payload.data.meta = {
      created_at: '2025-06-11T11:43:31.673594+08:00',
      started_at: null,
      ended_at: null,
      usage: { type: null, frozen: null, consume: 5000 },
      is_using_private_pool: null,
    };
    payload.data.error = null;
    payload.data.logs = null;
    payload.data.config = { service_mode: null, webhook_config: null };
    const task = taskOf(payload);
    expect(task).toMatchObject({
      status: 'processing',
      createdAt: '2025-06-11T03:43:31.673Z',
      startedAt: null,
      endedAt: null,
      usage: { type: null, frozen: null, consume: 5000 },
      error: null,
      outputs: [],
    });
  });

  it('reads a field of an unexpected type as absent instead of failing the record', () => {
    const payload = audioCreateFormA() as unknown as { data: Record<string, unknown> };
    payload.data.model = 42;
    payload.data.meta = { created_at: 1749613411, usage: 'n/a' };
    payload.data.error = { code: '0', message: ['x'] };
    const task = taskOf(payload);
    expect(task).toMatchObject({ model: null, createdAt: null, usage: null, error: null });
    expect(task.outputs).toHaveLength(1);
  });

  it('reads a form C record with null task, works entries and metadata fields', () => {
    const payload = detailedFormC() as unknown as { code: unknown; data: Record<string, unknown> };
    const works = payload.data.works as unknown[];
    works.unshift(null);
    payload.code = null;
    payload.data.task = null;
    payload.data.metadata = { created_at: null, quota_usage: null, quota_frozen: 3 };
    const task = taskOf(payload);
    expect(task.taskType).toBeNull();
    expect(task.usage).toEqual({ type: 'quota', frozen: 3, consume: null });
    expect(task.outputs.map((o) => o.field)).toEqual([
      'works[1].resource.resource',
      'works[2].resource.resource',
    ]);
  });

  it('reads a record with fields it does not know', () => {
    const payload = {
      ...audioCreateFormA(),
      request_id: 'req-77',
      data: { ...audioCreateFormA().data, progress: 42, priority: 'high' },
    };
    expect(taskOf(payload).id).toBe('3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90');
  });

  it('maps a failed task error object', () => {
    const task = taskOf(failedFetchFormA());
    expect(task.status).toBe('failed');
    expect(task.error).toEqual({
      code: 10000,
      message: 'generation failed',
      rawMessage: 'worker crashed: CUDA OOM',
      detail: { gpu: 0 },
    });
  });

  it('reads an error object with code 0 and no text as no error', () => {
    expect(taskOf(audioCreateFormA()).error).toBeNull();
  });
});

describe('outputs', () => {
  function outputsOf(output: Record<string, unknown>) {
    const payload: Record<string, unknown> = audioCreateFormA();
    (payload.data as Record<string, unknown>).output = output;
    return taskOf(payload).outputs;
  }

  it('reads image_url and image_urls, without repeating a URL', () => {
    expect(
      outputsOf({
        image_url: 'https://cdn.example.test/a.png',
        image_urls: ['https://cdn.example.test/a.png', 'https://cdn.example.test/b.webp'],
      }),
    ).toEqual([
      { kind: 'image', url: 'https://cdn.example.test/a.png', field: 'output.image_url' },
      { kind: 'image', url: 'https://cdn.example.test/b.webp', field: 'output.image_urls[1]' },
    ]);
  });

  it('reads image_base64 as an image data URL', () => {
    const [out] = outputsOf({ image_base64: 'iVBORw0KGgo=' });
    expect(out).toEqual({
      kind: 'image',
      url: 'data:image/png;base64,iVBORw0KGgo=',
      field: 'output.image_base64',
    });
  });

  it('reads fields named after the medium: a URL, an object with url, or a list', () => {
    expect(
      outputsOf({
        video: 'https://cdn.example.test/v.mp4',
        image: { url: 'https://cdn.example.test/i.png', width: 10 },
        images: ['https://cdn.example.test/a.webp', { url: 'https://cdn.example.test/b.jpg' }, 7],
        thumbnail: { url: 'https://cdn.example.test/t.jpg' },
        audio: 'not a url',
      }),
    ).toEqual([
      { kind: 'video', url: 'https://cdn.example.test/v.mp4', field: 'output.video' },
      { kind: 'image', url: 'https://cdn.example.test/i.png', field: 'output.image.url' },
      { kind: 'image', url: 'https://cdn.example.test/a.webp', field: 'output.images[0]' },
      { kind: 'image', url: 'https://cdn.example.test/b.jpg', field: 'output.images[1]' },
    ]);
  });

  it('ignores empty and non-URL values', () => {
    expect(outputsOf({ audio_url: '', image_url: 'not a url', image_urls: [null, 3] })).toEqual([]);
  });
});

describe('rejections', () => {
  it.each([
    ['null', null],
    ['a string', 'completed'],
    ['an array', [audioCreateFormA()]],
    ['an empty object', {}],
    ['data without task_id', { code: 200, data: { status: 'pending' } }],
    ['a numeric status', { code: 200, data: { task_id: 'x', status: 2 } }],
    ['an empty task_id', { task_id: '', status: 'pending' }],
  ])('rejects %s with a reason', (_name, payload) => {
    expect(reasonOf(payload).length).toBeGreaterThan(0);
  });

  it('names the offending field', () => {
    expect(reasonOf({ code: 200, data: { task_id: 'x', status: 2 } })).toMatch(/status/);
  });
});
