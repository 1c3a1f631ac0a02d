/**
 * Reading the header of a RIFF/WAVE file and measuring its loudness: how tests check the songs
 * the sandbox makes (test-only; the app reads song lengths with src/core/inputs).
 */
import { MediaInputError } from '../../src/sandbox/media/index.ts';

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationSeconds: number;
  /** Root mean square of all samples, full scale = 1 (a full-scale square wave reads 1, silence 0). */
  rms: number;
}

interface WavFormat {
  encoding: 'pcm' | 'float';
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
}

interface Chunk {
  id: string;
  start: number;
  size: number;
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

/** Parses the RIFF chunks of a WAV file (any chunk order, odd-size padding) and measures it. */
export function readWavInfo(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new MediaInputError('not a WAV file: missing RIFF/WAVE header');
  }
  const chunks = listChunks(buf);
  const fmtChunk = chunks.find((c) => c.id === 'fmt ');
  const dataChunk = chunks.find((c) => c.id === 'data');
  if (!fmtChunk) throw new MediaInputError('WAV file has no fmt chunk');
  if (!dataChunk) throw new MediaInputError('WAV file has no data chunk');
  const format = parseFormat(buf, fmtChunk);
  const frames = Math.floor(dataChunk.size / format.blockAlign);
  return {
    sampleRate: format.sampleRate,
    channels: format.channels,
    bitsPerSample: format.bitsPerSample,
    durationSeconds: frames / format.sampleRate,
    rms: measureRms(buf, dataChunk.start, frames * format.channels, format),
  };
}

function listChunks(buf: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 12;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const declared = buf.readUInt32LE(offset + 4);
    const start = offset + 8;
    // A streamed file may declare more data than it holds: keep what is there.
    const size = Math.min(declared, buf.length - start);
    chunks.push({ id, start, size });
    offset = start + declared + (declared % 2);
  }
  return chunks;
}

function parseFormat(buf: Buffer, chunk: Chunk): WavFormat {
  if (chunk.size < 16) throw new MediaInputError('WAV fmt chunk is shorter than 16 bytes');
  let tag = buf.readUInt16LE(chunk.start);
  if (tag === FORMAT_EXTENSIBLE && chunk.size >= 26) tag = buf.readUInt16LE(chunk.start + 24);
  const channels = buf.readUInt16LE(chunk.start + 2);
  const sampleRate = buf.readUInt32LE(chunk.start + 4);
  const blockAlign = buf.readUInt16LE(chunk.start + 12);
  const bitsPerSample = buf.readUInt16LE(chunk.start + 14);
  if (tag !== FORMAT_PCM && tag !== FORMAT_FLOAT) {
    throw new MediaInputError(`WAV encoding ${tag} is not supported (only PCM and IEEE float)`);
  }
  const encoding = tag === FORMAT_PCM ? 'pcm' : 'float';
  const supportedBits = encoding === 'pcm' ? [8, 16, 24, 32] : [32, 64];
  if (!supportedBits.includes(bitsPerSample)) {
    throw new MediaInputError(`WAV with ${bitsPerSample}-bit ${encoding} samples is not supported`);
  }
  if (channels < 1 || sampleRate < 1)
    throw new MediaInputError('WAV declares no channels or a zero sample rate');
  if (blockAlign !== (channels * bitsPerSample) / 8) {
    throw new MediaInputError(
      `WAV block align ${blockAlign} does not match ${channels} x ${bitsPerSample} bits`,
    );
  }
  return { encoding, channels, sampleRate, bitsPerSample, blockAlign };
}

function measureRms(buf: Buffer, start: number, count: number, format: WavFormat): number {
  if (count === 0) return 0;
  const read = sampleReader(buf, format);
  const step = format.bitsPerSample / 8;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const v = read(start + i * step);
    sum += v * v;
  }
  return Math.sqrt(sum / count);
}

/** A function reading one sample at a byte offset, scaled to [-1, 1]. */
function sampleReader(buf: Buffer, format: WavFormat): (offset: number) => number {
  if (format.encoding === 'float') {
    return format.bitsPerSample === 32 ? (o) => buf.readFloatLE(o) : (o) => buf.readDoubleLE(o);
  }
  switch (format.bitsPerSample) {
    case 8:
      return (o) => (buf[o]! - 128) / 128;
    case 16:
      return (o) => buf.readInt16LE(o) / 32768;
    case 24:
      return (o) => buf.readIntLE(o, 3) / 8388608;
    default:
      return (o) => buf.readInt32LE(o) / 2147483648;
  }
}
