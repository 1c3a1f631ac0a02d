/**
 * How long a saved song plays, read from the file's own headers (no decoder): WAV from its
 * `fmt ` and `data` chunks, MP3 (what the real service returns) from a Xing/Info or VBRI header
 * when there is one, else from the first frame's bit rate and the file's size (constant bit
 * rate). Null for anything else or anything unreadable: a missing duration is never an error.
 */
import { open } from 'node:fs/promises';
import { readAt } from './positional-read.ts';

/** Bytes read from the start of the file: enough for any header that matters here. */
const HEAD_BYTES = 256 * 1024;

export async function readAudioDuration(path: string): Promise<number | null> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.from(await readAt(handle, 0, Math.min(size, HEAD_BYTES)));
    const seconds = wavSeconds(head) ?? mp3Seconds(head, size);
    return seconds !== null && Number.isFinite(seconds) && seconds > 0
      ? Math.round(seconds * 1000) / 1000
      : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** Seconds of a WAV file: the data chunk's size over the format's bytes per second. */
export function wavSeconds(head: Buffer): number | null {
  if (
    head.length < 12 ||
    head.toString('ascii', 0, 4) !== 'RIFF' ||
    head.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    return null;
  }
  let byteRate = 0;
  for (let at = 12; at + 8 <= head.length; ) {
    const id = head.toString('ascii', at, at + 4);
    const length = head.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= head.length) byteRate = head.readUInt32LE(at + 16);
    if (id === 'data') return byteRate > 0 ? length / byteRate : null;
    at += 8 + length + (length % 2);
  }
  return null;
}

const MP3_BITRATES_KBPS: Record<string, readonly number[]> = {
  // MPEG-1 Layer III, then MPEG-2/2.5 Layer III; index 0 is "free", 15 is invalid
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_SAMPLE_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000], // MPEG-1
  2: [22_050, 24_000, 16_000], // MPEG-2
  0: [11_025, 12_000, 8_000], // MPEG-2.5
};

interface Mp3Frame {
  offset: number;
  mpeg1: boolean;
  mono: boolean;
  bitrateKbps: number;
  sampleRate: number;
  samplesPerFrame: number;
}

/** Where the audio starts: after an ID3v2 tag, if there is one. */
function audioStart(head: Buffer): number {
  if (head.length >= 10 && head.toString('latin1', 0, 3) === 'ID3') {
    const size = ((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0);
    return 10 + size + ((head[5] ?? 0) & 0x10 ? 10 : 0);
  }
  return 0;
}

/** The first MPEG Layer III frame header at or after `from` (within the bytes read). */
function firstFrame(head: Buffer, from: number): Mp3Frame | null {
  for (let at = from; at + 4 <= head.length; at++) {
    if (head[at] !== 0xff || ((head[at + 1] ?? 0) & 0xe0) !== 0xe0) continue;
    const b1 = head[at + 1] ?? 0;
    const b2 = head[at + 2] ?? 0;
    const b3 = head[at + 3] ?? 0;
    const version = (b1 >> 3) & 0x3;
    const layer = (b1 >> 1) & 0x3;
    const bitrateIndex = b2 >> 4;
    const rateIndex = (b2 >> 2) & 0x3;
    if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
      continue;
    const mpeg1 = version === 3;
    const bitrateKbps = (mpeg1 ? MP3_BITRATES_KBPS.v1 : MP3_BITRATES_KBPS.v2)?.[bitrateIndex] ?? 0;
    const sampleRate = MP3_SAMPLE_RATES[version]?.[rateIndex] ?? 0;
    if (bitrateKbps === 0 || sampleRate === 0) continue;
    return {
      offset: at,
      mpeg1,
      mono: b3 >> 6 === 3,
      bitrateKbps,
      sampleRate,
      samplesPerFrame: mpeg1 ? 1152 : 576,
    };
  }
  return null;
}

/** Seconds of an MP3: frames counted by its Xing/Info or VBRI header, else constant bit rate. */
export function mp3Seconds(head: Buffer, fileSize: number): number | null {
  const start = audioStart(head);
  const frame = firstFrame(head, start);
  if (!frame) return null;
  const sideInfo = frame.mpeg1 ? (frame.mono ? 17 : 32) : frame.mono ? 9 : 17;
  const xingAt = frame.offset + 4 + sideInfo;
  const tag = head.toString('latin1', xingAt, xingAt + 4);
  if (
    (tag === 'Xing' || tag === 'Info') &&
    xingAt + 12 <= head.length &&
    (head.readUInt32BE(xingAt + 4) & 1) === 1
  ) {
    return (head.readUInt32BE(xingAt + 8) * frame.samplesPerFrame) / frame.sampleRate;
  }
  const vbriAt = frame.offset + 36;
  if (head.toString('latin1', vbriAt, vbriAt + 4) === 'VBRI' && vbriAt + 18 <= head.length) {
    return (head.readUInt32BE(vbriAt + 14) * frame.samplesPerFrame) / frame.sampleRate;
  }
  return ((fileSize - frame.offset) * 8) / (frame.bitrateKbps * 1000);
}
