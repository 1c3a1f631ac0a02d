/**
 * Simple stand-ins for the image-toolkit operations that have no generator of their own. Real
 * images in, real PNGs out, each visibly the operation:
 * - upscale: exactly the input's size times `scale` (a Lanczos resize; `face_enhance` sharpens);
 *   the real service publishes no cap on the result, so none is applied (inputs are under
 *   LIMITS.imageMaxSideExclusive, so a 4x result is at most 8188 px a side);
 * - background-remove: an RGBA PNG whose background (the border colour and what joins it through
 *   similar colours) is fully transparent; when the border finds almost nothing, everything
 *   outside a centred oval (where a subject usually is) is;
 * - segment: a black and white mask of the input's size, white where the subject is, grown
 *   (positive) or shrunk (negative) by `segment_factor` pixels (field notes: integer pixels).
 */
import { loadSharp, type Sharp } from '../image-codec/index.ts';

/** Raw RGBA pixels, as the media decoder gives them. */
export interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Opens raw pixels with sharp (loaded on first use). */
async function fromRaw(
  data: Buffer,
  width: number,
  height: number,
  channels: 1 | 4,
): Promise<ReturnType<Sharp>> {
  const sharp = await loadSharp();
  return sharp(data, { raw: { width, height, channels } });
}

export async function upscaleImage(image: RgbaImage, scale: number, faceEnhance = false): Promise<Buffer> {
  const factor = Math.max(1, Math.round(scale));
  const resized = (await fromRaw(image.data, image.width, image.height, 4)).resize(
    image.width * factor,
    image.height * factor,
    { kernel: 'lanczos3' },
  );
  return (faceEnhance ? resized.sharpen({ sigma: 1 }) : resized).png().toBuffer();
}

export async function removeBackground(image: RgbaImage): Promise<Buffer> {
  const mask = subjectMask(image);
  const pixels = Buffer.from(image.data);
  for (let p = 0; p < mask.length; p++) pixels[p * 4 + 3] = Math.min(pixels[p * 4 + 3]!, mask[p]!);
  return (await fromRaw(pixels, image.width, image.height, 4)).png().toBuffer();
}

/** Largest grow or shrink of a segment mask, in pixels. */
const SEGMENT_FACTOR_MAX = 256;

export async function segmentMask(image: RgbaImage, factor: number): Promise<Buffer> {
  const alpha = subjectMask(image);
  const mask = Buffer.alloc(alpha.length);
  for (let p = 0; p < alpha.length; p++) mask[p] = alpha[p]! >= 128 ? 255 : 0;
  const pixels = Math.min(SEGMENT_FACTOR_MAX, Math.abs(Math.round(factor)));
  const shaped = pixels === 0 ? mask : morph(mask, image.width, image.height, pixels, factor > 0);
  return (await fromRaw(shaped, image.width, image.height, 1)).png().toBuffer();
}

/**
 * A binary mask grown (`grow`) or shrunk by `radius` pixels in every direction (a square
 * window): grown, a pixel is white when any pixel of its window is; shrunk, when all of its
 * window inside the image are. Counted with a summed-area table, so any radius costs the same.
 */
function morph(mask: Buffer, width: number, height: number, radius: number, grow: boolean): Buffer {
  const stride = width + 1;
  const sums = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += mask[y * width + x] === 255 ? 1 : 0;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1]! + row;
    }
  }
  const out = Buffer.alloc(mask.length);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(width, x + radius + 1);
      const white =
        sums[y1 * stride + x1]! - sums[y0 * stride + x1]! - sums[y1 * stride + x0]! + sums[y0 * stride + x0]!;
      const full = (y1 - y0) * (x1 - x0);
      out[y * width + x] = (grow ? white > 0 : white === full) ? 255 : 0;
    }
  }
  return out;
}

/** Colour distances are squared sums over R, G and B. */
const SEED_DISTANCE = 40 * 40 * 3;
const STEP_DISTANCE = 20 * 20 * 3;
const FAR_DISTANCE = 90 * 90 * 3;
/** Below this share of background pixels the border colour is taken to have found nothing. */
const MIN_BACKGROUND_SHARE = 0.05;

/**
 * Per pixel, 255 where the subject is and 0 on the background: pixels joined to the border
 * through small colour steps, never far from the border's median colour (or already
 * transparent). When that is under 5% of the image, a centred oval instead.
 */
export function subjectMask(image: RgbaImage): Uint8Array {
  const { data, width, height } = image;
  const total = width * height;
  const mask = new Uint8Array(total).fill(255);
  const [mr, mg, mb] = borderMedian(image);
  const dist = (p: number, r: number, g: number, b: number) => {
    const dr = data[p * 4]! - r;
    const dg = data[p * 4 + 1]! - g;
    const db = data[p * 4 + 2]! - b;
    return dr * dr + dg * dg + db * db;
  };
  const clear = (p: number) => data[p * 4 + 3]! < 16;
  const queue = new Int32Array(total);
  let head = 0;
  let tail = 0;
  const seed = (p: number) => {
    if (mask[p] === 0) return;
    if (!clear(p) && dist(p, mr, mg, mb) >= SEED_DISTANCE) return;
    mask[p] = 0;
    queue[tail++] = p;
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (head < tail) {
    const p = queue[head++]!;
    const x = p % width;
    const near = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
    for (const n of near) {
      if (n < 0 || n >= total || mask[n] === 0) continue;
      const joins =
        clear(n) ||
        (dist(n, data[p * 4]!, data[p * 4 + 1]!, data[p * 4 + 2]!) < STEP_DISTANCE &&
          dist(n, mr, mg, mb) < FAR_DISTANCE);
      if (!joins) continue;
      mask[n] = 0;
      queue[tail++] = n;
    }
  }
  return tail >= total * MIN_BACKGROUND_SHARE ? mask : ovalMask(width, height);
}

/** The median colour of the border pixels, channel by channel. */
function borderMedian(image: RgbaImage): [number, number, number] {
  const { data, width, height } = image;
  const channels: number[][] = [[], [], []];
  const add = (x: number, y: number) => {
    const p = (y * width + x) * 4;
    for (let c = 0; c < 3; c++) channels[c]!.push(data[p + c]!);
  };
  for (let x = 0; x < width; x++) {
    add(x, 0);
    add(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    add(0, y);
    add(width - 1, y);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return [median(channels[0]!), median(channels[1]!), median(channels[2]!)];
}

/** A centred oval (70% of the width, 90% of the height) with a soft rim. */
function ovalMask(width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  const rx = width * 0.35;
  const ry = height * 0.45;
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
      mask[y * width + x] = Math.round(255 * Math.min(1, Math.max(0, (1 - d) / 0.06)));
    }
  }
  return mask;
}
