/**
 * Real local files for the browser tests, written to a temp folder: pictures made with sharp,
 * a picture too big for a face swap, and a corrupt file (a PNG signature followed by garbage).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

export interface Colour {
  r: number;
  g: number;
  b: number;
}

/** A solid picture with a contrasting square in the middle, written to `dir/name`. */
export async function writePicture(
  dir: string,
  name: string,
  width: number,
  height: number,
  colour: Colour = { r: 40, g: 120, b: 200 },
): Promise<string> {
  const path = join(dir, name);
  const square = await sharp({
    create: {
      width: Math.max(1, width >> 2),
      height: Math.max(1, height >> 2),
      channels: 3,
      background: { r: 250, g: 220, b: 30 },
    },
  })
    .png()
    .toBuffer();
  const format =
    name.endsWith('.jpg') || name.endsWith('.jpeg') ? 'jpeg' : name.endsWith('.webp') ? 'webp' : 'png';
  await sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: square, gravity: 'centre' }])
    .toFormat(format)
    .toFile(path);
  return path;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A file that starts like a PNG and then is garbage: no decoder can read it. */
export async function writeCorruptPng(dir: string, name = 'corrupt.png'): Promise<string> {
  const path = join(dir, name);
  const garbage = Buffer.alloc(4096);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) & 0xff;
  await writeFile(path, Buffer.concat([PNG_SIGNATURE, garbage]));
  return path;
}
