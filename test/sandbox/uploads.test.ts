/** POST /api/ephemeral_resource: round trips, sniffed types, uploads as task inputs, refusals and expiry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.ts';
import { MODELS, UPLOAD_PATH } from '../../src/shared/index.ts';
import {
  type JsonAnswer,
  pngBytes,
  postJson,
  postTask,
  startTestSandbox,
  waitForEnd,
  wavBytes,
} from './sandbox-http.ts';

const UPLOAD_URL = /^http:\/\/127\.0\.0\.1:\d+\/temp\/[0-9a-f-]{36}\.([a-z0-9]+)$/;
const TEN_MIB = 10 * 1024 * 1024;

let sb: Sandbox;

beforeAll(async () => {
  sb = await startTestSandbox({ concurrencyLimit: 50 });
});

afterAll(async () => {
  await sb.stop();
});

function upload(
  target: Sandbox,
  fileName: unknown,
  fileData: unknown,
  key?: string | null,
): Promise<JsonAnswer> {
  return postJson(target, UPLOAD_PATH, { file_name: fileName, file_data: fileData }, key);
}

/** Uploads and returns the URL, expecting success. */
async function uploadedUrl(fileName: string, bytes: Buffer, dataUri = false): Promise<string> {
  const base64 = bytes.toString('base64');
  const answer = await upload(
    sb,
    fileName,
    dataUri ? `data:application/octet-stream;base64,${base64}` : base64,
  );
  expect(answer.status, answer.text).toBe(200);
  expect(Object.keys(answer.json)).toEqual(['code', 'data', 'message']);
  expect(answer.json).toMatchObject({ code: 200, message: 'success' });
  expect(answer.json.data.url).toMatch(UPLOAD_URL);
  return answer.json.data.url;
}

describe('upload', () => {
  it('keeps a PNG and serves it at a URL ending in its extension, with the bytes and type it was given', async () => {
    const png = await pngBytes(40, 30);
    const url = await uploadedUrl('face.png', png, true);
    expect(url.startsWith(`${sb.url}/temp/`)).toBe(true);
    expect(url.endsWith('.png')).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));
  });

  it('serves the type the bytes are, whatever the name says', async () => {
    const pngNamedJpg = await uploadedUrl('photo.JPG', await pngBytes(8, 8));
    expect(pngNamedJpg.endsWith('.jpg')).toBe(true);
    expect((await fetch(pngNamedJpg)).headers.get('content-type')).toBe('image/png');
    const wav = await uploadedUrl('take.wav', wavBytes(1));
    expect((await fetch(wav)).headers.get('content-type')).toBe('audio/wav');
    const unknown = await uploadedUrl('notes.mp3', Buffer.from('just some text'));
    expect((await fetch(unknown)).headers.get('content-type')).toBe('application/octet-stream');
  });

  it('takes uploaded URLs as face-swap inputs, and the task completes', async () => {
    const target = await uploadedUrl('target.png', await pngBytes(64, 48, [20, 120, 200]));
    const swap = await uploadedUrl('swap.webp.png', await pngBytes(32, 32, [240, 200, 160]));
    const created = await postTask(sb, {
      model: MODELS.imageToolkit,
      task_type: 'face-swap',
      input: { target_image: target, swap_image: swap },
    });
    expect(created.status, created.text).toBe(200);
    const done = await waitForEnd(sb, created.json.data.task_id);
    expect(done.json.data.status).toBe('completed');
    const output = await fetch(done.json.data.output.image_url);
    expect(output.status).toBe(200);
    expect(output.headers.get('content-type')).toBe('image/png');
    await output.arrayBuffer();
  });

  it('takes an uploaded URL as an audio input', async () => {
    const audio = await uploadedUrl('reference.wav', wavBytes(1));
    const created = await postTask(sb, {
      model: MODELS.audio,
      task_type: 'audio2audio',
      input: { style_audio: audio, style_prompt: 'jazz', duration: 2 },
    });
    expect(created.status, created.text).toBe(200);
    expect((await waitForEnd(sb, created.json.data.task_id)).json.data.status).toBe('completed');
  });
});

describe('upload refusals', () => {
  const png = 'iVBORw0KGgo=';

  it('answers 400 naming file_data for a file over 10 MB and for bad Base64', async () => {
    const tooLarge = await upload(sb, 'big.png', Buffer.alloc(TEN_MIB + 1).toString('base64'));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.json.message).toMatch(/^file_data decodes to 10485761 bytes/);
    const exactly = await upload(sb, 'max.png', Buffer.alloc(TEN_MIB).toString('base64'));
    expect(exactly.status).toBe(200);
    for (const bad of ['@@not base64@@', 'data:image/png,plain', 'abcde']) {
      const answer = await upload(sb, 'x.png', bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.json.message).toContain('file_data is not valid Base64');
    }
    expect((await upload(sb, 'x.png', undefined)).json.message).toBe('file_data is required');
  });

  it('answers 400 naming file_name for a missing or wrong extension and a name over 128 characters', async () => {
    for (const name of ['face.gif', 'face', '.png', 'face.png.txt']) {
      const answer = await upload(sb, name, png);
      expect(answer.status, name).toBe(400);
      expect(answer.json.message).toContain(
        'file_name must end in one of .jpg, .jpeg, .png, .webp, .mp4, .wav, .mp3',
      );
    }
    const long = await upload(sb, `${'a'.repeat(125)}.png`, png);
    expect(long.status).toBe(400);
    expect(long.json.message).toBe('file_name must be at most 128 characters, got 129');
    expect((await upload(sb, `${'a'.repeat(124)}.png`, png)).status).toBe(200);
    expect((await upload(sb, 42, png)).json.message).toBe('file_name must be a string, got number');
    const notJson = await postJson(sb, UPLOAD_PATH, '{"file_name":');
    expect(notJson.status).toBe(400);
    expect(notJson.json.message).toMatch(/^body: not valid JSON/);
  });

  it('answers 401 without a valid key and 405 for another method', async () => {
    expect((await upload(sb, 'x.png', png, null)).status).toBe(401);
    expect((await upload(sb, 'x.png', png, 'wrong')).json).toMatchObject({ code: 401, data: null });
    const get = await fetch(`${sb.url}${UPLOAD_PATH}`);
    expect(get.status).toBe(405);
    await get.arrayBuffer();
  });

  it('answers 403 Insufficient plan level when the plan has no uploads', async () => {
    const options: SandboxOptions = { profile: 'hosted', faults: { uploadRefused: true } };
    const refused = await startTestSandbox(options);
    try {
      const answer = await upload(refused, 'x.png', png);
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual({ code: 403, message: 'Insufficient plan level' });
    } finally {
      await refused.stop();
    }
  });
});

describe('upload expiry', () => {
  it('answers 410 once uploadTtlMs has passed, and an unknown upload 404', async () => {
    const short = await startTestSandbox({ uploadTtlMs: 100 });
    try {
      const answer = await upload(short, 'face.png', (await pngBytes(8, 8)).toString('base64'));
      const url: string = answer.json.data.url;
      expect((await fetch(url)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 150));
      const gone = await fetch(url);
      expect(gone.status).toBe(410);
      expect(((await gone.json()) as { message: string }).message).toContain('upload expired');
      const unknown = await fetch(`${short.url}/temp/00000000-0000-0000-0000-000000000000.png`);
      expect(unknown.status).toBe(404);
      await unknown.arrayBuffer();
    } finally {
      await short.stop();
    }
  });
});
