import { open } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mp4ReadError, readAt, readMp4Facts, readMp4FactsFromBytes } from '../../src/core/inputs/index.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { makeTempDir, writeFixture } from './input-fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup());

function box(type: string, ...payload: Uint8Array[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

describe('readMp4Facts on MP4s the sandbox writes', () => {
  it('reads size, length and frames from bytes', async () => {
    const mp4 = generateVideoMp4({ prompt: 'facts', seconds: 2, width: 320, height: 180, fps: 12 });
    expect(await readMp4FactsFromBytes(mp4)).toEqual({
      width: 320,
      height: 180,
      durationSeconds: 2,
      frames: 24,
    });
  });

  it('reads the same from a file with positional reads, few and small', async () => {
    const mp4 = generateVideoMp4({ prompt: 'facts', seconds: 1, fps: 10 });
    const path = await writeFixture(dir, 'clip.mp4', mp4);
    const handle = await open(path, 'r');
    const reads: number[] = [];
    try {
      const facts = await readMp4Facts((position, length) => {
        reads.push(length);
        return readAt(handle, position, length);
      }, mp4.length);
      expect(facts).toEqual({ width: 160, height: 96, durationSeconds: 1, frames: 10 });
    } finally {
      await handle.close();
    }
    expect(reads.length).toBeLessThan(40);
    expect(Math.max(...reads)).toBeLessThanOrEqual(96);
  });
});

describe('readMp4Facts on broken and hostile files', () => {
  const mp4 = generateVideoMp4({ prompt: 'hostile', seconds: 1 });

  it('a file cut short says so', async () => {
    for (const length of [40, Math.floor(mp4.length / 2), mp4.length - 1]) {
      await expect(readMp4FactsFromBytes(mp4.subarray(0, length))).rejects.toThrow(Mp4ReadError);
    }
    // the moov comes before mdat in these files: cut inside mdat, the box walk sees mdat run past the end
    await expect(readMp4FactsFromBytes(mp4.subarray(0, mp4.length - 1))).rejects.toThrow(/cut short/);
  });

  it('no moov, no video track, a box smaller than its header', async () => {
    const ftyp = mp4.subarray(0, mp4.readUInt32BE(0));
    await expect(readMp4FactsFromBytes(ftyp)).rejects.toThrow('it has no movie header (moov box)');
    await expect(readMp4FactsFromBytes(Buffer.concat([ftyp, box('moov')]))).rejects.toThrow(
      'it has no video track',
    );
    const tiny = Buffer.concat([ftyp, Buffer.from([0, 0, 0, 3, 0x6d, 0x6f, 0x6f, 0x76])]);
    await expect(readMp4FactsFromBytes(tiny)).rejects.toThrow(
      'its "moov" box at byte 32 has a broken size (3)',
    );
  });

  it('a box claiming 2^60 bytes or a huge stts count allocates nothing big', async () => {
    const ftyp = mp4.subarray(0, mp4.readUInt32BE(0));
    const huge = Buffer.alloc(16);
    huge.writeUInt32BE(1, 0);
    huge.write('moov', 4, 'latin1');
    huge.writeUInt32BE(0x10000000, 8);
    await expect(readMp4FactsFromBytes(Buffer.concat([ftyp, huge]))).rejects.toThrow('impossible size');
    // a moov of 100,000 empty boxes: the walk stops early
    const many = box('moov', Buffer.alloc(8 * 100_000, Buffer.from([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65])));
    await expect(readMp4FactsFromBytes(Buffer.concat([ftyp, many]))).rejects.toThrow(
      'moov holds too many boxes',
    );
    const stts = Buffer.alloc(8);
    stts.writeUInt32BE(0xffffffff, 4);
    const track = box(
      'trak',
      box('tkhd', Buffer.alloc(84)),
      box(
        'mdia',
        box('hdlr', Buffer.from('\0\0\0\0\0\0\0\0vide', 'latin1')),
        box('minf', box('stbl', box('stts', stts))),
      ),
    );
    await expect(readMp4FactsFromBytes(Buffer.concat([ftyp, box('moov', track)]))).rejects.toThrow(
      'its frame timing (stts box) is broken or too long',
    );
  });
});
