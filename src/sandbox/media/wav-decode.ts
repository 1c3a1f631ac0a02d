/**
 * Reading WAV files given as audio inputs (extend, edit and remix read their source song): the
 * header is checked on its own (cheap, so a file that cannot be used is named before any work),
 * then the samples are read into 16-bit PCM. PCM of 8, 16, 24 or 32 bits and IEEE float of 32 or
 * 64 bits are read, in any chunk order, including WAVE_FORMAT_EXTENSIBLE. Other formats (MP3,
 * Ogg, FLAC, M4A) are named in the error, not decoded.
 */
import { MediaInputError } from './media-input-error.ts';

export interface WavHeader {
  encoding: 'pcm' | 'float';
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Byte offset of the first sample in the file. */
  dataOffset: number;
  /** Sample frames held (one sample per channel each). */
  frames: number;
}

/** Sample rates the sandbox reads and writes. */
export const WAV_MIN_RATE = 8000;
export const WAV_MAX_RATE = 96000;
const MAX_CHANNELS = 8;

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

/** What kind of file the bytes are, in words, from their first bytes (for messages). */
export function audioFormatName(bytes: Buffer): string {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'WAV';
  if (bytes.length >= 3 && ascii(0, 3) === 'ID3') return 'MP3';
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xf6) === 0xf0) return 'AAC (ADTS)';
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return 'MP3';
  if (bytes.length >= 4 && ascii(0, 4) === 'OggS') return 'Ogg';
  if (bytes.length >= 4 && ascii(0, 4) === 'fLaC') return 'FLAC';
  if (bytes.length >= 8 && ascii(4, 8) === 'ftyp') return 'MP4/M4A';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'WebM/Matroska';
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'a PNG image';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'a JPEG image';
  return 'not a known audio format';
}

interface Chunk {
  id: string;
  start: number;
  size: number;
}

function listChunks(bytes: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const declared = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    // a streamed file may declare more data than it holds: keep what is there
    chunks.push({ id, start, size: Math.min(declared, bytes.length - start) });
    offset = start + declared + (declared % 2);
  }
  return chunks;
}

/** Checks a WAV file's header; throws a MediaInputError saying what cannot be read. */
export function readWavHeader(bytes: Buffer): WavHeader {
  const kind = audioFormatName(bytes);
  if (kind !== 'WAV') {
    throw new MediaInputError(
      kind === 'not a known audio format' ? 'is not a WAV file' : `is ${kind}, not WAV`,
    );
  }
  const chunks = listChunks(bytes);
  const fmt = chunks.find((c) => c.id === 'fmt ');
  const data = chunks.find((c) => c.id === 'data');
  if (!fmt || fmt.size < 16) throw new MediaInputError('is a WAV file without a readable fmt chunk');
  if (!data) throw new MediaInputError('is a WAV file without a data chunk');
  let tag = bytes.readUInt16LE(fmt.start);
  if (tag === FORMAT_EXTENSIBLE && fmt.size >= 26) tag = bytes.readUInt16LE(fmt.start + 24);
  const channels = bytes.readUInt16LE(fmt.start + 2);
  const sampleRate = bytes.readUInt32LE(fmt.start + 4);
  const blockAlign = bytes.readUInt16LE(fmt.start + 12);
  const bitsPerSample = bytes.readUInt16LE(fmt.start + 14);
  if (tag !== FORMAT_PCM && tag !== FORMAT_FLOAT) {
    throw new MediaInputError(`is a WAV file in encoding ${tag} (only PCM and IEEE float are read)`);
  }
  const encoding = tag === FORMAT_PCM ? 'pcm' : 'float';
  const bits = encoding === 'pcm' ? [8, 16, 24, 32] : [32, 64];
  if (!bits.includes(bitsPerSample)) {
    throw new MediaInputError(`is a WAV file with ${bitsPerSample}-bit ${encoding} samples (not read)`);
  }
  if (channels < 1 || channels > MAX_CHANNELS) {
    throw new MediaInputError(`is a WAV file with ${channels} channels (1 to ${MAX_CHANNELS} are read)`);
  }
  if (sampleRate < WAV_MIN_RATE || sampleRate > WAV_MAX_RATE) {
    throw new MediaInputError(
      `is a WAV file at ${sampleRate} Hz (${WAV_MIN_RATE} to ${WAV_MAX_RATE} Hz are read)`,
    );
  }
  if (blockAlign !== (channels * bitsPerSample) / 8) {
    throw new MediaInputError(`is a WAV file whose block align ${blockAlign} does not match its format`);
  }
  const frames = Math.floor(data.size / blockAlign);
  if (frames === 0) throw new MediaInputError('is a WAV file with no samples');
  return { encoding, sampleRate, channels, bitsPerSample, dataOffset: data.start, frames };
}

/** The samples of a checked WAV file as interleaved 16-bit PCM (16-bit files are copied exactly). */
export function readWavSamples(bytes: Buffer, header: WavHeader): Int16Array {
  const count = header.frames * header.channels;
  const out = new Int16Array(count);
  const step = header.bitsPerSample / 8;
  const at = header.dataOffset;
  if (header.encoding === 'pcm' && header.bitsPerSample === 16) {
    for (let i = 0; i < count; i++) out[i] = bytes.readInt16LE(at + i * 2);
    return out;
  }
  const read = sampleReader(bytes, header);
  for (let i = 0; i < count; i++) {
    const v = Math.round(read(at + i * step) * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** One sample at a byte offset, scaled to [-1, 1]. */
function sampleReader(bytes: Buffer, header: WavHeader): (offset: number) => number {
  if (header.encoding === 'float') {
    return header.bitsPerSample === 32 ? (o) => bytes.readFloatLE(o) : (o) => bytes.readDoubleLE(o);
  }
  switch (header.bitsPerSample) {
    case 8:
      return (o) => (bytes[o]! - 128) / 128;
    case 24:
      return (o) => bytes.readIntLE(o, 3) / 8388608;
    default:
      return (o) => bytes.readInt32LE(o) / 2147483648;
  }
}
