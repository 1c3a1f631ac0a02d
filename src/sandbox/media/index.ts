/**
 * Real media for the sandbox service: songs (WAV), images (PNG), videos (MP4) and 3D models (GLB) derived
 * deterministically from the task input, and the reading of WAV inputs. Pure functions, no HTTP.
 */

export { ImageCodecUnavailableError } from '../../image-codec/index.ts';
export { composeFaceSwap, type FaceRegion, faceSwapRegion } from './face-swap-compose.ts';
export { generateGlbModel, type ModelParams } from './glb-model.ts';
export { composeImageEdit } from './image-edit-compose.ts';
export {
  checkImageSize,
  DEFAULT_MAX_IMAGE_SIDE,
  type DecodedImage,
  type DecodeImageOptions,
  decodeImageBytes,
  decodeImageInput,
  type FetchUrl,
  type ImageDimensions,
  imageDimensions,
  loadImageBytes,
} from './image-input.ts';
export { decodeMediaBase64 } from './media-base64.ts';
export { MediaInputError } from './media-input-error.ts';
export { pickIndex, seededRandom } from './seeded-random.ts';
export { type ExtendSongParams, extendSongWav } from './song-extend.ts';
export { generateSongWav, SONG_SAMPLE_RATE, type SongParams } from './song-wav.ts';
export { hashText } from './text-hash.ts';
export { generateTextImage } from './text-image.ts';
export { DEFAULT_VIDEO, generateVideoMp4, MAX_VIDEO_SIDE, type VideoParams } from './video-mp4.ts';
export {
  audioFormatName,
  readWavHeader,
  readWavSamples,
  WAV_MAX_RATE,
  WAV_MIN_RATE,
  type WavHeader,
} from './wav-decode.ts';
