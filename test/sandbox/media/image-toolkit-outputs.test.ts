/** The image-toolkit stand-ins on raw pixels: background removal when the border finds nothing. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { removeBackground, subjectMask } from '../../../src/sandbox/image-toolkit-outputs.ts';

/** Seeded noise: no two neighbours alike, so no colour joins the border to anything. */
function noise(width: number, height: number) {
  const data = Buffer.alloc(width * height * 4);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = i % 4 === 3 ? 255 : (seed >> 16) & 0xff;
  }
  return { data, width, height };
}

describe('background removal', () => {
  it('cuts a busy picture to a centred oval, keeping its colours inside', async () => {
    const image = noise(60, 40);
    const mask = subjectMask(image);
    expect(mask[0]).toBe(0);
    expect(mask[20 * 60 + 30]).toBe(255);
    const { data, info } = await sharp(await removeBackground(image))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const at = (20 * 60 + 30) * 4;
    expect(data.subarray(at, at + 4)).toEqual(image.data.subarray(at, at + 4));
    expect(data[3]).toBe(0);
    expect(data[(39 * 60 + 59) * 4 + 3]).toBe(0);
  });

  it('keeps transparency the input already had', () => {
    const image = noise(20, 20);
    for (let p = 0; p < 400; p++) if (p % 20 < 10) image.data[p * 4 + 3] = 0;
    const mask = subjectMask(image);
    expect(mask[5 * 20 + 2]).toBe(0);
  });
});
