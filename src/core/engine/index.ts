/**
 * The task engine's public surface (the shared shapes it takes and gives are re-exported for its
 * callers). Its files follow a task's life: intake/ (drafts checked and queued, input files,
 * task files and tasks made elsewhere brought in), sending/ (billing-safe creates, uploads,
 * settling creates in doubt), polling/ (fetching running tasks on their schedule and recording
 * the answers), saving/ (result downloads, outputs and posters into the library), actions/
 * (what the user does to a task already held: cancel, retry, trash). The coordinator
 * (engine.ts) and what the parts share (context, clock, status, errors, work loop, storage
 * guard, service connection, reachability, failure outcomes, recovery) are at this root.
 */
export type { EngineStatus, ExportResult, TaskChange, TaskDraft } from '../../shared/index.ts';
export { ChangeCoalescer } from './change-coalescer.ts';
export { TaskEngine } from './engine.ts';
export { type EngineClock, SYSTEM_CLOCK } from './engine-clock.ts';
export {
  BudgetExceededError,
  HistoryUnavailableError,
  PriceUnknownError,
  TaskActionError,
} from './engine-errors.ts';
export type { EngineOptions, RetentionTuning } from './engine-options.ts';
export { checkDraftFields, mediaFieldsOf, titleOf } from './intake/task-drafts.ts';
export type { TaskFileReading } from './intake/task-file-import.ts';
export { type LibraryReader, LibraryReading } from './library-reading.ts';
export {
  DEFAULT_POLLING,
  type DurationEstimate,
  type DurationSample,
  estimateDuration,
  nextPollDelay,
  type PollingTuning,
} from './polling/polling-schedule.ts';
export type { ServiceSettings } from './service-connection.ts';
