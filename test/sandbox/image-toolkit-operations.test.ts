/**
 * Upscale, background removal and segmentation over real HTTP, in both answer profiles: each
 * output visibly is the operation (exact scaled size, a transparent background, a mask of the
 * input's size), also when the input is a face-swap result.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProfile, Sandbox } from '../../src/sandbox/index.ts';
import { pngDataUri, postTask, startTestSandbox, taskIdOf, waitForEnd } from './sandbox-http.ts';

const MODEL = 'Qubico/image-toolkit';

/** A light grey picture with a red block in the middle (the "subject"), as a data URI. */
async function subjectPicture(width: number, height: number): Promise<string> {
  const block = await sharp({
    create: { width: width / 2, height: height / 2, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .png()
    .toBuffer();
  const png = await sharp({
    create: { width, height, channels: 3, background: { r: 235, g: 235, b: 235 } },
  })
    .composite([{ input: block, left: width / 4, top: height / 4 }])
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Decoded pixels of a PNG, with the channel count it was written with. */
async function pixelsOf(png: Buffer) {
  const meta = await sharp(png).metadata();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, info, hasAlpha: meta.hasAlpha === true };
}

describe.each<AnswerProfile>(['spec', 'hosted'])('image-toolkit operations, %s profile', (profile) => {
  let sb: Sandbox;

  beforeAll(async () => {
    sb = await startTestSandbox({ profile, outbound: 'loopback-only', concurrencyLimit: 50 });
  });

  afterAll(async () => {
    await sb.stop();
  });

  async function output(taskType: string, input: Record<string, unknown>) {
    const created = await postTask(sb, { model: MODEL, task_type: taskType, input });
    expect(created.status, created.text).toBe(200);
    const done = await waitForEnd(sb, taskIdOf(created), 30_000);
    expect(done.json.data.status, JSON.stringify(done.json.data.error)).toBe('completed');
    const url: string = done.json.data.output.image_url;
    expect(url).toMatch(/\/image\.png$/);
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('image/png');
    return { url, png: Buffer.from(await res.arrayBuffer()) };
  }

  it('upscale gives exactly the input size times 2 or 4, with no cap on the result', async () => {
    const image = await pngDataUri(50, 40);
    for (const scale of [2, 4]) {
      const { png } = await output('upscale', { image, scale });
      expect(await sharp(png).metadata()).toMatchObject({ width: 50 * scale, height: 40 * scale });
    }
    const { png } = await output('upscale', { image: await subjectPicture(1100, 700), scale: 4 });
    expect(await sharp(png).metadata()).toMatchObject({ width: 4400, height: 2800 });
    const enhanced = await output('upscale', {
      image: await subjectPicture(60, 40),
      scale: 2,
      face_enhance: true,
    });
    const plain = await output('upscale', { image: await subjectPicture(60, 40), scale: 2 });
    expect(await sharp(enhanced.png).metadata()).toMatchObject({ width: 120, height: 80 });
    expect(enhanced.png.equals(plain.png)).toBe(false);
  }, 60_000);

  it('background-remove keeps the subject and makes the background transparent', async () => {
    const { png } = await output('background-remove', { image: await subjectPicture(80, 60) });
    const { data, info, hasAlpha } = await pixelsOf(png);
    expect(hasAlpha).toBe(true);
    expect(info).toMatchObject({ width: 80, height: 60, channels: 4 });
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    expect(alphaAt(0, 0)).toBe(0);
    expect(alphaAt(79, 59)).toBe(0);
    expect(alphaAt(5, 30)).toBe(0);
    expect(alphaAt(40, 30)).toBe(255);
    expect(data.subarray((30 * 80 + 40) * 4, (30 * 80 + 40) * 4 + 3)).toEqual(Buffer.from([200, 30, 30]));
  });

  it('chains a face-swap result into background-remove and upscale by its output URL', async () => {
    const swapped = await output('face-swap', {
      target_image: await pngDataUri(120, 90, [30, 30, 220]),
      swap_image: await pngDataUri(40, 40, [240, 200, 160]),
    });
    const cut = await output('background-remove', { image: swapped.url });
    const { data, info } = await pixelsOf(cut.png);
    expect(info.channels).toBe(4);
    let transparent = 0;
    for (let p = 3; p < data.length; p += 4) if (data[p] === 0) transparent++;
    const total = info.width * info.height;
    expect(transparent).toBeGreaterThan(total / 2);
    expect(transparent).toBeLessThan(total);
    const big = await output('upscale', { image: swapped.url, scale: 4 });
    expect(await sharp(big.png).metadata()).toMatchObject({ width: 480, height: 360 });
  });

  it('segment gives a mask of the input size, white on the subject, grown by segment_factor pixels', async () => {
    const image = await subjectPicture(80, 60);
    const white = async (input: Record<string, unknown>) => {
      const { png } = await output('segment', { image, prompt: 'the red block', ...input });
      const { data, info } = await pixelsOf(png);
      expect(info).toMatchObject({ width: 80, height: 60 });
      const at = (x: number, y: number) => data[(y * info.width + x) * info.channels];
      expect(at(40, 30)).toBe(255);
      expect(at(0, 0)).toBe(0);
      let count = 0;
      for (let p = 0; p < info.width * info.height; p++) if (data[p * info.channels] === 255) count++;
      return count;
    };
    const plain = await white({});
    expect(plain).toBe(40 * 30);
    expect(await white({ segment_factor: 3 })).toBeGreaterThan(plain);
    expect(await white({ segment_factor: -3 })).toBeLessThan(plain);
  });
});
