/**
 * What the parts of the engine share. TaskEngine makes one of each and hands this to every part
 * (intake, actions, import, recovery, submission, polling, downloads); each part keeps its own
 * state and reaches the others only through here.
 */
import type { LibraryStore } from '../store/index.ts';
import type { EngineClock } from './engine-clock.ts';
import { TaskActionError } from './engine-errors.ts';
import type { EngineEvents } from './engine-status.ts';
import type { InputFiles } from './intake/input-files.ts';
import type { DurationEstimates } from './polling/duration-estimates.ts';
import type { RemoteAnswers } from './polling/remote-answers.ts';
import type { Reachability } from './reachability.ts';
import type { ConcurrencyLimit } from './sending/concurrency-limit.ts';
import type { ServiceLoad } from './sending/service-load.ts';
import type { ServiceConnection } from './service-connection.ts';
import type { StorageGuard } from './storage-guard.ts';
import type { WorkLoop } from './work-loop.ts';

export interface EngineContext {
  /** The library folder, resolved. */
  readonly libraryDir: string;
  readonly store: LibraryStore;
  readonly clock: EngineClock;
  /** Returns [0, 1): the jitter of fetch times and backoffs. */
  readonly random: () => number;
  /** Where the engine reports what it left alone in the library (never the key). */
  readonly log: (line: string) => void;
  readonly loop: WorkLoop;
  readonly events: EngineEvents;
  /** The library's input files, one per content (input-files.ts). */
  readonly inputFiles: InputFiles;
  /** Stops the work while the library cannot record it (storage-guard.ts). */
  readonly storage: StorageGuard;
  readonly connection: ServiceConnection;
  readonly reachability: Reachability;
  readonly limit: ConcurrencyLimit;
  /** What runs at the service under this key, this library's tasks and others (service-load.ts). */
  readonly load: ServiceLoad;
  readonly estimates: DurationEstimates;
  readonly answers: RemoteAnswers;
}

/**
 * What reading the library needs: a task.json or a result file (task-file-import.ts,
 * file-recall.ts) the library's folder and records and the service's profile (its catalog);
 * retention's view and preview (retention-reading.ts) the records, the clock and the log. A
 * library opened only to read, beside the app that has it open, gives this too (library-reading.ts).
 */
export type ReadingContext = Pick<EngineContext, 'libraryDir' | 'store' | 'clock' | 'log'> & {
  readonly connection: Pick<ServiceConnection, 'profile'>;
};

/** Throws once the engine is closing. */
export function assertOpen(ctx: EngineContext): void {
  if (ctx.loop.closed) throw new TaskActionError('the engine is closed');
}
