/** What TaskEngine.open takes: the library, the service, and the engine's tuning (defaults in engine.ts). */
import type { ServiceProfile } from '../../shared/index.ts';
import type { RetryPolicy } from '../service/index.ts';
import type { EngineClock } from './engine-clock.ts';
import type { PollingTuning } from './polling/polling-schedule.ts';
import type { OfflineBackoff } from './reachability.ts';
import type { DownloadLimits } from './saving/output-downloads.ts';
import type { SettlementTuning } from './sending/create-settlement.ts';
import type { ServiceSettings } from './service-connection.ts';

export interface EngineOptions {
  libraryDir: string;
  service?: ServiceSettings | null;
  /**
   * How the service names things (vendor, model overrides, the negative prompt's field), applied
   * when a task is queued. Default: the hosted service.
   */
  profile?: ServiceProfile;
  /** Tasks allowed at the service at once (pending + staged + processing). Default 5. */
  maxActiveRemote?: number;
  /** Global limit on task fetches per second. Default 10. */
  fetchesPerSecond?: number;
  /** Largest output file accepted, in bytes. Default 1 GB. */
  maxOutputBytes?: number;
  /** Time limits, tries and the outputs-per-task cap of result downloads (output-downloads.ts). */
  downloads?: Partial<DownloadLimits>;
  polling?: PollingTuning;
  /** Backoff while the service cannot be reached. Default 1 s doubling to 30 s. */
  offlineBackoff?: OfflineBackoff;
  clientRetry?: Partial<RetryPolicy>;
  random?: () => number;
  /** Shortest time between two deliveries of coalesced task changes. Default 50 ms. */
  changeIntervalMs?: number;
  /** While the library cannot take writes (disk full), how often a small write is tried. Default 1 s. */
  storageRetryMs?: number;
  /** Where the engine reports what it left alone in the library (never the key). Default stderr. */
  log?: (line: string) => void;
  /**
   * The time the engine reads and its timers (fetch times, backoffs, status and event batches,
   * the times it records). Default: the system's. The service client's own retries and the
   * download time limits run on the system's time whatever this is.
   */
  clock?: EngineClock;
  /**
   * The shortest time between two readings of what runs at the service (its running-task counts,
   * service-load.ts). Default 30 s; 0: never read them.
   */
  serviceLoadIntervalMs?: number;
  /** How creates in doubt are settled from the service's task history (create-settlement.ts). */
  settlement?: Partial<SettlementTuning>;
  /** How retention's runs and previews are cut (actions/retention-actions.ts). */
  retention?: Partial<RetentionTuning>;
  /** How Recently deleted's purge after the opening is cut (actions/trash-purge.ts). */
  trashPurge?: Partial<TrashPurgeTuning>;
}

/** How Recently deleted's purge cuts its batches (one short transaction each, then their files). */
export interface TrashPurgeTuning {
  /** Tasks deleted in one batch at most. */
  batchTasks: number;
  /** Milliseconds a batch takes, about (its size follows the last batch's time per task). */
  batchMs: number;
}

/** How retention's runs and previews are cut: small enough that a page read never waits long. */
export interface RetentionTuning {
  /** Tasks a run looks at in one batch (one short transaction; the event loop goes on between). */
  batchTasks: number;
  /** Milliseconds between two batches (0: the next turn of the event loop; tests slow a run down). */
  batchPauseMs: number;
  /** Tasks the window's preview looks at, at most (past them it says "at least"). */
  previewTasks: number;
}
