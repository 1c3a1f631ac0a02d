/**
 * Image thumbnails, made once when an output is downloaded so a gallery never decodes full
 * images. WebP, at most 320 px on the long side, written owner-only (0600) to a new temporary
 * file and renamed into place, so a file or link left at the thumbnail's name is replaced, never
 * written through. sharp loads on the first thumbnail (src/image-codec): if it cannot load, this
 * rejects with `ImageCodecUnavailableError` and the output is saved without a thumbnail.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { loadSharp } from '../../image-codec/index.ts';
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
  const sharp = await loadSharp();
  const image = sharp(source, { failOn: 'error', limitInputPixels: 100_000_000 });
  const meta = await image.metadata();
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
    sourceWidth: meta.width ?? info.width,
    sourceHeight: meta.height ?? info.height,
  };
}

/** Writes `bytes` to a new owner-only temporary file beside `target`, then renames it over `target`. */
async function writeNewFile(target: string, bytes: Uint8Array): Promise<void> {
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
