/** Moving shapes and colours derived from a prompt, rendered as 4:2:0 YUV pictures (BT.601, video range). */
import { hueToRgb } from './rgba-raster.ts';
import { seededRandom } from './seeded-random.ts';
import { hashText } from './text-hash.ts';
import type { YuvPicture } from './video-h264.ts';

interface Shape {
  kind: 'disc' | 'square';
  size: number;
  /** Start position and velocity in pixels (per second); shapes bounce off the edges. */
  x: number;
  y: number;
  vx: number;
  vy: number;
  rgb: [number, number, number];
}

export interface Scene {
  width: number;
  height: number;
  hue: number;
  hueSpeed: number;
  shapes: Shape[];
}

/** The scene of a prompt in a picture of `width` x `height` (the displayed size). */
export function sceneFor(prompt: string, width: number, height: number): Scene {
  const random = seededRandom(hashText(prompt));
  const small = Math.min(width, height);
  const hue = random() * 360;
  const shapes = Array.from({ length: 3 + Math.floor(random() * 3) }, (): Shape => {
    const size = Math.max(2, Math.round(small * (0.15 + random() * 0.2)));
    const speed = small * (0.4 + random() * 0.8);
    const angle = random() * 2 * Math.PI;
    return {
      kind: random() < 0.5 ? 'disc' : 'square',
      size,
      x: random() * Math.max(1, width - size),
      y: random() * Math.max(1, height - size),
      vx: Math.cos(angle) * speed,
      vy: Math.sin(angle) * speed,
      rgb: hueToRgb(hue + 90 + random() * 180, 1, 0.85),
    };
  });
  return { width, height, hue, hueSpeed: 20 + random() * 60, shapes };
}

/** Renders the scene at `seconds` into a coded picture (multiples of 16; area beyond the scene is edge colour). */
export function renderScene(
  scene: Scene,
  seconds: number,
  codedWidth: number,
  codedHeight: number,
): YuvPicture {
  const rgb = new Uint8Array(codedWidth * codedHeight * 3);
  const top = hueToRgb(scene.hue + seconds * scene.hueSpeed, 0.55, 0.8);
  const bottom = hueToRgb(scene.hue + 60 + seconds * scene.hueSpeed, 0.25, 0.9);
  for (let y = 0; y < codedHeight; y++) {
    const t = Math.min(1, y / Math.max(1, scene.height - 1));
    for (let x = 0; x < codedWidth; x++) {
      const o = (y * codedWidth + x) * 3;
      for (let c = 0; c < 3; c++) rgb[o + c] = top[c]! * (1 - t) + bottom[c]! * t;
    }
  }
  for (const shape of scene.shapes)
    drawShape(rgb, codedWidth, codedHeight, shape, position(scene, shape, seconds));
  return toYuv420(rgb, codedWidth, codedHeight);
}

/** Position at time `seconds`, reflected at the edges (a triangle wave over the free range). */
function position(scene: Scene, shape: Shape, seconds: number): [number, number] {
  const bounce = (start: number, velocity: number, range: number) => {
    if (range <= 0) return 0;
    const p = (((start + velocity * seconds) % (2 * range)) + 2 * range) % (2 * range);
    return p <= range ? p : 2 * range - p;
  };
  return [
    bounce(shape.x, shape.vx, scene.width - shape.size),
    bounce(shape.y, shape.vy, scene.height - shape.size),
  ];
}

function drawShape(
  rgb: Uint8Array,
  width: number,
  height: number,
  shape: Shape,
  [left, top]: [number, number],
): void {
  const radius = shape.size / 2;
  const cx = left + radius;
  const cy = top + radius;
  for (let y = Math.max(0, Math.floor(top)); y < Math.min(height, Math.ceil(top + shape.size)); y++) {
    for (let x = Math.max(0, Math.floor(left)); x < Math.min(width, Math.ceil(left + shape.size)); x++) {
      const inside = shape.kind === 'square' || Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius;
      if (!inside) continue;
      const o = (y * width + x) * 3;
      rgb[o] = shape.rgb[0];
      rgb[o + 1] = shape.rgb[1];
      rgb[o + 2] = shape.rgb[2];
    }
  }
}

/** BT.601 video-range conversion; chroma is the mean of each 2 x 2 block. */
export function toYuv420(rgb: Uint8Array, width: number, height: number): YuvPicture {
  const y = new Uint8Array(width * height);
  const u = new Uint8Array((width / 2) * (height / 2));
  const v = new Uint8Array((width / 2) * (height / 2));
  for (let i = 0; i < width * height; i++) {
    y[i] = Math.round(16 + 0.257 * rgb[i * 3]! + 0.504 * rgb[i * 3 + 1]! + 0.098 * rgb[i * 3 + 2]!);
  }
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < width / 2; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const o = ((cy * 2 + dy) * width + cx * 2 + dx) * 3;
        r += rgb[o]!;
        g += rgb[o + 1]!;
        b += rgb[o + 2]!;
      }
      const k = cy * (width / 2) + cx;
      u[k] = Math.round(128 + (-0.148 * r - 0.291 * g + 0.439 * b) / 4);
      v[k] = Math.round(128 + (0.439 * r - 0.368 * g - 0.071 * b) / 4);
    }
  }
  return { width, height, y, u, v };
}
