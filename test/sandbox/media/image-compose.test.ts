import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ovalOpacity } from '../../../src/sandbox/media/face-swap-compose.ts';
import {
  composeFaceSwap,
  composeImageEdit,
  type DecodedImage,
  faceSwapRegion,
  generateTextImage,
} from '../../../src/sandbox/media/index.ts';

type Rgb = [number, number, number];

/** A decoded image painted by a function of the pixel position. */
function paint(width: number, height: number, colour: (x: number, y: number) => Rgb): DecodedImage {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      data.set([...colour(x, y), 255], (y * width + x) * 4);
    }
  }
  return { data, width, height, format: 'png' };
}

async function decodePng(png: Buffer): Promise<DecodedImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  expect(info.format).toBe('raw');
  return { data, width: info.width, height: info.height, format: 'png' };
}

function pixel(image: DecodedImage, x: number, y: number): Rgb {
  const o = (Math.round(y) * image.width + Math.round(x)) * 4;
  return [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!];
}

const BLUE: Rgb = [0, 0, 255];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];

describe('composeFaceSwap', () => {
  const target = paint(400, 300, () => BLUE);
  // Left half red, right half green: the pasted oval must show both, in the same order.
  const swap = paint(200, 200, (x) => (x < 100 ? RED : GREEN));

  it('keeps the target size and puts the swap image into an oval at the upper centre', async () => {
    const out = await decodePng(await composeFaceSwap(target, swap));
    expect([out.width, out.height]).toEqual([400, 300]);
    const region = faceSwapRegion(400, 300);
    expect(region.radiusX * 2).toBe(120);
    expect(region.centerX).toBe(200);
    expect(region.centerY).toBeLessThan(150);
    expect(pixel(out, region.centerX - region.radiusX * 0.4, region.centerY)).toEqual(RED);
    expect(pixel(out, region.centerX + region.radiusX * 0.4, region.centerY)).toEqual(GREEN);
    expect(pixel(out, region.centerX - region.radiusX * 0.3, region.centerY - region.radiusY * 0.6)).toEqual(
      RED,
    );
  });

  it('leaves every pixel outside the oval exactly as in the target, and blends only the rim', async () => {
    const out = await decodePng(await composeFaceSwap(target, swap));
    const region = faceSwapRegion(400, 300);
    let outside = 0;
    let rim = 0;
    const wrong: string[] = [];
    for (let y = 0; y < out.height; y++) {
      for (let x = 0; x < out.width; x++) {
        const opacity = ovalOpacity(region, x, y);
        const [r, g, b] = pixel(out, x, y);
        if (opacity === 0) {
          outside++;
          if (r !== 0 || g !== 0 || b !== 255) wrong.push(`outside ${x},${y}: ${r},${g},${b}`);
        } else if (opacity > 0.05 && opacity < 0.95) {
          rim++;
          // Blue fades into red or green: both contributions are present.
          if (b === 0 || r + g === 0) wrong.push(`rim ${x},${y}: ${r},${g},${b}`);
        } else if (opacity === 1 && b !== 0) {
          wrong.push(`inside ${x},${y}: ${r},${g},${b}`);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(outside).toBeGreaterThan(400 * 300 * 0.8);
    expect(rim).toBeGreaterThan(100);
  });

  it('works for a tall target and a tiny swap image', async () => {
    const tall = paint(90, 400, () => BLUE);
    const tiny = paint(3, 3, () => RED);
    const out = await decodePng(await composeFaceSwap(tall, tiny));
    expect([out.width, out.height]).toEqual([90, 400]);
    const region = faceSwapRegion(90, 400);
    expect(pixel(out, region.centerX, region.centerY)).toEqual(RED);
    expect(pixel(out, 2, 398)).toEqual(BLUE);
  });
});

describe('composeImageEdit', () => {
  const gradient = paint(320, 240, (x, y) => [Math.round((x * 255) / 319), Math.round((y * 255) / 239), 128]);
  const yellow = paint(100, 100, () => [255, 255, 0]);
  const magenta = paint(80, 120, () => [255, 0, 255]);

  it('is deterministic for the same images, prompt and seed', async () => {
    const a = await composeImageEdit([gradient, yellow, magenta], 'put image2 on the table', 7);
    const b = await composeImageEdit([gradient, yellow, magenta], 'put image2 on the table', 7);
    expect(a.equals(b)).toBe(true);
  });

  it('changes the pixels with the prompt and with the seed', async () => {
    const base = await decodePng(await composeImageEdit([gradient], 'a calm lake', 1));
    for (const [prompt, seed] of [
      ['a stormy sea', 1],
      ['a calm lake', 2],
    ] as const) {
      const other = await decodePng(await composeImageEdit([gradient], prompt, seed));
      let changed = 0;
      for (let i = 0; i < base.data.length; i += 4)
        if (base.data[i] !== other.data[i] || base.data[i + 2] !== other.data[i + 2]) changed++;
      expect(changed, `${prompt} / ${seed}`).toBeGreaterThan(320 * 240 * 0.5);
    }
  });

  it('keeps image1 as the graded base and insets image2 and image3 as panels', async () => {
    const out = await decodePng(await composeImageEdit([gradient, yellow, magenta], 'blend them', 3));
    expect([out.width, out.height]).toEqual([320, 240]);
    // image2 at the bottom right, image3 at the bottom left, copied without grading.
    expect(pixel(out, 320 - 40, 240 - 40)).toEqual([255, 255, 0]);
    expect(pixel(out, 40, 240 - 40)).toEqual([255, 0, 255]);
    // The base keeps the gradient's shape under the tint: left is less red than right.
    const left = pixel(out, 20, 120);
    const right = pixel(out, 300, 120);
    expect(right[0] - left[0]).toBeGreaterThan(100);
  });

  it('takes one to three images', async () => {
    await expect(composeImageEdit([], 'x', 1)).rejects.toThrow(RangeError);
    await expect(composeImageEdit([yellow, yellow, yellow, yellow], 'x', 1)).rejects.toThrow(RangeError);
    const single = await decodePng(await composeImageEdit([yellow], 'x', 1));
    expect([single.width, single.height]).toEqual([100, 100]);
  });
});

describe('generateTextImage', () => {
  it('is a deterministic, non-uniform picture of the requested size that depends on prompt and seed', async () => {
    const a = await generateTextImage('a lighthouse at dusk', 5, 96, 64);
    expect((await generateTextImage('a lighthouse at dusk', 5, 96, 64)).equals(a)).toBe(true);
    expect((await generateTextImage('a lighthouse at dawn', 5, 96, 64)).equals(a)).toBe(false);
    expect((await generateTextImage('a lighthouse at dusk', 6, 96, 64)).equals(a)).toBe(false);
    const image = await decodePng(a);
    expect([image.width, image.height]).toEqual([96, 64]);
    const stats = await sharp(a).stats();
    expect(Math.max(...stats.channels.slice(0, 3).map((c) => c.stdev))).toBeGreaterThan(10);
  });

  it('defaults to 512 x 512 and refuses impossible sizes', async () => {
    const meta = await sharp(await generateTextImage('default', 0)).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([512, 512, 'png']);
    await expect(generateTextImage('x', 1, 0, 10)).rejects.toThrow(RangeError);
    await expect(generateTextImage('x', 1, 10, 10.5)).rejects.toThrow(RangeError);
  });
});
