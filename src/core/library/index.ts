/**
 * The library on disk: where it lives, its lock, the rule for every path its database records,
 * the input files kept one per content, the `.partial` download folder, each task's folders,
 * export of tasks to a folder, the file operations for folders someone else may have written,
 * and how a library file is served (media-path.ts, media-range.ts). Plain Node; nothing from
 * electron. This index is the folder's public surface.
 */

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
  type KeptInput,
  keepFileInput,
  keepInputBytes,
  writeInputBytes,
} from './library-copy.ts';
export {
  exportTasks,
  prepareExportFolder,
  safeFolderName,
  sidecarOf,
} from './library-export.ts';
export {
  APP_NAME,
  DEMO_LIBRARY_FOLDER,
  defaultDemoLibraryDir,
  defaultLibraryDir,
  defaultUserDataDir,
} from './library-location.ts';
export {
  acquireLibraryLock,
  LibraryBusyError,
  type LibraryLock,
  LOCK_FILE_NAME,
  LOCK_OWNER_FILE_NAME,
} from './library-lock.ts';
export {
  isInsideFolder,
  LibraryPathError,
  libraryFileOf,
  resolveLibraryFile,
  storedInputFiles,
  storedPathSegments,
} from './library-paths.ts';
export {
  libraryRelativePath,
  MEDIA_TYPES,
  mediaTypeOf,
  resolveLibraryMediaPath,
} from './media-path.ts';
export {
  type ByteRange,
  type MediaResponsePlan,
  parseRangeHeader,
  planMediaResponse,
} from './media-range.ts';
export {
  cleanPartialFolder,
  createPartialFile,
  isPartialFileName,
  PARTIAL_FOLDER,
  type PartialCleanup,
} from './partial-folder.ts';
export {
  copyOpenFile,
  createUniqueFile,
  createUniqueFolder,
  ensureFolderBelow,
  numberedName,
  openNewFile,
  openRegularFile,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  refuseLinksBelow,
  writeAll,
} from './safe-files.ts';
export { ownFoldersOf, removeTaskFolders, taskFolder } from './task-folders.ts';
