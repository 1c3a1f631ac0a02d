/**
 * Makes what the engine's parts share (engine-context.ts) from the engine's options: the work
 * loop, the coalesced events, the library's input files, the storage guard, the service
 * connection, reachability, the concurrency limit, duration estimates and the reader of
 * remote answers. TaskEngine calls it once, in its constructor, and hands the result to every
 * part.
 */
import { type EngineStatus, hostedProfile } from '../../shared/index.ts';
import type { LibraryStore } from '../store/index.ts';
import type { EngineClock } from './engine-clock.ts';
import type { EngineContext } from './engine-context.ts';
import type { EngineOptions } from './engine-options.ts';
import { EngineEvents } from './engine-status.ts';
import { InputFiles } from './intake/input-files.ts';
import { DurationEstimates } from './polling/duration-estimates.ts';
import { DEFAULT_POLLING } from './polling/polling-schedule.ts';
import { RemoteAnswers } from './polling/remote-answers.ts';
import { Reachability } from './reachability.ts';
import type { DownloadLimits } from './saving/output-downloads.ts';
import { ConcurrencyLimit } from './sending/concurrency-limit.ts';
import { SERVICE_LOAD_INTERVAL_MS, ServiceLoad } from './sending/service-load.ts';
import { ServiceConnection } from './service-connection.ts';
import { StorageGuard } from './storage-guard.ts';
import { WorkLoop } from './work-loop.ts';

/** What the engine itself gives its parts: where they live, and its own callbacks. */
export interface EngineHooks {
  libraryDir: string;
  store: LibraryStore;
  clock: EngineClock;
  downloadLimits: DownloadLimits;
  /** One turn of the work loop. */
  pump: (now: number) => void;
  /** A write the library could not take (disk full): the work stops until one succeeds. */
  onStorageFailure: (err: unknown) => void;
  onStorageChange: () => void;
  status: () => EngineStatus;
}

export function makeEngineContext(options: EngineOptions, hooks: EngineHooks): EngineContext {
  const { store, clock } = hooks;
  const random = options.random ?? Math.random;
  const loop = new WorkLoop({ clock, pump: hooks.pump, onFailure: hooks.onStorageFailure });
  const events = new EngineEvents({
    clock,
    store,
    intervalMs: options.changeIntervalMs ?? 50,
    status: hooks.status,
    isClosed: () => loop.closed,
  });
  const estimates = new DurationEstimates(store);
  const connection = new ServiceConnection({
    profile: options.profile ?? hostedProfile(),
    clientRetry: options.clientRetry,
    random,
  });
  const load = new ServiceLoad(
    { store, connection, loop, events },
    options.serviceLoadIntervalMs ?? SERVICE_LOAD_INTERVAL_MS,
  );
  return {
    libraryDir: hooks.libraryDir,
    store,
    clock,
    random,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    loop,
    events,
    inputFiles: new InputFiles(hooks.libraryDir, store),
    storage: new StorageGuard({
      probe: () => store.probeWrite(),
      retryMs: options.storageRetryMs ?? 1_000,
      onChange: hooks.onStorageChange,
      clock,
    }),
    connection,
    load,
    reachability: new Reachability({
      clock,
      random,
      backoff: options.offlineBackoff ?? { baseMs: 1_000, maxMs: 30_000 },
      wakeAt: (at) => loop.wakeAt(at),
      onChange: () => events.emitStatus(),
    }),
    limit: new ConcurrencyLimit({
      store,
      configured: options.maxActiveRemote ?? 5,
      onChange: () => events.emitStatus(),
      fromElsewhere: () => load.fromElsewhere,
    }),
    estimates,
    answers: new RemoteAnswers({
      store,
      clock,
      random,
      estimates,
      polling: options.polling ?? DEFAULT_POLLING,
      maxOutputsPerTask: hooks.downloadLimits.maxOutputsPerTask,
    }),
  };
}
