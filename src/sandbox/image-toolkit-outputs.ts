/**
 * Simple stand-ins for the image-toolkit operations that have no generator of their own:
 * upscale (a resize), background removal (pixels near the corner colour made transparent) and
 * segmentation (a black and white mask). Real images in, real PNGs out.
 */
import { loadSharp, type Sharp } from '../image-codec/index.ts';

/** Raw RGBA pixels, as the media decoder gives them. */
export interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Opens raw RGBA pixels with sharp (loaded on first use). */
async function fromRaw(image: RgbaImage): Promise<ReturnType<Sharp>> {
  const sharp = await loadSharp();
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

/** Largest side an upscaled output may have. */
const UPSCALE_MAX_SIDE = 4096;

export async function upscaleImage(image: RgbaImage, scale: number): Promise<Buffer> {
  const { width, height } = image;
  const factor = Math.min(scale, UPSCALE_MAX_SIDE / Math.max(width, height));
  return (await fromRaw(image))
    .resize(Math.max(1, Math.round(width * factor)), Math.max(1, Math.round(height * factor)), {
      kernel: 'lanczos3',
    })
    .png()
    .toBuffer();
}

export async function removeBackground(image: RgbaImage): Promise<Buffer> {
  const pixels = Buffer.from(image.data);
  const [r0, g0, b0] = [pixels[0] ?? 0, pixels[1] ?? 0, pixels[2] ?? 0];
  const threshold = 48 * 48 * 3;
  for (let i = 0; i < pixels.length; i += 4) {
    const dr = pixels[i]! - r0;
    const dg = pixels[i + 1]! - g0;
    const db = pixels[i + 2]! - b0;
    if (dr * dr + dg * dg + db * db < threshold) pixels[i + 3] = 0;
  }
  return (await fromRaw({ data: pixels, width: image.width, height: image.height })).png().toBuffer();
}

export async function segmentMask(image: RgbaImage, factor: number): Promise<Buffer> {
  const level = Math.max(1, Math.min(254, Math.round(128 + factor * 8)));
  return (await fromRaw(image)).greyscale().threshold(level).png().toBuffer();
}
