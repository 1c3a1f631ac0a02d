export type { EngineStatus } from '../../shared/index.ts';
export {
  BudgetExceededError,
  type EngineOptions,
  PriceUnknownError,
  type ServiceSettings,
  TaskActionError,
  type TaskChange,
  TaskEngine,
} from './engine.ts';
export { EventBatcher } from './event-batcher.ts';
export {
  type ExportResult,
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
export { LibraryBusyError } from './library-lock.ts';
export {
  isInsideFolder,
  LibraryPathError,
  libraryFileOf,
  resolveLibraryFile,
  storedInputFiles,
  storedPathSegments,
} from './library-paths.ts';
export {
  DEFAULT_POLLING,
  type DurationEstimate,
  type DurationSample,
  estimateDuration,
  nextPollDelay,
  type PollingTuning,
} from './polling-schedule.ts';
export { checkDraftFields, mediaFieldsOf, type TaskDraft, titleOf } from './task-drafts.ts';
