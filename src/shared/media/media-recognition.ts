/**
 * How each media kind's bytes are recognised: magic numbers read from a file's first bytes, never
 * from its name. Give a recogniser at least the first 4 KiB of a file when you have them; shorter
 * heads still work for every type whose signature fits. The table of media kinds
 * (media-kinds.ts) names one recogniser per kind; `sniffFileType` asks them in the table's order.
 */

import { asciiAt, startsWithBytes, uint32be, uint32le } from './byte-fields.ts';

/** A media kind whose bytes can be recognised (a plain file is whatever none of them is). */
export type RecognisedKind = 'image' | 'audio' | 'video' | '3d';

export interface SniffedType {
  mime: string;
  ext: string;
  /** The media kind the bytes belong to. */
  kind: RecognisedKind;
}

const PNG: SniffedType = { mime: 'image/png', ext: 'png', kind: 'image' };
const JPEG: SniffedType = { mime: 'image/jpeg', ext: 'jpg', kind: 'image' };
const WEBP: SniffedType = { mime: 'image/webp', ext: 'webp', kind: 'image' };
const GIF: SniffedType = { mime: 'image/gif', ext: 'gif', kind: 'image' };
const BMP: SniffedType = { mime: 'image/bmp', ext: 'bmp', kind: 'image' };
const AVIF: SniffedType = { mime: 'image/avif', ext: 'avif', kind: 'image' };
const HEIC: SniffedType = { mime: 'image/heic', ext: 'heic', kind: 'image' };
const HEIF: SniffedType = { mime: 'image/heif', ext: 'heif', kind: 'image' };
const MP3: SniffedType = { mime: 'audio/mpeg', ext: 'mp3', kind: 'audio' };
const WAV: SniffedType = { mime: 'audio/wav', ext: 'wav', kind: 'audio' };
const FLAC: SniffedType = { mime: 'audio/flac', ext: 'flac', kind: 'audio' };
const OGG_AUDIO: SniffedType = { mime: 'audio/ogg', ext: 'ogg', kind: 'audio' };
const OGG_VIDEO: SniffedType = { mime: 'video/ogg', ext: 'ogv', kind: 'video' };
const M4A: SniffedType = { mime: 'audio/mp4', ext: 'm4a', kind: 'audio' };
const MP4: SniffedType = { mime: 'video/mp4', ext: 'mp4', kind: 'video' };
const MOV: SniffedType = { mime: 'video/quicktime', ext: 'mov', kind: 'video' };
const WEBM: SniffedType = { mime: 'video/webm', ext: 'webm', kind: 'video' };
const MKV: SniffedType = { mime: 'video/x-matroska', ext: 'mkv', kind: 'video' };
const GLB: SniffedType = { mime: 'model/gltf-binary', ext: 'glb', kind: '3d' };

export function recogniseImage(head: Uint8Array): SniffedType | null {
  if (startsWithBytes(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWithBytes(head, [0xff, 0xd8, 0xff])) return JPEG;
  if (asciiAt(head, 0, 4) === 'RIFF' && asciiAt(head, 8, 4) === 'WEBP') return WEBP;
  const gif = asciiAt(head, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return GIF;
  if (isBmp(head)) return BMP;
  return ofKind(isoMedia(head), 'image');
}

export function recogniseAudio(head: Uint8Array): SniffedType | null {
  if (asciiAt(head, 0, 4) === 'RIFF' && asciiAt(head, 8, 4) === 'WAVE') return WAV;
  if (asciiAt(head, 0, 4) === 'fLaC') return FLAC;
  if (asciiAt(head, 0, 4) === 'OggS') return isTheora(head) ? null : OGG_AUDIO;
  if (asciiAt(head, 0, 3) === 'ID3') return MP3;
  return ofKind(isoMedia(head), 'audio') ?? mpegAudio(head);
}

export function recogniseVideo(head: Uint8Array): SniffedType | null {
  if (asciiAt(head, 0, 4) === 'OggS') return isTheora(head) ? OGG_VIDEO : null;
  return ofKind(isoMedia(head), 'video') ?? ebml(head);
}

/** Binary glTF (GLB): the magic `glTF`, then container version 2 (1 from older exporters). */
export function recogniseModel3d(head: Uint8Array): SniffedType | null {
  if (asciiAt(head, 0, 4) !== 'glTF') return null;
  const version = uint32le(head, 4);
  return version === 2 || version === 1 ? GLB : null;
}

function ofKind(type: SniffedType | null, kind: RecognisedKind): SniffedType | null {
  return type !== null && type.kind === kind ? type : null;
}

function isTheora(head: Uint8Array): boolean {
  return asciiAt(head, 28, 7) === '\x80theora';
}

/** Sizes of the DIB headers that follow "BM" (core, info, v2..v5, OS/2 2.x). */
const BMP_DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

function isBmp(head: Uint8Array): boolean {
  if (head.length < 18 || asciiAt(head, 0, 2) !== 'BM') return false;
  return BMP_DIB_HEADER_SIZES.has(uint32le(head, 14));
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const M4A_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'dash',
  'M4V ',
  'MSNV',
  'f4v ',
  '3gp4',
  '3gp5',
  '3gp6',
  '3g2a',
]);

/** ISO base media files (MP4, M4A, MOV, HEIF, AVIF): an `ftyp` box with brands. */
function isoMedia(head: Uint8Array): SniffedType | null {
  if (head.length < 12 || asciiAt(head, 4, 4) !== 'ftyp') return null;
  const boxEnd = Math.min(uint32be(head, 0), head.length);
  const brands = [asciiAt(head, 8, 4)];
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(asciiAt(head, at, 4));
  const major = brands[0] ?? '';
  if (major === 'avif' || major === 'avis') return AVIF;
  if (HEIC_BRANDS.has(major)) return HEIC;
  if (major === 'mif1' || major === 'msf1') {
    if (brands.includes('avif') || brands.includes('avis')) return AVIF;
    return brands.some((b) => HEIC_BRANDS.has(b)) ? HEIC : HEIF;
  }
  if (brands.some((b) => M4A_BRANDS.has(b))) return M4A;
  if (major === 'qt  ') return MOV;
  if (brands.some((b) => MP4_BRANDS.has(b))) return MP4;
  return null;
}

/** Matroska and WebM: the EBML magic, then the DocType in the header. */
function ebml(head: Uint8Array): SniffedType | null {
  if (!startsWithBytes(head, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  const header = asciiAt(head, 4, Math.min(head.length, 4096) - 4);
  if (header.includes('webm')) return WEBM;
  if (header.includes('matroska')) return MKV;
  return null;
}

/** kbit/s by bitrate index for Layer III: MPEG-1, then MPEG-2 and 2.5. 0 = free format, -1 = bad. */
const LAYER3_BITRATES = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1],
};
/** Hz by sample-rate index for MPEG-1; MPEG-2 halves it and MPEG-2.5 quarters it. */
const MPEG1_SAMPLE_RATES = [44100, 48000, 32000];

/**
 * An MP3 without an ID3 tag starts with a Layer III frame header. When the head holds the whole
 * first frame, the next frame must also start with a sync word, which rules out chance matches.
 */
function mpegAudio(head: Uint8Array): SniffedType | null {
  const length = layer3FrameLength(head, 0);
  if (length === null) return null;
  if (head.length < length + 2) return MP3;
  return layer3FrameLength(head, length) === null ? null : MP3;
}

function layer3FrameLength(bytes: Uint8Array, at: number): number | null {
  if (bytes.length < at + 4) return null;
  const b1 = bytes[at + 1]!;
  const b2 = bytes[at + 2]!;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3; // 0 = MPEG-2.5, 2 = MPEG-2, 3 = MPEG-1
  const layer = (b1 >> 1) & 3; // 1 = Layer III
  const rateIndex = (b2 >> 2) & 3;
  if (version === 1 || layer !== 1 || rateIndex === 3) return null;
  const table = version === 3 ? LAYER3_BITRATES.mpeg1 : LAYER3_BITRATES.mpeg2;
  const kbps = table[b2 >> 4] ?? -1;
  if (kbps <= 0) return null;
  const sampleRate = (MPEG1_SAMPLE_RATES[rateIndex] ?? 0) / (version === 3 ? 1 : version === 2 ? 2 : 4);
  const padding = (b2 >> 1) & 1;
  const factor = version === 3 ? 144 : 72;
  return Math.floor((factor * kbps * 1000) / sampleRate) + padding;
}
