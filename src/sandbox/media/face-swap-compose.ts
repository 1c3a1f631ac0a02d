/** A visible stand-in for a face swap: the centre of the swap image, cut to a soft oval, pasted where a face would be. */
import type { DecodedImage } from './image-input.ts';
import { copyRaster, encodePng, type Raster, type Region, resizeRaster } from './rgba-raster.ts';

export interface FaceRegion {
  centerX: number;
  centerY: number;
  radiusX: number;
  radiusY: number;
  /** Fraction of the radius, at the rim, over which the oval fades out. */
  feather: number;
}

const FACE_WIDTH_SHARE = 0.4;
const FACE_ASPECT = 1.25;
const FACE_CENTRE_HEIGHT = 0.4;
const SWAP_CROP_SHARE = 0.8;
const FEATHER = 0.15;

/** Where the oval goes in a target of this size: 40% of the smaller side wide, upper centre. */
export function faceSwapRegion(width: number, height: number): FaceRegion {
  const ovalWidth = Math.max(2, Math.round(Math.min(width, height) * FACE_WIDTH_SHARE));
  const ovalHeight = Math.max(2, Math.min(height, Math.round(ovalWidth * FACE_ASPECT)));
  const radiusX = ovalWidth / 2;
  const radiusY = ovalHeight / 2;
  const centerY = Math.min(height - radiusY, Math.max(radiusY, Math.round(height * FACE_CENTRE_HEIGHT)));
  return { centerX: width / 2, centerY, radiusX, radiusY, feather: FEATHER };
}

/** PNG of the target size with the swap image's centre blended into the face region. */
export async function composeFaceSwap(target: DecodedImage, swap: DecodedImage): Promise<Buffer> {
  const region = faceSwapRegion(target.width, target.height);
  const box = boundingBox(region);
  const face = await resizeRaster(swap, box.width, box.height, centreCrop(swap, box.width / box.height));
  const out = copyRaster(target);
  blendOval(out, face, box, region);
  return encodePng(out);
}

function boundingBox(region: FaceRegion): Region {
  const left = Math.round(region.centerX - region.radiusX);
  const top = Math.round(region.centerY - region.radiusY);
  return { left, top, width: Math.round(region.radiusX * 2), height: Math.round(region.radiusY * 2) };
}

/** The central part of the image with the given aspect ratio, 80% of the limiting side. */
function centreCrop(image: Raster, aspect: number): Region {
  let width: number;
  let height: number;
  if (image.width / image.height > aspect) {
    height = Math.max(1, Math.round(image.height * SWAP_CROP_SHARE));
    width = Math.max(1, Math.min(image.width, Math.round(height * aspect)));
  } else {
    width = Math.max(1, Math.round(image.width * SWAP_CROP_SHARE));
    height = Math.max(1, Math.min(image.height, Math.round(width / aspect)));
  }
  return {
    left: Math.floor((image.width - width) / 2),
    top: Math.floor((image.height - height) / 2),
    width,
    height,
  };
}

/** Opacity of the oval at a pixel centre: 1 inside, fading to 0 over the feathered rim. */
export function ovalOpacity(region: FaceRegion, x: number, y: number): number {
  const dx = (x + 0.5 - region.centerX) / region.radiusX;
  const dy = (y + 0.5 - region.centerY) / region.radiusY;
  const r = Math.sqrt(dx * dx + dy * dy);
  return Math.max(0, Math.min(1, (1 - r) / region.feather));
}

function blendOval(out: Raster, face: Raster, box: Region, region: FaceRegion): void {
  for (let fy = 0; fy < face.height; fy++) {
    const y = box.top + fy;
    if (y < 0 || y >= out.height) continue;
    for (let fx = 0; fx < face.width; fx++) {
      const x = box.left + fx;
      if (x < 0 || x >= out.width) continue;
      const f = (fy * face.width + fx) * 4;
      const alpha = (ovalOpacity(region, x, y) * face.data[f + 3]!) / 255;
      if (alpha === 0) continue;
      const o = (y * out.width + x) * 4;
      for (let c = 0; c < 3; c++)
        out.data[o + c] = Math.round(out.data[o + c]! * (1 - alpha) + face.data[f + c]! * alpha);
      out.data[o + 3] = Math.round(out.data[o + 3]! + alpha * (255 - out.data[o + 3]!));
    }
  }
}
