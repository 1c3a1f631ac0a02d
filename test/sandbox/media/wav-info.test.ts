import { describe, expect, it } from 'vitest';
import { MediaInputError } from '../../../src/sandbox/media/index.ts';
import { readWavInfo } from '../../support/wav-info.ts';

interface Chunk {
  id: string;
  body: Buffer;
}

function riff(chunks: Chunk[]): Buffer {
  const parts = chunks.flatMap(({ id, body }) => {
    const header = Buffer.alloc(8);
    header.write(id, 0, 'ascii');
    header.writeUInt32LE(body.length, 4);
    return body.length % 2 ? [header, body, Buffer.alloc(1)] : [header, body];
  });
  const payload = Buffer.concat(parts);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(payload.length + 4, 4);
  head.write('WAVE', 8, 'ascii');
  return Buffer.concat([head, payload]);
}

function fmt(tag: number, channels: number, rate: number, bits: number): Chunk {
  const body = Buffer.alloc(16);
  body.writeUInt16LE(tag, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(rate, 4);
  body.writeUInt32LE((rate * channels * bits) / 8, 8);
  body.writeUInt16LE((channels * bits) / 8, 12);
  body.writeUInt16LE(bits, 14);
  return { id: 'fmt ', body };
}

describe('readWavInfo', () => {
  it('walks chunks in any order, skipping padded odd-sized ones, and measures 24-bit stereo', () => {
    const frames = 4800;
    const data = Buffer.alloc(frames * 2 * 3);
    // A full-scale square wave on both channels: RMS 1.
    for (let i = 0; i < frames * 2; i++) data.writeIntLE(i % 4 < 2 ? 8388607 : -8388608, i * 3, 3);
    const wav = riff([
      { id: 'LIST', body: Buffer.from('odd') },
      { id: 'data', body: data },
      fmt(1, 2, 48000, 24),
    ]);
    const info = readWavInfo(wav);
    expect(info).toMatchObject({ sampleRate: 48000, channels: 2, bitsPerSample: 24, durationSeconds: 0.1 });
    expect(info.rms).toBeCloseTo(1, 5);
  });

  it('reads 32-bit float samples', () => {
    const data = Buffer.alloc(400 * 4);
    for (let i = 0; i < 400; i++) data.writeFloatLE(0.5, i * 4);
    const info = readWavInfo(riff([fmt(3, 1, 8000, 32), { id: 'data', body: data }]));
    expect(info.durationSeconds).toBe(0.05);
    expect(info.rms).toBeCloseTo(0.5, 6);
  });

  it('reports silence as RMS 0 and keeps what a truncated data chunk holds', () => {
    const wav = riff([fmt(1, 1, 1000, 16), { id: 'data', body: Buffer.alloc(2000) }]);
    expect(readWavInfo(wav).rms).toBe(0);
    expect(readWavInfo(wav.subarray(0, wav.length - 1000)).durationSeconds).toBe(0.5);
  });

  it('refuses what is not a usable WAV', () => {
    expect(() => readWavInfo(Buffer.from('not a wav file at all'))).toThrow(MediaInputError);
    expect(() => readWavInfo(riff([{ id: 'data', body: Buffer.alloc(4) }]))).toThrow(/no fmt chunk/);
    expect(() => readWavInfo(riff([fmt(1, 1, 8000, 16)]))).toThrow(/no data chunk/);
    expect(() => readWavInfo(riff([fmt(2, 1, 8000, 16), { id: 'data', body: Buffer.alloc(4) }]))).toThrow(
      /encoding 2 is not supported/,
    );
  });
});
