/**
 * A saved song's length read from its headers: WAV (the sandbox's songs), MP3 as the real
 * service returns it (constant bit rate, or a Xing/Info header, after an ID3 tag), and nothing
 * for what is not audio. Real files in a temporary folder; the MP3s are built frame by frame.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudioDuration } from '../../src/core/inputs/index.ts';
import { encodeWav16 } from '../../src/sandbox/media/wav-encode.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mts-duration-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One MPEG-1 Layer III frame, 128 kbit/s, 44.1 kHz, stereo, no padding: 417 bytes. */
function frame(payload: Buffer = Buffer.alloc(0)): Buffer {
  const bytes = Buffer.alloc(417);
  bytes.set([0xff, 0xfb, 0x90, 0x00], 0);
  payload.copy(bytes, 4 + 32);
  return bytes;
}

function id3Tag(bodyBytes: number): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
  // syncsafe size: 7 bits a byte
  header[6] = (bodyBytes >> 21) & 0x7f;
  header[7] = (bodyBytes >> 14) & 0x7f;
  header[8] = (bodyBytes >> 7) & 0x7f;
  header[9] = bodyBytes & 0x7f;
  return Buffer.concat([header, Buffer.alloc(bodyBytes)]);
}

async function file(name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('readAudioDuration', () => {
  it('reads a WAV from its format and data chunks', async () => {
    const wav = encodeWav16(new Int16Array(22_050 * 3), 22_050);
    expect(await readAudioDuration(await file('song.wav', wav))).toBe(3);
  });

  it('reads a constant-bit-rate MP3 from its first frame and its size', async () => {
    const frames = Buffer.concat(Array.from({ length: 383 }, () => frame()));
    const seconds = await readAudioDuration(await file('cbr.mp3', frames));
    // 383 frames x 1152 samples / 44,100 Hz = 10.005 s; the size estimate is within a frame
    expect(seconds).toBeCloseTo((383 * 1152) / 44_100, 1);
  });

  it('reads a variable-bit-rate MP3 from its Xing header, after an ID3 tag', async () => {
    const xing = Buffer.alloc(12);
    xing.write('Xing', 0, 'latin1');
    xing.writeUInt32BE(1, 4); // frames field present
    xing.writeUInt32BE(2_297, 8); // 60.0 s of 1152-sample frames at 44.1 kHz
    const body = Buffer.concat([frame(xing), ...Array.from({ length: 20 }, () => frame())]);
    const seconds = await readAudioDuration(await file('vbr.mp3', Buffer.concat([id3Tag(2_000), body])));
    expect(seconds).toBeCloseTo((2_297 * 1152) / 44_100, 3);
  });

  it('gives nothing for files that are not audio, or that are cut short', async () => {
    expect(await readAudioDuration(await file('note.txt', Buffer.from('not audio at all')))).toBeNull();
    expect(await readAudioDuration(await file('cut.wav', Buffer.from('RIFF\0\0\0\0WAVE')))).toBeNull();
    expect(await readAudioDuration(await file('empty.mp3', Buffer.alloc(0)))).toBeNull();
  });
});
