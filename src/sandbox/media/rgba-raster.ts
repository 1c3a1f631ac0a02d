/** Raw RGBA rasters: resizing and cropping through sharp, PNG encoding, colour conversions. */
import { loadSharp } from '../../image-codec/index.ts';
import type { DecodedImage } from './image-input.ts';

export interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Opens raw RGBA pixels with sharp (loaded on first use). */
async function input(image: Raster) {
  const sharp = await loadSharp();
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

/** Encodes RGBA pixels as a PNG file. */
export async function encodePng(image: Raster): Promise<Buffer> {
  return (await input(image)).png().toBuffer();
}

/** Crops `region` out of the image (when given) and scales it to exactly `width` x `height`. */
export async function resizeRaster(
  image: Raster,
  width: number,
  height: number,
  region?: Region,
): Promise<Raster> {
  let pipeline = await input(image);
  if (region) pipeline = pipeline.extract(region);
  const { data, info } = await pipeline
    .resize(width, height, { fit: 'cover', position: 'centre' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A copy of the pixels that can be drawn on without touching the caller's image. */
export function copyRaster(image: DecodedImage | Raster): Raster {
  return { data: Buffer.from(image.data), width: image.width, height: image.height };
}

/** A fully saturated colour for a hue in degrees, scaled by `value` (0..1), as [r, g, b] in 0..255. */
export function hueToRgb(hue: number, value = 1, saturation = 1): [number, number, number] {
  const h = (((hue % 360) + 360) % 360) / 60;
  const c = value * saturation;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = value - c;
  const [r, g, b] =
    h < 1
      ? [c, x, 0]
      : h < 2
        ? [x, c, 0]
        : h < 3
          ? [0, c, x]
          : h < 4
            ? [0, x, c]
            : h < 5
              ? [x, 0, c]
              : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}
