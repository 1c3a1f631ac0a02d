/** A deterministic picture for a text-to-image task: gradient, rings and soft discs from the prompt's hash. */
import { encodePng, hueToRgb } from './rgba-raster.ts';
import { seededRandom } from './seeded-random.ts';
import { hashParts } from './text-hash.ts';

interface Disc {
  x: number;
  y: number;
  radius: number;
  rgb: [number, number, number];
}

const MAX_SIDE = 4096;

export async function generateTextImage(
  prompt: string,
  seed: number,
  width = 512,
  height = 512,
): Promise<Buffer> {
  for (const [name, side] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(side) || side < 1 || side > MAX_SIDE) {
      throw new RangeError(`${name} must be an integer from 1 to ${MAX_SIDE}, got ${side}`);
    }
  }
  const random = seededRandom(hashParts(prompt, seed));
  const hue = random() * 360;
  const from = hueToRgb(hue, 0.95, 0.65);
  const to = hueToRgb(hue + 120 + random() * 120, 0.55, 0.85);
  const angle = random() * 2 * Math.PI;
  const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
  const rings = {
    x: random() * width,
    y: random() * height,
    frequency: (0.02 + random() * 0.08) * (512 / Math.max(width, height)),
  };
  const discs: Disc[] = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
    x: random() * width,
    y: random() * height,
    radius: (0.08 + random() * 0.18) * Math.min(width, height),
    rgb: hueToRgb(hue + random() * 360, 0.9, 0.8),
  }));
  const data = Buffer.alloc(width * height * 4);
  const span = Math.abs(dx) * width + Math.abs(dy) * height || 1;
  const offset = Math.min(0, dx * width) + Math.min(0, dy * height);
  const rgb = [0, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x * dx + y * dy - offset) / span;
      const shade =
        0.8 + 0.2 * (0.5 + 0.5 * Math.sin(Math.hypot(x - rings.x, y - rings.y) * rings.frequency));
      for (let c = 0; c < 3; c++) rgb[c] = (from[c]! * (1 - t) + to[c]! * t) * shade;
      for (const disc of discs) {
        const ox = x - disc.x;
        const oy = y - disc.y;
        if (Math.abs(ox) > disc.radius + 3 || Math.abs(oy) > disc.radius + 3) continue;
        const cover = 0.7 * Math.max(0, Math.min(1, (disc.radius - Math.sqrt(ox * ox + oy * oy)) / 3));
        for (let c = 0; c < 3; c++) rgb[c] = rgb[c]! * (1 - cover) + disc.rgb[c]! * cover;
      }
      const o = (y * width + x) * 4;
      data[o] = rgb[0]!;
      data[o + 1] = rgb[1]!;
      data[o + 2] = rgb[2]!;
      data[o + 3] = 255;
    }
  }
  return encodePng({ data, width, height });
}
