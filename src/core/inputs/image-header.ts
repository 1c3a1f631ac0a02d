/**
 * Image width and height from the header alone: PNG (IHDR), JPEG (SOFn), WebP (VP8, VP8L,
 * VP8X), GIF and BMP. Pixels are never decoded. From a file at most the first 64 KiB are read,
 * except for JPEG, whose segments are walked to the frame header by reading 64 KiB windows at
 * the segment boundaries (large EXIF or ICC segments are skipped, not read).
 */

import { type FileHandle, open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import {
  asciiAt,
  int32le,
  startsWithBytes,
  uint16be,
  uint16le,
  uint24le,
  uint32be,
  uint32le,
} from '../../shared/media/byte-fields.ts';
import { readAt } from './positional-read.ts';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'bmp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** The header is missing, truncated or inconsistent. The message starts with "corrupt <FORMAT>:". */
export class ImageHeaderError extends Error {
  override name = 'ImageHeaderError';
}

/** Bytes read from the start of a file; enough for every header but a JPEG's. */
export const IMAGE_HEAD_BYTES = 64 * 1024;

export async function readImageHeader(path: string): Promise<ImageHeader> {
  const handle = await open(path, 'r');
  try {
    const head = await readAt(handle, 0, IMAGE_HEAD_BYTES);
    return await readImageHeaderFromOpenFile(handle, head);
  } finally {
    await handle.close();
  }
}

/** As readImageHeader, for a file already open whose first bytes (`head`, from offset 0) are read. */
export async function readImageHeaderFromOpenFile(
  handle: FileHandle,
  head: Uint8Array,
): Promise<ImageHeader> {
  if (!isJpeg(head)) return readImageHeaderFromBytes(head);
  const { size } = await handle.stat();
  return readJpegHeaderFromFile(handle, head, size);
}

/** Width and height from the bytes of an image (the whole file, or at least its header). */
export function readImageHeaderFromBytes(bytes: Uint8Array): ImageHeader {
  if (startsWithBytes(bytes, PNG_SIGNATURE)) return readPngHeader(bytes);
  if (isJpeg(bytes)) return readJpegHeaderFromBytes(bytes);
  if (asciiAt(bytes, 0, 4) === 'RIFF' && asciiAt(bytes, 8, 4) === 'WEBP') return readWebpHeader(bytes);
  if (asciiAt(bytes, 0, 4) === 'GIF8') return readGifHeader(bytes);
  if (asciiAt(bytes, 0, 2) === 'BM') return readBmpHeader(bytes);
  throw new ImageHeaderError('not a PNG, JPEG, WebP, GIF or BMP image');
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function readPngHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length < 16 || asciiAt(bytes, 12, 4) !== 'IHDR') throw corrupt('PNG', 'IHDR missing');
  const length = uint32be(bytes, 8);
  if (length !== 13) throw corrupt('PNG', `IHDR is ${length} bytes long, expected 13`);
  if (bytes.length < 33) throw corrupt('PNG', 'IHDR truncated');
  if (crc32(bytes.subarray(12, 29)) !== uint32be(bytes, 29)) throw corrupt('PNG', 'IHDR checksum mismatch');
  return checked('PNG', { format: 'png', width: uint32be(bytes, 16), height: uint32be(bytes, 20) });
}

function readWebpHeader(bytes: Uint8Array): ImageHeader {
  const chunk = asciiAt(bytes, 12, 4);
  if (bytes.length < 30) throw corrupt('WebP', 'header truncated');
  if (chunk === 'VP8 ') {
    if (!startsWithBytes(bytes.subarray(23), [0x9d, 0x01, 0x2a]))
      throw corrupt('WebP', 'VP8 start code missing');
    return checked('WebP', {
      format: 'webp',
      width: uint16le(bytes, 26) & 0x3fff,
      height: uint16le(bytes, 28) & 0x3fff,
    });
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) throw corrupt('WebP', 'VP8L signature missing');
    const bits = uint32le(bytes, 21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { format: 'webp', width: uint24le(bytes, 24) + 1, height: uint24le(bytes, 27) + 1 };
  }
  throw corrupt('WebP', `unknown first chunk "${chunk.replace(/[^\x20-\x7e]/g, '?')}"`);
}

function readGifHeader(bytes: Uint8Array): ImageHeader {
  const version = asciiAt(bytes, 0, 6);
  if (version !== 'GIF87a' && version !== 'GIF89a') throw corrupt('GIF', 'unknown version');
  if (bytes.length < 10) throw corrupt('GIF', 'header truncated');
  return checked('GIF', { format: 'gif', width: uint16le(bytes, 6), height: uint16le(bytes, 8) });
}

function readBmpHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length < 26) throw corrupt('BMP', 'header truncated');
  const dibSize = uint32le(bytes, 14);
  if (dibSize === 12) {
    return checked('BMP', { format: 'bmp', width: uint16le(bytes, 18), height: uint16le(bytes, 20) });
  }
  if (dibSize < 16) throw corrupt('BMP', `unknown DIB header size ${dibSize}`);
  const width = int32le(bytes, 18);
  // A negative height marks a top-down bitmap.
  return checked('BMP', { format: 'bmp', width, height: Math.abs(int32le(bytes, 22)) });
}

function isJpeg(bytes: Uint8Array): boolean {
  return startsWithBytes(bytes, [0xff, 0xd8, 0xff]);
}

function readJpegHeaderFromBytes(bytes: Uint8Array): ImageHeader {
  const step = walkJpegSegments(bytes, 0, 2);
  if ('header' in step) return step.header;
  throw corrupt('JPEG', 'data ends before the frame header (SOF)');
}

async function readJpegHeaderFromFile(
  handle: FileHandle,
  head: Uint8Array,
  size: number,
): Promise<ImageHeader> {
  let window = head;
  let windowStart = 0;
  let offset = 2;
  for (;;) {
    const step = walkJpegSegments(window, windowStart, offset);
    if ('header' in step) return step.header;
    if (windowStart + window.length >= size || step.needOffset >= size) {
      throw corrupt('JPEG', 'file ends before the frame header (SOF)');
    }
    offset = step.needOffset;
    windowStart = offset;
    window = await readAt(handle, offset, IMAGE_HEAD_BYTES);
  }
}

type JpegStep = { header: ImageHeader } | { needOffset: number };

/**
 * Walks JPEG marker segments in `window` (whose first byte is at file offset `windowStart`),
 * starting at file offset `offset`, until a frame header (SOF0-SOF15 other than DHT C4, JPG C8
 * and DAC CC) is found, or the window ends: then it answers the offset to continue from.
 */
function walkJpegSegments(window: Uint8Array, windowStart: number, offset: number): JpegStep {
  let at = offset;
  for (;;) {
    const rel = at - windowStart;
    if (rel + 2 > window.length) return { needOffset: at };
    if (window[rel] !== 0xff) throw corrupt('JPEG', `expected a marker at byte ${at}`);
    const marker = window[rel + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) throw corrupt('JPEG', 'image ends (EOI) before the frame header (SOF)');
    if (marker === 0xda) throw corrupt('JPEG', 'scan data (SOS) before the frame header (SOF)');
    if (marker === 0x00) throw corrupt('JPEG', `expected a marker at byte ${at}`);
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // standalone marker, no length
      continue;
    }
    if (rel + 4 > window.length) return { needOffset: at };
    const length = uint16be(window, rel + 2);
    if (length < 2) throw corrupt('JPEG', `segment at byte ${at} has length ${length}`);
    if (isStartOfFrame(marker)) {
      if (rel + 9 > window.length) return { needOffset: at };
      return { header: readStartOfFrame(window, rel, length) };
    }
    at += 2 + length;
  }
}

function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function readStartOfFrame(window: Uint8Array, rel: number, length: number): ImageHeader {
  if (length < 8) throw corrupt('JPEG', `frame header (SOF) has length ${length}`);
  const height = uint16be(window, rel + 5);
  const width = uint16be(window, rel + 7);
  if (height === 0) throw corrupt('JPEG', 'height is 0 in the frame header (DNL marker not supported)');
  return checked('JPEG', { format: 'jpeg', width, height });
}

function checked(label: string, header: ImageHeader): ImageHeader {
  if (header.width <= 0 || header.width > 0x7fffffff) throw corrupt(label, `width is ${header.width}`);
  if (header.height <= 0 || header.height > 0x7fffffff) throw corrupt(label, `height is ${header.height}`);
  return header;
}

function corrupt(label: string, detail: string): ImageHeaderError {
  return new ImageHeaderError(`corrupt ${label}: ${detail}`);
}
