/** Reading WAV inputs (the source song of extend, edit and audio2audio), and naming what is not WAV. */
import { describe, expect, it } from 'vitest';
import {
  audioFormatName,
  extendSongWav,
  generateSongWav,
  MediaInputError,
  readWavHeader,
  readWavSamples,
} from '../../../src/sandbox/media/index.ts';
import { readWavInfo } from '../../support/wav-info.ts';

/** A WAV file with the given fmt fields and sample bytes. */
function wav(options: {
  tag?: number;
  channels?: number;
  rate?: number;
  bits: number;
  data: Buffer;
  extensible?: boolean;
  extraChunk?: boolean;
}): Buffer {
  const channels = options.channels ?? 1;
  const rate = options.rate ?? 8000;
  const blockAlign = (channels * options.bits) / 8;
  const fmt = Buffer.alloc(options.extensible ? 40 : 16);
  fmt.writeUInt16LE(options.extensible ? 0xfffe : (options.tag ?? 1), 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(options.bits, 14);
  if (options.extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(options.tag ?? 1, 24);
  }
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
  };
  const chunks = [
    ...(options.extraChunk ? [chunk('LIST', Buffer.from('INFOISFT\x05\x00\x00\x00test\x00', 'latin1'))] : []),
    chunk('data', options.data),
    chunk('fmt ', fmt),
  ];
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

function int16(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 2);
  for (const [i, v] of values.entries()) out.writeInt16LE(v, i * 2);
  return out;
}

describe('readWavHeader and readWavSamples', () => {
  it('copies 16-bit PCM exactly, whatever the chunk order', () => {
    const file = wav({
      bits: 16,
      channels: 2,
      rate: 44100,
      data: int16(1, -2, 32767, -32768),
      extraChunk: true,
    });
    const header = readWavHeader(file);
    expect(header).toMatchObject({
      encoding: 'pcm',
      sampleRate: 44100,
      channels: 2,
      bitsPerSample: 16,
      frames: 2,
    });
    expect(Array.from(readWavSamples(file, header))).toEqual([1, -2, 32767, -32768]);
  });

  it('reads 8-bit, 24-bit and 32-bit PCM and 32/64-bit float (also as WAVE_FORMAT_EXTENSIBLE) into 16 bits', () => {
    const eight = wav({ bits: 8, data: Buffer.from([128, 255, 0]) });
    expect(Array.from(readWavSamples(eight, readWavHeader(eight)))).toEqual([0, 32512, -32768]);
    const b24 = Buffer.alloc(6);
    b24.writeIntLE(0x400000, 0, 3);
    b24.writeIntLE(-0x800000, 3, 3);
    const twentyFour = wav({ bits: 24, data: b24, extensible: true });
    expect(Array.from(readWavSamples(twentyFour, readWavHeader(twentyFour)))).toEqual([16384, -32768]);
    const f32 = Buffer.alloc(12);
    f32.writeFloatLE(0.5, 0);
    f32.writeFloatLE(-1.5, 4);
    f32.writeFloatLE(1, 8);
    const float = wav({ tag: 3, bits: 32, data: f32 });
    expect(readWavHeader(float).encoding).toBe('float');
    expect(Array.from(readWavSamples(float, readWavHeader(float)))).toEqual([16384, -32768, 32767]);
    const f64 = Buffer.alloc(8);
    f64.writeDoubleLE(-0.25, 0);
    const double = wav({ tag: 3, bits: 64, data: f64, extensible: true });
    expect(Array.from(readWavSamples(double, readWavHeader(double)))).toEqual([-8192]);
    const i32 = Buffer.alloc(4);
    i32.writeInt32LE(-1073741824, 0);
    const thirtyTwo = wav({ bits: 32, data: i32 });
    expect(Array.from(readWavSamples(thirtyTwo, readWavHeader(thirtyTwo)))).toEqual([-16384]);
  });

  it('names what it cannot read', () => {
    const problem = (bytes: Buffer) => {
      try {
        readWavHeader(bytes);
      } catch (err) {
        expect(err).toBeInstanceOf(MediaInputError);
        return (err as Error).message;
      }
      return 'read';
    };
    expect(problem(Buffer.from('ID3\x04\x00rest of an mp3', 'latin1'))).toBe('is MP3, not WAV');
    expect(problem(Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0]))).toBe('is MP3, not WAV');
    expect(problem(Buffer.from('OggS\x00\x02', 'latin1'))).toBe('is Ogg, not WAV');
    expect(problem(Buffer.from('fLaC\x00\x00', 'latin1'))).toBe('is FLAC, not WAV');
    expect(problem(Buffer.from('\x00\x00\x00\x20ftypM4A ', 'latin1'))).toBe('is MP4/M4A, not WAV');
    expect(problem(Buffer.from('plain text'))).toBe('is not a WAV file');
    expect(problem(wav({ tag: 2, bits: 8, data: Buffer.alloc(4) }))).toBe(
      'is a WAV file in encoding 2 (only PCM and IEEE float are read)',
    );
    expect(problem(wav({ bits: 16, rate: 4000, data: int16(1) }))).toBe(
      'is a WAV file at 4000 Hz (8000 to 96000 Hz are read)',
    );
    expect(problem(wav({ bits: 16, data: Buffer.alloc(0) }))).toBe('is a WAV file with no samples');
    expect(problem(Buffer.from('RIFF\x04\x00\x00\x00WAVE', 'latin1'))).toBe(
      'is a WAV file without a readable fmt chunk',
    );
    expect(audioFormatName(Buffer.from([0xff, 0xf1, 0x50, 0x80]))).toBe('AAC (ADTS)');
  });
});

describe('extendSongWav', () => {
  const source = generateSongWav({
    stylePrompt: 'piano',
    lyrics: '[inst]',
    durationSeconds: 1.5,
    sampleRate: 16000,
  });
  const header = readWavHeader(source);
  const song = { stylePrompt: 'strings', lyrics: '[verse]\nmore', seedText: 'x' };

  it('is round(left x rate) + source + round(right x rate) frames with the source unchanged in the middle', () => {
    const out = extendSongWav({ source, header, leftSeconds: 0.33, rightSeconds: 2.01, song });
    const outHeader = readWavHeader(out);
    const left = Math.round(0.33 * 16000);
    expect(outHeader).toMatchObject({ sampleRate: 16000, channels: 1, frames: left + header.frames + 32160 });
    const samples = readWavSamples(out, outHeader);
    expect(Array.from(samples.subarray(left, left + header.frames))).toEqual(
      Array.from(readWavSamples(source, header)),
    );
    // the new parts are never louder than the source's peak
    const peak = (s: Int16Array) => s.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak(samples)).toBe(peak(readWavSamples(source, header)));
    expect(readWavInfo(out).rms).toBeGreaterThan(0.05);
  });

  it('adds nothing on a side of 0 seconds, and writes the new music into every channel', () => {
    const onlyRight = extendSongWav({ source, header, leftSeconds: 0, rightSeconds: 1, song });
    expect(onlyRight.subarray(44, 44 + header.frames * 2).equals(source.subarray(44))).toBe(true);
    const stereo = wav({ bits: 16, channels: 2, rate: 8000, data: int16(100, -100, 200, -200) });
    const out = extendSongWav({
      source: stereo,
      header: readWavHeader(stereo),
      leftSeconds: 0,
      rightSeconds: 0.5,
      song,
    });
    const samples = readWavSamples(out, readWavHeader(out));
    expect(Array.from(samples.subarray(0, 4))).toEqual([100, -100, 200, -200]);
    expect(samples.length).toBe((2 + 4000) * 2);
    for (let i = 4; i < samples.length; i += 2) expect(samples[i]).toBe(samples[i + 1]);
  });
});
