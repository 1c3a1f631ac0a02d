import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageHeaderError, readImageHeader, readImageHeaderFromBytes } from '../../src/core/inputs/index.ts';
import {
  makeBmp,
  makeImage,
  makeTempDir,
  type SharpFormat,
  withAppSegments,
  writeFixture,
} from './input-fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup());

const CASES: Array<[SharpFormat, number, number]> = [
  ['png', 1, 1],
  ['png', 5000, 3],
  ['png', 3000, 3000],
  ['jpeg', 1, 1],
  ['jpeg', 33, 17],
  ['jpeg', 4001, 7],
  ['jpeg-progressive', 640, 480],
  ['jpeg-progressive', 3, 2049],
  ['webp', 1, 1],
  ['webp', 333, 177],
  ['webp', 16383, 2],
  ['webp-lossless', 1, 1],
  ['webp-lossless', 1025, 16],
  ['webp-alpha', 100, 2047],
  ['gif', 1, 1],
  ['gif', 301, 123],
];

describe('readImageHeader agrees with sharp', () => {
  it.each(CASES)('%s %i x %i, from bytes and from a file', async (format, width, height) => {
    const bytes = await makeImage(format, width, height);
    const meta = await sharp(bytes).metadata();
    const expected = { width: meta.width, height: meta.height };
    expect(expected).toEqual({ width, height });
    expect(readImageHeaderFromBytes(bytes)).toMatchObject(expected);
    const path = await writeFixture(dir, `img-${format}-${width}x${height}`, bytes);
    expect(await readImageHeader(path)).toMatchObject(expected);
  });

  it('names the format', async () => {
    expect(readImageHeaderFromBytes(await makeImage('jpeg-progressive', 2, 2)).format).toBe('jpeg');
    expect(readImageHeaderFromBytes(await makeImage('webp-alpha', 2, 2)).format).toBe('webp');
    expect(readImageHeaderFromBytes(await makeImage('gif', 2, 2)).format).toBe('gif');
  });

  it('an EXIF-heavy JPEG (60 KB of EXIF before the frame header)', async () => {
    const bytes = await sharp({ create: { width: 1234, height: 567, channels: 3, background: 'blue' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'x'.repeat(60_000), Artist: 'someone' } })
      .toBuffer();
    const meta = await sharp(bytes).metadata();
    expect(meta.exif?.length).toBeGreaterThan(60_000);
    expect(readImageHeaderFromBytes(bytes)).toMatchObject({ width: 1234, height: 567 });
    expect(await readImageHeader(await writeFixture(dir, 'exif.jpg', bytes))).toMatchObject({
      width: 1234,
      height: 567,
    });
  });

  it('a JPEG whose frame header lies beyond the first 64 KiB (5 MB of APP segments) is read in chunks', async () => {
    const bytes = withAppSegments(await makeImage('jpeg', 800, 600), 80);
    expect(bytes.length).toBeGreaterThan(5_000_000);
    const meta = await sharp(bytes).metadata();
    expect(await readImageHeader(await writeFixture(dir, 'app-heavy.jpg', bytes))).toMatchObject({
      width: meta.width,
      height: meta.height,
    });
  });

  it('reads the header only: a JPEG cut just after its frame header still gives its size', async () => {
    const bytes = await makeImage('jpeg', 321, 123);
    const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    const cut = bytes.subarray(0, sof + 9);
    expect(readImageHeaderFromBytes(cut)).toEqual({ format: 'jpeg', width: 321, height: 123 });
    expect(await readImageHeader(await writeFixture(dir, 'cut.jpg', cut))).toMatchObject({ width: 321 });
  });

  it('reads the header only: a PNG of just its signature and IHDR', async () => {
    const bytes = await makeImage('png', 77, 99);
    expect(readImageHeaderFromBytes(bytes.subarray(0, 33))).toEqual({ format: 'png', width: 77, height: 99 });
  });
});

describe('JPEG marker walking', () => {
  const sof = (marker: number, width: number, height: number) =>
    Buffer.from([0xff, marker, 0, 11, 8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]);
  const segment = (marker: number, payload: number[]) =>
    Buffer.from([0xff, marker, 0, payload.length + 2, ...payload]);
  const soi = Buffer.from([0xff, 0xd8]);

  it('skips DHT (C4), JPG (C8) and DAC (CC), which are not frame headers', () => {
    const bytes = Buffer.concat([
      soi,
      segment(0xc4, [0, 1, 2]),
      segment(0xc8, [9]),
      segment(0xcc, [1, 2]),
      sof(0xc3, 300, 200),
    ]);
    expect(readImageHeaderFromBytes(bytes)).toEqual({ format: 'jpeg', width: 300, height: 200 });
  });

  it.each([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])(
    'SOF marker %s',
    (marker) => {
      const bytes = Buffer.concat([soi, segment(0xe0, [0x4a, 0x46]), sof(marker, 4096, 1)]);
      expect(readImageHeaderFromBytes(bytes)).toMatchObject({ width: 4096, height: 1 });
    },
  );

  it('accepts fill bytes and standalone markers between segments', () => {
    const bytes = Buffer.concat([soi, Buffer.from([0xff, 0xff, 0xff]), segment(0xfe, [65]), sof(0xc0, 5, 6)]);
    expect(readImageHeaderFromBytes(bytes)).toMatchObject({ width: 5, height: 6 });
  });

  it.each([
    ['EOI before SOF', Buffer.concat([soi, Buffer.from([0xff, 0xd9])]), /corrupt JPEG: image ends \(EOI\)/],
    ['SOS before SOF', Buffer.concat([soi, segment(0xda, [1, 2, 3])]), /corrupt JPEG: scan data \(SOS\)/],
    [
      'no marker where one must be',
      Buffer.concat([soi, segment(0xe0, [1]), Buffer.from([0x12, 0x34, 0, 0])]),
      /expected a marker at byte 7/,
    ],
    [
      'data ends before SOF',
      Buffer.concat([soi, segment(0xe1, [1, 2, 3])]),
      /data ends before the frame header/,
    ],
    ['height 0 (DNL)', Buffer.concat([soi, sof(0xc0, 10, 0)]), /height is 0/],
    ['width 0', Buffer.concat([soi, sof(0xc0, 0, 10)]), /corrupt JPEG: width is 0/],
    ['segment length below 2', Buffer.concat([soi, Buffer.from([0xff, 0xe0, 0, 1])]), /has length 1/],
  ])('%s is a clear error', (_name, bytes, message) => {
    expect(() => readImageHeaderFromBytes(bytes)).toThrow(ImageHeaderError);
    expect(() => readImageHeaderFromBytes(bytes)).toThrow(message);
  });

  it('a JPEG file that ends inside its segments, beyond the first window, is corrupt', async () => {
    const full = withAppSegments(await makeImage('jpeg', 10, 10), 3);
    const path = await writeFixture(dir, 'short.jpg', full.subarray(0, 150_000));
    await expect(readImageHeader(path)).rejects.toThrow(
      'corrupt JPEG: file ends before the frame header (SOF)',
    );
  });
});

describe('other formats', () => {
  it('BMP: info header, top-down, and OS/2 core header', () => {
    expect(readImageHeaderFromBytes(makeBmp(31, 7))).toEqual({ format: 'bmp', width: 31, height: 7 });
    expect(readImageHeaderFromBytes(makeBmp(31, 7, { topDown: true }))).toMatchObject({
      width: 31,
      height: 7,
    });
    expect(readImageHeaderFromBytes(makeBmp(2, 3000, { dibSize: 12 }))).toMatchObject({
      width: 2,
      height: 3000,
    });
  });

  it.each([
    [
      'a truncated PNG',
      async () => (await makeImage('png', 9, 9)).subarray(0, 20),
      'corrupt PNG: IHDR truncated',
    ],
    [
      'a PNG cut after its signature',
      async () => (await makeImage('png', 9, 9)).subarray(0, 8),
      'corrupt PNG: IHDR missing',
    ],
    [
      'a PNG whose IHDR checksum is wrong',
      async () => {
        const png = Buffer.from(await makeImage('png', 9, 9));
        png[17] = 0x7f; // width changed, CRC not
        return png;
      },
      'corrupt PNG: IHDR checksum mismatch',
    ],
    [
      'a PNG whose first chunk is not IHDR',
      async () => {
        const png = Buffer.from(await makeImage('png', 9, 9));
        png.write('IDAT', 12, 'latin1');
        return png;
      },
      'corrupt PNG: IHDR missing',
    ],
    [
      'a truncated GIF',
      async () => (await makeImage('gif', 9, 9)).subarray(0, 8),
      'corrupt GIF: header truncated',
    ],
    [
      'a truncated WebP',
      async () => (await makeImage('webp', 9, 9)).subarray(0, 24),
      'corrupt WebP: header truncated',
    ],
    [
      'a WebP VP8 without its start code',
      async () => {
        const webp = Buffer.from(await makeImage('webp', 9, 9));
        webp[23] = 0;
        return webp;
      },
      'corrupt WebP: VP8 start code missing',
    ],
    ['a truncated BMP', async () => makeBmp(4, 4).subarray(0, 20), 'corrupt BMP: header truncated'],
    ['plain text', async () => Buffer.from('not an image at all'), 'not a PNG, JPEG, WebP, GIF or BMP image'],
  ])('%s', async (_name, make, message) => {
    const bytes = await make();
    expect(() => readImageHeaderFromBytes(bytes)).toThrow(message);
    const path = await writeFixture(dir, `bad-${_name.replaceAll(' ', '-')}`, bytes);
    await expect(readImageHeader(path)).rejects.toThrow(message);
  });
});
