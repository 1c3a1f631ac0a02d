/** Real picture files for tests, made with sharp. */
import sharp from 'sharp';

export interface Colour {
  r: number;
  g: number;
  b: number;
}

export type PictureFormat = 'png' | 'jpeg' | 'webp';

/** The format a picture file's name asks for: `.jpg`/`.jpeg` and `.webp`, else PNG. */
export function pictureFormat(name: string): PictureFormat {
  if (name.endsWith('.jpg') || name.endsWith('.jpeg')) return 'jpeg';
  return name.endsWith('.webp') ? 'webp' : 'png';
}

/** A solid-colour picture with a contrasting square in the middle, written to `path`. */
export async function writePicture(
  path: string,
  width: number,
  height: number,
  format: PictureFormat = 'png',
  colour: Colour = { r: 40, g: 120, b: 200 },
): Promise<string> {
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
  await sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: square, gravity: 'centre' }])
    .toFormat(format)
    .toFile(path);
  return path;
}
