/** Real files for the media tests: crafted headers and images made with sharp, in a temp dir. */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mts-media-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeFixture(dir: string, name: string, bytes: Uint8Array | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

export type SharpFormat =
  | 'png'
  | 'jpeg'
  | 'jpeg-progressive'
  | 'webp'
  | 'webp-lossless'
  | 'webp-alpha'
  | 'gif';

/** A solid-colour image of the given size, encoded by sharp. */
export async function makeImage(format: SharpFormat, width: number, height: number): Promise<Buffer> {
  const alpha = format === 'webp-alpha';
  const image = sharp({
    create: {
      width,
      height,
      channels: alpha ? 4 : 3,
      background: alpha ? { r: 200, g: 30, b: 60, alpha: 0.5 } : { r: 200, g: 30, b: 60 },
    },
  });
  switch (format) {
    case 'png':
      return image.png().toBuffer();
    case 'jpeg':
      return image.jpeg().toBuffer();
    case 'jpeg-progressive':
      return image.jpeg({ progressive: true }).toBuffer();
    case 'webp':
    case 'webp-alpha':
      return image.webp().toBuffer();
    case 'webp-lossless':
      return image.webp({ lossless: true }).toBuffer();
    case 'gif':
      return image.gif().toBuffer();
  }
}

/** An uncompressed BMP (sharp cannot write BMP). `dibSize` 12 = OS/2 core header, 40 = BITMAPINFOHEADER. */
export function makeBmp(
  width: number,
  height: number,
  options: { dibSize?: 12 | 40; topDown?: boolean } = {},
) {
  const dibSize = options.dibSize ?? 40;
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const pixelOffset = 14 + dibSize;
  const bytes = Buffer.alloc(pixelOffset + rowBytes * height);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(bytes.length, 2);
  bytes.writeUInt32LE(pixelOffset, 10);
  bytes.writeUInt32LE(dibSize, 14);
  if (dibSize === 12) {
    bytes.writeUInt16LE(width, 18);
    bytes.writeUInt16LE(height, 20);
    bytes.writeUInt16LE(1, 22);
    bytes.writeUInt16LE(24, 24);
  } else {
    bytes.writeInt32LE(width, 18);
    bytes.writeInt32LE(options.topDown ? -height : height, 22);
    bytes.writeUInt16LE(1, 26);
    bytes.writeUInt16LE(24, 28);
  }
  return bytes;
}

/** Inserts APPn segments of `segmentBytes` payload each right after the SOI of a JPEG. */
export function withAppSegments(jpeg: Buffer, count: number, segmentBytes = 65_000): Buffer {
  const segments: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const segment = Buffer.alloc(4 + segmentBytes, 0x41 + (i % 26));
    segment[0] = 0xff;
    segment[1] = 0xed; // APP13
    segment.writeUInt16BE(segmentBytes + 2, 2);
    segments.push(segment);
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** Two MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each), no ID3 tag. */
export function makeMp3Frames(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([frame, frame]);
}

export function makeWav(): Buffer {
  const bytes = Buffer.alloc(44 + 8);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(bytes.length - 8, 4);
  bytes.write('WAVEfmt ', 8, 'latin1');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(16000, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36, 'latin1');
  bytes.writeUInt32LE(8, 40);
  return bytes;
}

/** An `ftyp` box with a major brand and compatible brands, then an empty `mdat`. */
export function makeFtyp(major: string, compatible: string[]): Buffer {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size + 8);
  box.writeUInt32BE(size, 0);
  box.write(`ftyp${major}`, 4, 'latin1');
  compatible.forEach((brand, i) => {
    box.write(brand, 16 + 4 * i, 'latin1');
  });
  box.writeUInt32BE(8, size);
  box.write('mdat', size + 4, 'latin1');
  return box;
}

/** An EBML header whose DocType is `docType` ("webm" or "matroska"). */
export function makeEbml(docType: string): Buffer {
  const doc = Buffer.from(docType, 'latin1');
  const body = Buffer.concat([Buffer.from([0x42, 0x82, 0x80 | doc.length]), doc]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body, Buffer.alloc(16)]);
}

/** An Ogg page header followed by the first bytes of a codec header. */
export function makeOgg(codecHeader: string): Buffer {
  const bytes = Buffer.alloc(64);
  bytes.write('OggS', 0, 'latin1');
  bytes[5] = 0x02; // beginning of stream
  bytes[26] = 1; // one segment
  bytes[27] = 30;
  bytes.write(codecHeader, 28, 'latin1');
  return bytes;
}

export function makeFlac(): Buffer {
  return Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.from([0x80, 0, 0, 34]), Buffer.alloc(34)]);
}

/** A small binary glTF: header, then one JSON chunk. */
export function makeGlb(): Buffer {
  const json = Buffer.from('{"asset":{"version":"2.0"}}  ', 'utf8'); // padded to 4 bytes
  const out = Buffer.alloc(12 + 8 + json.length);
  out.write('glTF', 0, 'latin1');
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(json.length, 12);
  out.write('JSON', 16, 'latin1');
  json.copy(out, 20);
  return out;
}
