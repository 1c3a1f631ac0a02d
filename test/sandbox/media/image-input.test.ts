import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkImageSize,
  decodeImageBytes,
  decodeImageInput,
  decodeMediaBase64,
  imageDimensions,
  MediaInputError,
} from '../../../src/sandbox/media/index.ts';
import { hugeJpeg, hugePng } from '../../support/oversized-pictures.ts';

const solidPng = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

async function fetchUrl(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

const noFetch = async (url: string): Promise<Buffer> => {
  throw new Error(`unexpected fetch of ${url}`);
};

let server: Server;
let base: string;
let orange: Buffer;

beforeAll(async () => {
  orange = await solidPng(40, 30, '#ff8000');
  const jpeg = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#0000ff' } })
    .jpeg()
    .toBuffer();
  const files: Record<string, Buffer> = {
    '/orange.png': orange,
    '/blue.jpg': jpeg,
    '/notes.png': Buffer.from('these are notes, not pixels'),
  };
  server = createServer((req, res) => {
    const body = files[req.url ?? ''];
    res.writeHead(body ? 200 : 404).end(body ?? 'missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function expectPixel(image: { data: Buffer; width: number }, x: number, y: number): number[] {
  const o = (y * image.width + x) * 4;
  return Array.from(image.data.subarray(o, o + 4));
}

describe('decodeImageInput', () => {
  it('downloads an http URL through fetchUrl and decodes it to RGBA', async () => {
    const image = await decodeImageInput(`${base}/orange.png`, fetchUrl);
    expect(image).toMatchObject({ width: 40, height: 30, format: 'png' });
    expect(image.data.length).toBe(40 * 30 * 4);
    expect(expectPixel(image, 5, 5)).toEqual([255, 128, 0, 255]);
    const jpeg = await decodeImageInput(`${base}/blue.jpg`, fetchUrl);
    expect(jpeg).toMatchObject({ width: 24, height: 16, format: 'jpeg' });
  });

  it('decodes a data URI, raw Base64 and URL-safe Base64 with line breaks', async () => {
    const b64 = orange.toString('base64');
    for (const value of [
      `data:image/png;base64,${b64}`,
      b64,
      `  ${orange.toString('base64url').replace(/(.{60})/g, '$1\n')}  `,
    ]) {
      const image = await decodeImageInput(value, noFetch);
      expect([image.width, image.height, image.format]).toEqual([40, 30, 'png']);
      expect(expectPixel(image, 39, 29)).toEqual([255, 128, 0, 255]);
    }
  });

  it('says what is wrong with an unusable value', async () => {
    const cases: [string, RegExp][] = [
      ['not base64 at all!', /neither an http\(s\) URL, a data URI nor valid Base64/],
      [Buffer.from('plain text, no picture here').toString('base64'), /^Base64 does not decode to an image$/],
      ['data:image/png;base64,@@@', /data URI does not carry valid Base64/],
      [
        `data:image/png;base64,${Buffer.from('GIF89a?').toString('base64')}`,
        /the data URI does not decode to an image/,
      ],
      [`${base}/notes.png`, /downloaded from the URL does not decode to an image/],
      [`${base}/absent.png`, /could not download the image from .*absent\.png: HTTP 404/],
      ['ftp://example.test/a.png', /scheme .* not supported/],
      ['   ', /image value is empty/],
    ];
    for (const [value, message] of cases) {
      const error = await decodeImageInput(value, fetchUrl).catch((e: unknown) => e);
      expect(error, value).toBeInstanceOf(MediaInputError);
      expect((error as Error).message, value).toMatch(message);
    }
  });

  it('refuses an image with a side of 2048 px or more', async () => {
    const big = await solidPng(3000, 3000, '#808080');
    await expect(decodeImageInput(big.toString('base64'), noFetch)).rejects.toThrow(
      'image is 3000 x 3000 px; each side must be under 2048 px',
    );
    const edge = await solidPng(2048, 10, '#808080');
    await expect(decodeImageInput(edge.toString('base64'), noFetch)).rejects.toBeInstanceOf(MediaInputError);
    const wide = await decodeImageInput(edge.toString('base64'), noFetch, { maxSide: 4096 });
    expect(wide.width).toBe(2048);
  });
});

describe('pictures too large to decode (issue 17 item 3)', () => {
  const tooLarge = (size: string) =>
    `the picture is ${size} px; the app decodes pictures of at most 16384 px a side and 67.1 million pixels`;

  it('decodeImageBytes refuses from the header, before any decode, a picture claiming 99,000,000 x 1 or 65,000 x 65,000', async () => {
    const started = Date.now();
    await expect(decodeImageBytes(hugePng(99_000_000, 1))).rejects.toThrow(
      new MediaInputError(tooLarge('99000000 x 1')),
    );
    await expect(decodeImageBytes(await hugeJpeg(65_000, 65_000))).rejects.toThrow(
      new MediaInputError(tooLarge('65000 x 65000')),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('decodeImageInput with the side check turned off is still bounded', async () => {
    const value = hugePng(20_000, 1).toString('base64');
    await expect(decodeImageInput(value, noFetch, { maxSide: Number.POSITIVE_INFINITY })).rejects.toThrow(
      new MediaInputError(tooLarge('20000 x 1')),
    );
  });
});

describe('imageDimensions and checkImageSize', () => {
  it('reads the size of a 3000 x 3000 PNG from its header', async () => {
    const big = await solidPng(3000, 3000, '#102030');
    expect(await imageDimensions(big)).toEqual({ width: 3000, height: 3000, format: 'png' });
    expect(() => checkImageSize({ width: 3000, height: 3000 })).toThrow(
      new MediaInputError('image is 3000 x 3000 px; each side must be under 2048 px'),
    );
    expect(() => checkImageSize({ width: 2047, height: 2047 })).not.toThrow();
  });

  it('throws MediaInputError for bytes that are not an image, and for a truncated one', async () => {
    await expect(imageDimensions(Buffer.from('hello'))).rejects.toBeInstanceOf(MediaInputError);
    await expect(imageDimensions(Buffer.alloc(0))).rejects.toThrow('image data is empty');
    const noisy = await sharp(Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 64, height: 64, channels: 3 },
    })
      .png()
      .toBuffer();
    await expect(decodeImageBytes(noisy.subarray(0, Math.floor(noisy.length / 2)))).rejects.toBeInstanceOf(
      MediaInputError,
    );
  });
});

describe('decodeMediaBase64', () => {
  it('accepts standard and URL-safe Base64, padded or not, with whitespace', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x01, 0x02]);
    for (const text of [
      '+/+/AQI=',
      '-_-_AQI',
      ' +/+/\nAQI= ',
      'data:application/octet-stream;base64,+/+/AQI=',
    ]) {
      expect(decodeMediaBase64(text), text).toEqual(bytes);
    }
  });

  it('returns null for text that is not Base64', () => {
    for (const text of [
      '',
      '====',
      'abc*',
      'abcde',
      'ab=c',
      'abc===',
      'abcdef=',
      'data:text/plain,hello',
      'héllo',
    ]) {
      expect(decodeMediaBase64(text), text).toBeNull();
    }
  });
});
