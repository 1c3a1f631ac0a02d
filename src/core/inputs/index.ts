/**
 * Local task inputs: what a value is (URL, Base64, file), whether it is acceptable (rules, type
 * sniffing by the media table, image header, audio duration, MP4 facts), which local paths may be touched at all, and the
 * streamed Base64 request body. Plain Node; nothing from electron. This index is the folder's
 * public surface.
 */

export { describeType, type SniffedType, sniffFileType } from '../../shared/media/index.ts';
export { mp3Seconds, readAudioDuration, wavSeconds } from './audio-duration.ts';
export { base64Chunks } from './base64-stream.ts';
export { Base64DecodeError, type DataUri, decodeBase64Strict, parseDataUri } from './base64-strict.ts';
export {
  IMAGE_HEAD_BYTES,
  type ImageFormat,
  type ImageHeader,
  ImageHeaderError,
  readImageHeader,
  readImageHeaderFromBytes,
} from './image-header.ts';
export { isInlineMedia, localPathCandidate } from './input-classification.ts';
export type { InputRule } from './input-rules.ts';
export { dimensionProblem, limitsFor, maxBytesFor, typeProblem, videoProblem } from './input-rules.ts';
export {
  type Base64Input,
  type FileInput,
  type UrlInput,
  type ValidatedInput,
  validateInput,
} from './input-validation.ts';
export { InputValidationError, inputProblem } from './input-validation-error.ts';
export {
  assertLocalPath,
  localPathProblem,
  specialTreeProblem,
  UnsafePathError,
} from './local-path-rules.ts';
export { type Mp4Facts, Mp4ReadError, readMp4Facts, readMp4FactsFromBytes } from './mp4-facts.ts';
export { readAt } from './positional-read.ts';
export {
  base64Length,
  type CreateRequestBody,
  type EncodeOptions,
  encodeCreateRequestBody,
  encodedBodyLength,
  encodedBodyLengthFromSizes,
  type FileInputPaths,
} from './request-body-encoding.ts';
