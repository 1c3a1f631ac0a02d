/** Key checks (401), bad requests (400 naming the field), unknown ids and paths (404), wrong methods (405). */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { ErrorResponseSchema, LIMITS } from '../../src/shared/index.ts';
import { hugeJpeg, hugePng } from '../support/oversized-pictures.ts';
import {
  getTask,
  type JsonAnswer,
  KEY,
  pngBytes,
  pngDataUri,
  postTask,
  startFileServer,
  startTestSandbox,
  type TestServer,
  taskIdOf,
} from './sandbox-http.ts';

let sb: Sandbox;
let files: TestServer;
let smallPng: string;

beforeAll(async () => {
  sb = await startTestSandbox({ concurrencyLimit: 100 });
  files = await startFileServer({
    '/face.png': { type: 'image/png', body: await pngBytes(32, 32) },
    '/wide.png': { type: 'image/png', body: await pngBytes(2048, 8) },
    '/text.png': { type: 'image/png', body: 'this is not an image' },
  });
  smallPng = await pngDataUri(16, 16);
});

afterAll(async () => {
  await sb.stop();
  await files.close();
});

function expectErrorBody(answer: JsonAnswer, status: number, fieldText?: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/application\/json/);
  expect(ErrorResponseSchema.safeParse(answer.json).success).toBe(true);
  expect(answer.json).toMatchObject({ code: status, data: null, error: { code: status, detail: null } });
  expect(typeof answer.json.message).toBe('string');
  expect(answer.json.error.message).toBe(answer.json.message);
  expect(typeof answer.json.error.raw_message).toBe('string');
  if (fieldText) expect(answer.json.message).toContain(fieldText);
}

const audio = (input: Record<string, unknown>) => ({
  model: 'service/ace-step',
  task_type: 'txt2audio',
  input,
});
const faceSwap = (input: Record<string, unknown>) => ({
  model: 'service/image-toolkit',
  task_type: 'face-swap',
  input,
});

/** Sends a raw HTTP/1.1 request so the header name's letter case is exactly as written. */
function rawStatus(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
  });
}

describe('API key', () => {
  it('answers 401 with the error body when the key is missing or wrong', async () => {
    expectErrorBody(await postTask(sb, audio({ style_prompt: 'x', duration: 5 }), null), 401, 'x-api-key');
    expectErrorBody(await postTask(sb, audio({ style_prompt: 'x', duration: 5 }), 'nope'), 401, 'x-api-key');
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    expectErrorBody(await getTask(sb, id, null), 401, 'x-api-key');
    expectErrorBody(await getTask(sb, id, `${KEY}x`), 401);
    expect(sb.ledger()).toHaveLength(0);
  });

  it('accepts the header name in any letter case', async () => {
    const created = await postTask(sb, audio({ style_prompt: 'x', duration: 5 }));
    const id = taskIdOf(created);
    for (const name of ['x-api-key', 'X-API-KEY', 'X-Api-Key', 'x-API-key']) {
      const request = `GET /api/v1/task/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\n${name}: ${KEY}\r\nConnection: close\r\n\r\n`;
      expect(await rawStatus(sb.port, request), name).toBe(200);
    }
    const wrong = `GET /api/v1/task/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-KEY: other\r\nConnection: close\r\n\r\n`;
    expect(await rawStatus(sb.port, wrong)).toBe(401);
  });
});

describe('bad requests name the field', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['body not JSON', () => '{"model": "service/ace-step",', 'body'],
    ['body not an object', () => '[1, 2]', 'body'],
    ['missing model', () => ({ task_type: 'txt2audio', input: {} }), 'model'],
    ['missing task_type', () => ({ model: 'service/ace-step', input: {} }), 'task_type'],
    ['missing input', () => ({ model: 'service/ace-step', task_type: 'txt2audio' }), 'input'],
    ['unknown model', () => ({ model: 'service/nope', task_type: 'txt2audio', input: {} }), 'model'],
    [
      'unknown task type',
      () => ({ model: 'service/ace-step', task_type: 'txt2video', input: {} }),
      'task_type',
    ],
    ['model of the wrong type', () => ({ model: 7, task_type: 'txt2audio', input: {} }), 'model'],
    [
      'input of the wrong type',
      () => ({ model: 'service/ace-step', task_type: 'txt2audio', input: 'x' }),
      'input',
    ],
    [
      'duration too short',
      () => audio({ style_prompt: 'x', duration: LIMITS.audioMinSeconds - 0.5 }),
      'input.duration',
    ],
    [
      'duration too long',
      () => audio({ style_prompt: 'x', duration: LIMITS.audioMaxSeconds + 1 }),
      'input.duration',
    ],
    ['duration not a number', () => audio({ style_prompt: 'x', duration: '30' }), 'input.duration'],
    ['duration missing', () => audio({ style_prompt: 'x' }), 'input.duration'],
    [
      'lyrics too long',
      () => audio({ style_prompt: 'x', duration: 5, lyrics: 'a'.repeat(LIMITS.lyricsMaxChars + 1) }),
      'input.lyrics',
    ],
    ['lyrics not a string', () => audio({ style_prompt: 'x', duration: 5, lyrics: ['a'] }), 'input.lyrics'],
    ['unknown txt2audio field', () => audio({ style_prompt: 'x', duration: 5, tempo: 120 }), 'input.tempo'],
    [
      'webhook endpoint of the wrong type',
      () => ({ ...audio({ style_prompt: 'x', duration: 5 }), config: { webhook_config: { endpoint: 5 } } }),
      'config.webhook_config.endpoint',
    ],
    [
      'image-edit without image1',
      () => ({ model: 'service/image-edit', task_type: 'image-edit', input: { prompt: 'x' } }),
      'input.image1',
    ],
    [
      'image-edit without prompt',
      () => ({ model: 'service/image-edit', task_type: 'image-edit', input: { image1: smallPng } }),
      'input.prompt',
    ],
    [
      'image-edit seed not an integer',
      () => ({
        model: 'service/image-edit',
        task_type: 'image-edit',
        input: { image1: smallPng, prompt: 'x', seed: 1.5 },
      }),
      'input.seed',
    ],
    [
      'face-swap URL with another extension',
      () => faceSwap({ target_image: `${files.url}/face.gif`, swap_image: smallPng }),
      'input.target_image',
    ],
    ['face-swap missing swap_image', () => faceSwap({ target_image: smallPng }), 'input.swap_image'],
    [
      'Base64 that is not an image',
      () =>
        faceSwap({
          target_image: smallPng,
          swap_image: Buffer.from('hello world, not a picture').toString('base64'),
        }),
      'input.swap_image',
    ],
    [
      'text that is neither URL nor Base64',
      () => faceSwap({ target_image: 'not an image!', swap_image: smallPng }),
      'input.target_image',
    ],
    [
      'URL that answers 404',
      () => faceSwap({ target_image: `${files.url}/missing.png`, swap_image: smallPng }),
      'input.target_image',
    ],
    [
      'URL that is not an image',
      () => faceSwap({ target_image: smallPng, swap_image: `${files.url}/text.png` }),
      'input.swap_image',
    ],
    [
      'URL image of 2048 px on a side',
      () => faceSwap({ target_image: `${files.url}/wide.png`, swap_image: smallPng }),
      'input.target_image',
    ],
    [
      'video duration of the wrong type',
      () => ({
        model: 'service/video-gen',
        task_type: 'txt2video',
        input: { prompt: 'x', duration: 'long' },
      }),
      'input.duration',
    ],
  ];

  for (const [name, body, field] of cases) {
    it(`400 for ${name}`, async () => {
      expectErrorBody(await postTask(sb, body()), 400, field);
    });
  }

  it('400 for a Base64 image of 2048 px or more on a side, in any image input', async () => {
    const big = await pngDataUri(16, 2048);
    expectErrorBody(
      await postTask(sb, faceSwap({ target_image: smallPng, swap_image: big })),
      400,
      'input.swap_image',
    );
    expectErrorBody(
      await postTask(sb, {
        model: 'service/image-edit',
        task_type: 'image-edit',
        input: { image1: smallPng, image2: big, prompt: 'x' },
      }),
      400,
      'input.image2',
    );
    const ok = await postTask(
      sb,
      faceSwap({ target_image: await pngDataUri(2047, 16), swap_image: smallPng }),
    );
    expect(ok.status, ok.text).toBe(200);
  });

  it('400 naming the size for a Base64 picture whose header claims 99,000,000 x 1 or 65,000 x 65,000, answered at once', async () => {
    const started = Date.now();
    const wide = hugePng(99_000_000, 1).toString('base64');
    const wideAnswer = await postTask(sb, faceSwap({ target_image: wide, swap_image: smallPng }));
    expectErrorBody(
      wideAnswer,
      400,
      'input.target_image: image is 99000000 x 1 px; each side must be under 2048 px',
    );
    const jpeg = `data:image/jpeg;base64,${(await hugeJpeg(65_000, 65_000)).toString('base64')}`;
    const jpegAnswer = await postTask(sb, {
      model: 'service/image-edit',
      task_type: 'image-edit',
      input: { image1: smallPng, image2: jpeg, prompt: 'x' },
    });
    expectErrorBody(
      jpegAnswer,
      400,
      'input.image2: image is 65000 x 65000 px; each side must be under 2048 px',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('records no rejected create in the ledger', async () => {
    const before = sb.ledger().length;
    await postTask(sb, audio({ style_prompt: 'x', duration: 9999 }));
    expect(sb.ledger()).toHaveLength(before);
  });
});

describe('ids, paths and methods', () => {
  it('answers 400 for a malformed task id and 404 for an unknown one', async () => {
    expectErrorBody(await getTask(sb, 'not-a-uuid'), 400, 'task_id');
    expectErrorBody(await getTask(sb, '7c9e6679-7425-40de-944b-e07fc1f90ae7'), 404, 'task_id');
  });

  it('answers 404 for an unknown path and 405 for a wrong method', async () => {
    const unknown = await fetch(`${sb.url}/api/v2/task`, { headers: { 'x-api-key': KEY } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(404);
    const put = await fetch(`${sb.url}/api/v1/task`, { method: 'PUT', headers: { 'x-api-key': KEY } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST');
    await put.arrayBuffer();
    const del = await fetch(`${sb.url}/api/v1/task/7c9e6679-7425-40de-944b-e07fc1f90ae7`, {
      method: 'DELETE',
    });
    expect(del.status).toBe(405);
    expect(((await del.json()) as { code: number }).code).toBe(405);
    const missingFile = await fetch(`${sb.url}/files/7c9e6679-7425-40de-944b-e07fc1f90ae7/audio.wav`);
    expect(missingFile.status).toBe(404);
    await missingFile.arrayBuffer();
  });
});
