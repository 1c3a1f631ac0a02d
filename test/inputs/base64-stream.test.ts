import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Chunks } from '../../src/core/inputs/index.ts';

async function* split(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(from, Math.max(from, cut));
    from = Math.max(from, cut);
  }
  yield bytes.subarray(from);
}

async function encode(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const out: Uint8Array[] = [];
  for await (const chunk of base64Chunks(chunks)) out.push(chunk);
  return Buffer.concat(out).toString('latin1');
}

describe('base64Chunks', () => {
  it('property: any split of any bytes encodes to the Base64 of the whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .uint8Array({ maxLength: 500 })
          .chain((bytes) =>
            fc.tuple(
              fc.constant(bytes),
              fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 20 }),
            ),
          ),
        async ([bytes, cuts]) => {
          expect(await encode(split(bytes, cuts))).toBe(Buffer.from(bytes).toString('base64'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('chunks of 1 and 2 bytes are carried, and padding comes only at the end', async () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7]);
    const out: string[] = [];
    for await (const chunk of base64Chunks(split(bytes, [1, 2, 4])))
      out.push(Buffer.from(chunk).toString('latin1'));
    expect(out.join('')).toBe(Buffer.from(bytes).toString('base64'));
    expect(out.slice(0, -1).every((part) => !part.includes('='))).toBe(true);
  });

  it('does not keep a reference to a chunk the caller reuses', async () => {
    const shared = Buffer.from([10, 20, 30, 40]);
    async function* reused(): AsyncGenerator<Uint8Array> {
      yield shared;
      shared.fill(0); // the caller overwrites its buffer before the next chunk
      yield Buffer.from([50, 60]);
    }
    expect(await encode(reused())).toBe(Buffer.from([10, 20, 30, 40, 50, 60]).toString('base64'));
  });
});
