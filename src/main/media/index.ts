/**
 * Local task inputs: what a value is (URL, Base64, file), whether it is acceptable, the library's
 * input files (one per content), and the streamed Base64 request body. Plain Node; nothing from
 * electron.
 * It also holds result downloads and thumbnails (download-output.ts, thumbnail.ts), which the
 * engine's result downloads use; this index is the folder's public surface.
 */

export { mp3Seconds, readAudioDuration, wavSeconds } from './audio-duration.ts';
export { base64Chunks } from './base64-stream.ts';
export { Base64DecodeError, type DataUri, decodeBase64Strict, parseDataUri } from './base64-strict.ts';
// Result downloads and thumbnails (download-output.ts, thumbnail.ts).
export { DOWNLOAD_FAILED, type DownloadTimes, finalFailure } from './download-errors.ts';
export {
  DEFAULT_DOWNLOAD_TIMES,
  type DownloadedOutput,
  type DownloadOptions,
  downloadOutput,
  OutputDownloadError,
  OutputExpiredError,
  taskFolder,
} from './download-output.ts';
export { describeType, type MediaFamily, type SniffedType, sniffFileType } from './file-type-sniffing.ts';
export { BlockedAddressError, createDownloadAgent, type DownloadAddressPolicy } from './guarded-agent.ts';
export {
  IMAGE_HEAD_BYTES,
  type ImageFormat,
  type ImageHeader,
  ImageHeaderError,
  readImageHeader,
  readImageHeaderFromBytes,
} from './image-header.ts';
export { localPathCandidate } from './input-classification.ts';
export type { InputRule } from './input-rules.ts';
export { dimensionProblem, maxBytesFor, typeProblem } from './input-rules.ts';
export {
  type Base64Input,
  type FileInput,
  type UrlInput,
  type ValidatedInput,
  validateInput,
} from './input-validation.ts';
export { InputValidationError, inputProblem } from './input-validation-error.ts';
export {
  type ContentHash,
  contentInputPath,
  copyFileInput,
  decodeBase64Input,
  hashBytes,
  hashFileInput,
  hasInputFile,
  INPUTS_FOLDER,
  isContentInputPath,
  writeInputBytes,
} from './library-copy.ts';
export {
  assertLocalPath,
  localPathProblem,
  specialTreeProblem,
  UnsafePathError,
} from './local-path-rules.ts';
export { type AddressKind, type AddressPolicy, addressAllowed, addressKindOf } from './network-address.ts';
export {
  cleanPartialFolder,
  isPartialFileName,
  PARTIAL_FOLDER,
  type PartialCleanup,
} from './partial-folder.ts';
export {
  base64Length,
  type CreateRequestBody,
  type EncodeOptions,
  encodeCreateRequestBody,
  encodedBodyLength,
  encodedBodyLengthFromSizes,
  type FileInputPaths,
} from './request-body-encoding.ts';
export {
  copyOpenFile,
  createUniqueFile,
  createUniqueFolder,
  ensureFolderBelow,
  numberedName,
  openRegularFile,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  refuseLinksBelow,
} from './safe-files.ts';
export { makeThumbnail, THUMBNAIL_MAX_SIDE, type Thumbnail } from './thumbnail.ts';
