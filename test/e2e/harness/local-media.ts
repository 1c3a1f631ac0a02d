/**
 * Real local files for the browser tests, written to a temp folder: pictures (made with sharp by
 * test/support/pictures.ts) and a corrupt file (a PNG signature followed by garbage).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Colour, pictureFormat, writePicture as writePictureFile } from '../../support/pictures.ts';

/**
 * The picture of test/support (a solid colour with a contrasting square) written to `dir/name`,
 * in the format its name asks for.
 */
export function writePicture(
  dir: string,
  name: string,
  width: number,
  height: number,
  colour?: Colour,
): Promise<string> {
  return writePictureFile(join(dir, name), width, height, pictureFormat(name), colour);
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
