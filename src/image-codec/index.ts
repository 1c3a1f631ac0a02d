/**
 * The image codec: sharp, loaded lazily, shared by the app's thumbnails (src/core/downloads) and the
 * sandbox's image generation (src/sandbox), and the limits of what either decodes (a picture's
 * header size is checked before any decode: decode-limits.ts). It imports neither of them; both
 * import this.
 */
export {
  assertDecodableSize,
  DECODE_OPTIONS,
  decodeSizeProblem,
  ImageTooLargeError,
  MAX_DECODE_PIXELS,
  MAX_DECODE_SIDE,
} from './decode-limits.ts';
export {
  ImageCodecUnavailableError,
  type ImageSize,
  imageCodecBuild,
  loadSharp,
  openDecodable,
  readImageSize,
  type Sharp,
} from './image-codec.ts';
