/**
 * Output generation as plain data: a job names a generator and its arguments, so it can run in
 * a worker thread (generation-worker.ts) or, as a fallback, on the main thread.
 */
import { removeBackground, segmentMask, upscaleImage } from './image-toolkit-outputs.ts';
import {
  composeFaceSwap,
  composeImageEdit,
  type DecodedImage,
  type ExtendSongParams,
  extendSongWav,
  generateGlbModel,
  generateSongWav,
  generateTextImage,
  generateVideoMp4,
  type ModelParams,
  type SongParams,
  type VideoParams,
} from './media/index.ts';

export type GenerationJob =
  | { kind: 'song'; params: SongParams }
  | { kind: 'extendSong'; params: ExtendSongParams }
  | { kind: 'textImage'; prompt: string; seed: number; width: number; height: number }
  | { kind: 'video'; params: VideoParams }
  | { kind: 'model3d'; params: ModelParams }
  | { kind: 'faceSwap'; target: DecodedImage; swap: DecodedImage }
  | { kind: 'imageEdit'; images: DecodedImage[]; prompt: string; seed: number }
  | { kind: 'upscale'; image: DecodedImage; scale: number; faceEnhance: boolean }
  | { kind: 'backgroundRemove'; image: DecodedImage }
  | { kind: 'segment'; image: DecodedImage; factor: number };

/** A structured-cloned Buffer arrives as a Uint8Array; the generators want a Buffer. */
function asBuffer(bytes: Buffer): Buffer {
  const d = bytes as Uint8Array;
  return Buffer.isBuffer(d) ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

function asImage(image: DecodedImage): DecodedImage {
  return { ...image, data: asBuffer(image.data) };
}

export async function runGenerationJob(job: GenerationJob): Promise<Buffer> {
  switch (job.kind) {
    case 'song':
      return generateSongWav(job.params);
    case 'extendSong':
      return extendSongWav({ ...job.params, source: asBuffer(job.params.source) });
    case 'textImage':
      return generateTextImage(job.prompt, job.seed, job.width, job.height);
    case 'video':
      return generateVideoMp4(job.params);
    case 'model3d':
      return generateGlbModel(job.params);
    case 'faceSwap':
      return composeFaceSwap(asImage(job.target), asImage(job.swap));
    case 'imageEdit':
      return composeImageEdit(job.images.map(asImage), job.prompt, job.seed);
    case 'upscale':
      return upscaleImage(asImage(job.image), job.scale, job.faceEnhance);
    case 'backgroundRemove':
      return removeBackground(asImage(job.image));
    case 'segment':
      return segmentMask(asImage(job.image), job.factor);
  }
}
