/**
 * Downloads of a task's results into the library: the guarded connection (public addresses only),
 * the fetch with its time limits and failure kinds, the checked move into the task's folder, and
 * the thumbnail of a picture. Plain Node; nothing from electron. This index is the folder's
 * public surface.
 */

export { DOWNLOAD_FAILED, type DownloadTimes, finalFailure } from './download-errors.ts';
export {
  DEFAULT_DOWNLOAD_TIMES,
  type DownloadedOutput,
  type DownloadOptions,
  downloadOutput,
  OutputDownloadError,
  OutputExpiredError,
  type TaskBytes,
} from './download-output.ts';
export { BlockedAddressError, createDownloadAgent, type DownloadAddressPolicy } from './guarded-agent.ts';
export { type AddressKind, type AddressPolicy, addressAllowed, addressKindOf } from './network-address.ts';
export { makeThumbnail, THUMBNAIL_MAX_SIDE, type Thumbnail, writeNewFile } from './thumbnail.ts';
