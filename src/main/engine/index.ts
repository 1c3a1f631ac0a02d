/** Shared shapes the engine takes and gives, re-exported for the engine's callers. */
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
export type { EngineOptions } from './engine-options.ts';
export {
  DEFAULT_POLLING,
  type DurationEstimate,
  type DurationSample,
  estimateDuration,
  nextPollDelay,
  type PollingTuning,
} from './polling-schedule.ts';
export type { ServiceSettings } from './service-connection.ts';
export { checkDraftFields, mediaFieldsOf, titleOf } from './task-drafts.ts';
export type { TaskFileReading } from './task-file-import.ts';
