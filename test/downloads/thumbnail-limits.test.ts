/**
 * Thumbnails of pictures too large to decode (security review, issue 17 item 3): a small file
 * whose header claims 99,000,000 x 1 px (PNG), 65,000 x 65,000 (JPEG) or 16,777,216 x 1
 * (WebP) is refused from its header, before sharp decodes a pixel, with the size in the
 * message; pictures within the limits still get their thumbnail. Real files, real sharp.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeThumbnail } from '../../src/core/downloads/index.ts';
import { ImageTooLargeError, MAX_DECODE_PIXELS, MAX_DECODE_SIDE } from '../../src/image-codec/index.ts';
import { removeDir, tempDir } from '../engine/engine-fixtures.ts';
import { hugeJpeg, hugePng, hugeWebp } from '../support/oversized-pictures.ts';
import { writePicture } from '../support/pictures.ts';

let dir: string;

beforeAll(async () => {
  dir = await tempDir('mts-thumb-limits-');
  mkdirSync(join(dir, 't'), { recursive: true });
});
afterAll(() => removeDir(dir));

describe('thumbnails of pictures too large to decode', () => {
  it.each([
    ['wide.png', () => hugePng(99_000_000, 1), '99000000 x 1'],
    ['tall.png', () => hugePng(1, 20_000), '1 x 20000'],
    ['huge.jpg', () => hugeJpeg(65_000, 65_000), '65000 x 65000'],
    ['wide.webp', () => hugeWebp(16_777_216, 1), '16777216 x 1'],
  ])('refuses %s from its header, naming its size', async (name, bytes, size) => {
    writeFileSync(join(dir, 't', name), await bytes());
    const started = Date.now();
    const failure = await makeThumbnail(dir, `t/${name}`, 0).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ImageTooLargeError);
    expect((failure as Error).message).toBe(
      `the picture is ${size} px; the app decodes pictures of at most 16384 px a side and 67.1 million pixels`,
    );
    expect(failure).toMatchObject({
      width: Number(size.split(' x ')[0]),
      height: Number(size.split(' x ')[1]),
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses a picture within each side but over the pixels (9000 x 9000)', async () => {
    writeFileSync(join(dir, 't', 'square.png'), hugePng(9_000, 9_000));
    await expect(makeThumbnail(dir, 't/square.png', 0)).rejects.toThrow(/is 9000 x 9000 px/);
    expect(9_000 * 9_000).toBeGreaterThan(MAX_DECODE_PIXELS);
    expect(9_000).toBeLessThan(MAX_DECODE_SIDE);
  });

  it('still makes the thumbnail of a picture at the side limit, and of an ordinary one', async () => {
    writeFileSync(join(dir, 't', 'long.png'), hugePng(MAX_DECODE_SIDE, 8));
    expect(await makeThumbnail(dir, 't/long.png', 1)).toMatchObject({
      width: 320,
      sourceWidth: MAX_DECODE_SIDE,
      sourceHeight: 8,
    });
    await writePicture(join(dir, 't', 'photo.jpg'), 640, 480, 'jpeg');
    expect(await makeThumbnail(dir, 't/photo.jpg', 2)).toMatchObject({
      path: 't/thumb-3.webp',
      width: 320,
      height: 240,
      sourceWidth: 640,
      sourceHeight: 480,
    });
  });
});
