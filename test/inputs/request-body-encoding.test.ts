import { readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CreateRequestBody,
  encodeCreateRequestBody,
  encodedBodyLength,
  encodedBodyLengthFromSizes,
  type FileInputPaths,
} from '../../src/core/inputs/index.ts';
import { makeTempDir, writeFixture } from './input-fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup());

async function collect(body: AsyncIterable<Uint8Array>): Promise<{ bytes: Buffer; largestChunk: number }> {
  const chunks: Uint8Array[] = [];
  let largestChunk = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    largestChunk = Math.max(largestChunk, chunk.length);
  }
  return { bytes: Buffer.concat(chunks), largestChunk };
}

/** What the streaming encoder must equal: the whole files read and encoded at once. */
async function naiveBody(request: CreateRequestBody, files: FileInputPaths): Promise<string> {
  let input = request.input;
  for (const [field, path] of Object.entries(files)) {
    input = { ...input, [field]: (await readFile(path)).toString('base64') };
  }
  return JSON.stringify({ ...request, input });
}

const faceSwap = (): CreateRequestBody => ({
  model: 'service/image-toolkit',
  task_type: 'face-swap',
  input: { target_image: '', swap_image: 'https://example.com/face.png' },
  config: { webhook_config: { endpoint: '', secret: '' } },
});

function pseudoRandomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 255;
  }
  return bytes;
}

async function expectSameAsNaive(request: CreateRequestBody, files: FileInputPaths, chunkBytes?: number) {
  const { bytes } = await collect(encodeCreateRequestBody(request, files, { chunkBytes }));
  const naive = await naiveBody(request, files);
  expect(bytes.toString('utf8')).toBe(naive);
  expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(naive));
  expect(await encodedBodyLength(request, files)).toBe(bytes.length);
}

describe('encodeCreateRequestBody', () => {
  const sizes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 299, 300, 301, 65_534, 65_535, 65_536, 3 * 65_535 + 1];
  it.each(sizes)('a %i-byte file gives exactly the naive JSON', async (size) => {
    const path = await writeFixture(dir, `file-${size}.bin`, pseudoRandomBytes(size, size + 1));
    await expectSameAsNaive(faceSwap(), { target_image: path });
  });

  it('a few MB, read in bounded chunks', async () => {
    const size = 3 * 1024 * 1024 + 2;
    const path = await writeFixture(dir, 'big.bin', pseudoRandomBytes(size, 42));
    const { bytes, largestChunk } = await collect(
      encodeCreateRequestBody(faceSwap(), { target_image: path }),
    );
    expect(bytes.toString('utf8')).toBe(await naiveBody(faceSwap(), { target_image: path }));
    // 64 KiB of file per chunk: about 87 KB of Base64, whatever the file size.
    expect(largestChunk).toBeLessThanOrEqual(Math.ceil(65_535 / 3) * 4);
  });

  it('several file fields, new fields appended after existing ones, in the naive order', async () => {
    const a = await writeFixture(dir, 'a.bin', pseudoRandomBytes(1000, 1));
    const b = await writeFixture(dir, 'b.bin', pseudoRandomBytes(1001, 2));
    const c = await writeFixture(dir, 'c.bin', pseudoRandomBytes(1002, 3));
    const request: CreateRequestBody = {
      model: 'service/image-edit',
      task_type: 'image-edit',
      input: { prompt: 'put image2 in image1', image2: 'placeholder', seed: 7, steps: 30, flow_shift: 3.5 },
    };
    await expectSameAsNaive(request, { image1: a, image2: b, image3: c }, 7);
  });

  it('other fields are serialised as JSON.stringify does: unicode, escapes, nesting, odd keys', async () => {
    const path = await writeFixture(dir, 'u.bin', pseudoRandomBytes(17, 5));
    const request: CreateRequestBody = {
      model: 'service/ace-step',
      task_type: 'txt2audio',
      input: {
        style_prompt: 'jazz é 中文 🎷 "quoted" \\ back\nslash \u2028 \u0000',
        lyrics: '[verse]\nla la',
        duration: 30.5,
        nested: { a: [1, null, true] },
        '"tricky key"': 1,
        skipped: undefined,
      },
    };
    const files = Object.fromEntries([
      ['style_audio', path],
      ['__proto__', path],
    ]);
    await expectSameAsNaive(request, files);
    const { bytes } = await collect(encodeCreateRequestBody(request, files));
    expect(Object.keys(JSON.parse(bytes.toString('utf8')).input)).toContain('__proto__');
  });

  it('a value that looks like the encoder placeholder does not confuse it', async () => {
    const path = await writeFixture(dir, 'p.bin', pseudoRandomBytes(10, 6));
    const request = faceSwap();
    request.input.swap_image = '@@file-00000000-0000-0000-0000-000000000000-0@@';
    await expectSameAsNaive(request, { target_image: path });
  });

  it('with no files it is plain JSON.stringify', async () => {
    const { bytes } = await collect(encodeCreateRequestBody(faceSwap(), {}));
    expect(bytes.toString('utf8')).toBe(JSON.stringify(faceSwap()));
    expect(encodedBodyLengthFromSizes(faceSwap(), {})).toBe(bytes.length);
  });

  it('property: random bytes and random chunk sizes give the naive JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.integer({ min: 1, max: 700 }),
        fc.string({ maxLength: 20 }),
        async (bytes, chunkBytes, prompt) => {
          const path = join(dir, 'prop.bin');
          await writeFixture(dir, 'prop.bin', bytes);
          const request = { ...faceSwap(), input: { ...faceSwap().input, note: prompt } };
          const { bytes: body } = await collect(
            encodeCreateRequestBody(request, { target_image: path }, { chunkBytes }),
          );
          expect(body.toString('utf8')).toBe(await naiveBody(request, { target_image: path }));
          expect(encodedBodyLengthFromSizes(request, { target_image: bytes.length })).toBe(body.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('encodedBodyLength needs only the sizes (a sparse 100 MB file is never read)', async () => {
    const path = await writeFixture(dir, 'sparse.bin', '');
    await truncate(path, 100 * 1024 * 1024);
    const expected = JSON.stringify(faceSwap()).length + Math.ceil((100 * 1024 * 1024) / 3) * 4;
    expect(await encodedBodyLength(faceSwap(), { target_image: path })).toBe(expected);
  });

  it('fails, rather than sending a wrong body, when a file is missing or changes size', async () => {
    await expect(
      collect(encodeCreateRequestBody(faceSwap(), { target_image: join(dir, 'nope') })),
    ).rejects.toThrow('ENOENT');
    const path = await writeFixture(dir, 'shrinks.bin', pseudoRandomBytes(300_000, 9));
    const body = encodeCreateRequestBody(faceSwap(), { target_image: path });
    const iterator = body[Symbol.asyncIterator]();
    await iterator.next(); // the JSON before the file
    await iterator.next(); // the first chunk of the file
    await truncate(path, 100_000);
    await expect(
      (async () => {
        for (;;) if ((await iterator.next()).done) break;
      })(),
    ).rejects.toThrow('file changed while it was being sent');
  });
});
