/**
 * Small files whose headers claim huge pictures (security review, issue 17 item 3): each is
 * a few kilobytes, and decoding it would take gigabytes.
 *
 * - `hugePng`: a complete, valid PNG (1-bit grey, every row's pixels zero, deflated), so a
 *   decoder that is not stopped decodes it all: 99,000,000 x 1 is 12 KB.
 * - `hugeJpeg`: a real 16 x 16 JPEG whose frame header (SOF0) claims the size instead, so
 *   header readers (ours and sharp's) read it.
 * - `hugeWebp`: a WebP VP8X header claiming the size, then data that ends: enough for our
 *   header reader, not for a decoder.
 */
import { crc32, deflateSync } from 'node:zlib';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function hugePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  // each row: filter byte 0, then width bits
  const raw = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** At most 65,535 a side (16 bits in the frame header). */
export async function hugeJpeg(width: number, height: number): Promise<Buffer> {
  // loaded here, so a test that has no sharp (image-codec-unavailable) can use the other pictures
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
    .jpeg({ mozjpeg: false, progressive: false })
    .toBuffer();
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no baseline frame header in the JPEG sharp made');
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

/** At most 16,777,216 a side (24 bits in the VP8X header). */
export function hugeWebp(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'ascii');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(width - 1, 12, 3);
  vp8x.writeUIntLE(height - 1, 15, 3);
  const body = Buffer.concat([Buffer.from('WEBP', 'ascii'), vp8x, Buffer.alloc(64)]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}
