/**
 * Image thumbnails, made once when an output is downloaded so a gallery never decodes full
 * images. WebP, at most 320 px on the long side, written owner-only (0600) to a new temporary
 * file and renamed into place, so a file or link left at the thumbnail's name is replaced, never
 * written through. sharp loads on the first thumbnail (src/image-codec): if it cannot load, this
 * rejects with `ImageCodecUnavailableError` and the output is saved without a thumbnail.
 *
 * The picture's size is read from its header first (the app's own reader, or sharp's for the
 * formats that one does not read: AVIF, HEIF) and a picture larger than the decode limits
 * (src/image-codec/decode-limits.ts) is refused with `ImageTooLargeError` before any pixel is
 * decoded; sharp's pixel limit stands behind that.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { openDecodable, readImageSize } from '../../image-codec/index.ts';
import { ImageHeaderError, readImageHeader } from '../inputs/index.ts';
import { openNewFile, writeAll } from '../library/index.ts';

export const THUMBNAIL_MAX_SIDE = 320;

export interface Thumbnail {
  /** Relative to the library folder, with forward slashes. */
  path: string;
  width: number;
  height: number;
  /** Size of the full image. */
  sourceWidth: number;
  sourceHeight: number;
}

/** Makes `thumb-<n>.webp` beside the image at `imagePath` (relative to the library). */
export async function makeThumbnail(
  libraryDir: string,
  imagePath: string,
  index: number,
): Promise<Thumbnail> {
  const source = resolve(libraryDir, imagePath);
  const target = join(dirname(source), `thumb-${index + 1}.webp`);
  const size = await headerSize(source);
  const image = await openDecodable(source, size, { failOn: 'error' });
  const { data, info } = await image
    .rotate()
    .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer({ resolveWithObject: true });
  await writeNewFile(target, data);
  return {
    path: relative(resolve(libraryDir), target).split(sep).join('/'),
    width: info.width,
    height: info.height,
    sourceWidth: size.width,
    sourceHeight: size.height,
  };
}

/** Width and height from the header alone: the app's reader, else sharp's (which decodes nothing). */
async function headerSize(source: string): Promise<{ width: number; height: number }> {
  try {
    return await readImageHeader(source);
  } catch (error) {
    if (!(error instanceof ImageHeaderError)) throw error;
    const size = await readImageSize(source);
    if (size === null) throw error;
    return size;
  }
}

/** Writes `bytes` to a new owner-only temporary file beside `target`, then renames it over `target`. */
export async function writeNewFile(target: string, bytes: Uint8Array): Promise<void> {
  const temp = join(dirname(target), `.${randomUUID()}.thumb-tmp`);
  try {
    const handle = await openNewFile(temp);
    try {
      await writeAll(handle, bytes);
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
