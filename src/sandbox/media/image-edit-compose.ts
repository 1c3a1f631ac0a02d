/** A visible stand-in for a prompt-driven image edit: image1 graded by the prompt, image2/3 inset, a prompt band. */
import type { DecodedImage } from './image-input.ts';
import { copyRaster, encodePng, hueToRgb, type Raster, resizeRaster } from './rgba-raster.ts';
import { seededRandom } from './seeded-random.ts';
import { hashParts } from './text-hash.ts';

interface Grade {
  desaturate: boolean;
  invert: boolean;
  mirror: boolean;
  brightness: number;
  tint: [number, number, number];
  tintStrength: number;
}

const PANEL_WIDTH_SHARE = 0.3;
const PANEL_MAX_HEIGHT_SHARE = 0.4;
const BAND_SEGMENTS = 32;

/** Deterministic for the same images, prompt and seed; a different prompt or seed gives different pixels. */
export async function composeImageEdit(
  images: DecodedImage[],
  prompt: string,
  seed: number,
): Promise<Buffer> {
  const [base, ...extras] = images;
  if (!base || images.length > 3)
    throw new RangeError(`composeImageEdit takes 1 to 3 images, got ${images.length}`);
  const hash = hashParts(prompt, seed);
  const out = copyRaster(base);
  applyGrade(out, gradeFor(prompt, hash));
  const margin = Math.max(1, Math.round(Math.min(out.width, out.height) * 0.03));
  for (const [index, extra] of extras.entries())
    await insetPanel(out, extra, index === 0 ? 'right' : 'left', margin);
  drawBand(out, hash);
  return encodePng(out);
}

function gradeFor(prompt: string, hash: number): Grade {
  const words = prompt.toLowerCase();
  const random = seededRandom(hash);
  let brightness = 0;
  if (/bright|sunny|light/.test(words)) brightness += 30;
  if (/dark|night|shadow/.test(words)) brightness -= 40;
  let hue = hash % 360;
  if (/warm|sunset|golden|autumn/.test(words)) hue = 30;
  if (/cool|winter|cold|ocean|blue/.test(words)) hue = 215;
  return {
    desaturate: /gr[ae]yscale|black and white|monochrome|b&w/.test(words),
    invert: /invert|negative/.test(words),
    mirror: /mirror|flip/.test(words),
    brightness,
    tint: hueToRgb(hue),
    tintStrength: 0.18 + random() * 0.17,
  };
}

function applyGrade(image: Raster, grade: Grade): void {
  const { data, width, height } = image;
  if (grade.mirror) mirrorRows(image);
  const keep = 1 - grade.tintStrength;
  for (let i = 0; i < width * height * 4; i += 4) {
    let r = data[i]!;
    let g = data[i + 1]!;
    let b = data[i + 2]!;
    if (grade.desaturate) r = g = b = 0.299 * r + 0.587 * g + 0.114 * b;
    if (grade.invert) [r, g, b] = [255 - r, 255 - g, 255 - b];
    data[i] = clampByte(r * keep + grade.tint[0] * grade.tintStrength + grade.brightness);
    data[i + 1] = clampByte(g * keep + grade.tint[1] * grade.tintStrength + grade.brightness);
    data[i + 2] = clampByte(b * keep + grade.tint[2] * grade.tintStrength + grade.brightness);
  }
}

function mirrorRows(image: Raster): void {
  const { data, width, height } = image;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width / 2 - 0.5; x++) {
      const a = (y * width + x) * 4;
      const b = (y * width + (width - 1 - x)) * 4;
      for (let c = 0; c < 4; c++) [data[a + c], data[b + c]] = [data[b + c]!, data[a + c]!];
    }
  }
}

function clampByte(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** Scales `panel` to 30% of the base width and pastes it, framed in white, in a bottom corner. */
async function insetPanel(
  out: Raster,
  panel: DecodedImage,
  corner: 'left' | 'right',
  margin: number,
): Promise<void> {
  let width = Math.round(out.width * PANEL_WIDTH_SHARE);
  let height = Math.round((width * panel.height) / panel.width);
  const maxHeight = Math.round(out.height * PANEL_MAX_HEIGHT_SHARE);
  if (height > maxHeight) {
    height = maxHeight;
    width = Math.round((height * panel.width) / panel.height);
  }
  if (width < 3 || height < 3) return;
  const scaled = await resizeRaster(panel, width, height);
  const left = corner === 'right' ? out.width - margin - width : margin;
  const top = out.height - margin - height;
  const frame = Math.max(1, Math.round(width / 60));
  fillRect(out, left - frame, top - frame, width + 2 * frame, height + 2 * frame, [255, 255, 255]);
  for (let y = 0; y < height; y++) {
    const from = y * width * 4;
    const to = ((top + y) * out.width + left) * 4;
    scaled.data.copy(out.data, to, from, from + width * 4);
  }
}

function fillRect(
  out: Raster,
  left: number,
  top: number,
  width: number,
  height: number,
  rgb: number[],
): void {
  for (let y = Math.max(0, top); y < Math.min(out.height, top + height); y++) {
    for (let x = Math.max(0, left); x < Math.min(out.width, left + width); x++) {
      const o = (y * out.width + x) * 4;
      out.data[o] = rgb[0]!;
      out.data[o + 1] = rgb[1]!;
      out.data[o + 2] = rgb[2]!;
      out.data[o + 3] = 255;
    }
  }
}

/** A band near the top: 32 segments showing the bits of the prompt's hash in two contrasting colours. */
function drawBand(out: Raster, hash: number): void {
  const height = Math.max(2, Math.round(out.height * 0.06));
  const top = Math.round(out.height * 0.05);
  const on = hueToRgb(hash % 360, 1, 0.9);
  const off = hueToRgb((hash % 360) + 180, 0.35, 0.9);
  for (let s = 0; s < BAND_SEGMENTS; s++) {
    const left = Math.round((s * out.width) / BAND_SEGMENTS);
    const right = Math.round(((s + 1) * out.width) / BAND_SEGMENTS);
    fillRect(out, left, top, right - left, height, (hash >>> s) & 1 ? on : off);
  }
}
