/**
 * The task engine the backend works with: opened on a library folder, its task changes and
 * status passed on as events (and its finished tasks as notices), closed, and reopened on
 * another folder, going back to the old one when the new one cannot be opened.
 */

import { type EngineStatus, TaskEngine } from '../../core/engine/index.ts';
import type { EngineStatusView } from '../../shared/index.ts';
import type { EngineTuning } from './backend-options.ts';
import type { EventHub } from './event-hub.ts';
import type { FinishNotices } from './finish-notices.ts';

export interface EngineHostParts {
  tuning: EngineTuning | undefined;
  /** Where the engine's log lines go (scrubbed by the caller). */
  log: (line: string) => void;
  hub: EventHub;
  notices: FinishNotices;
  /** The status as the window sees it (with the service it goes to). */
  statusView: (status: EngineStatus) => EngineStatusView;
  /** Resolves once the calls running now have finished (a reopen waits for them). */
  callsSettled: () => Promise<void>;
}

export class EngineHost {
  readonly #parts: EngineHostParts;
  #engine: TaskEngine | null = null;
  #unsubscribe: (() => void)[] = [];
  #libraryDir = '';
  #maxActiveRemote = 0;
  #networkOnline = true;

  constructor(parts: EngineHostParts) {
    this.#parts = parts;
  }

  /** The engine; only while one is open (the backend opens one before anything else). */
  get engine(): TaskEngine {
    if (!this.#engine) throw new Error('the library is not open');
    return this.#engine;
  }

  get libraryDir(): string {
    return this.#libraryDir;
  }

  get maxActiveRemote(): number {
    return this.#maxActiveRemote;
  }

  setNetworkOnline(online: boolean): void {
    this.#networkOnline = online;
    this.#engine?.setNetworkOnline(online);
  }

  /**
   * How many tasks may run at the service at once, from the engine's next send: the library
   * stays open, and what the engine learned of the service (a refused key, a lower limit the
   * service showed) stays with it.
   */
  setMaxActiveRemote(maxActiveRemote: number): void {
    if (maxActiveRemote === this.#maxActiveRemote) return;
    this.engine.setMaxActiveRemote(maxActiveRemote);
    this.#maxActiveRemote = maxActiveRemote;
  }

  async open(libraryDir: string, maxActiveRemote: number): Promise<void> {
    const { hub, notices, statusView } = this.#parts;
    const engine = await TaskEngine.open({
      ...this.#parts.tuning,
      libraryDir,
      maxActiveRemote,
      service: null,
      log: this.#parts.log,
    });
    this.#engine = engine;
    this.#libraryDir = engine.libraryDir;
    this.#maxActiveRemote = maxActiveRemote;
    notices.watch(engine.store);
    engine.setNetworkOnline(this.#networkOnline);
    this.#unsubscribe = [
      engine.onTaskChanges((changes) => {
        hub.emit('tasks.changed', changes);
        notices.observe(changes);
      }),
      engine.onStatus((status) => hub.emit('engine.status', statusView(status))),
    ];
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    await this.#engine?.close();
  }

  /**
   * Closes the engine and opens it on `libraryDir`, once the running calls are done. On failure
   * the old library is opened again and `reconnect` points it at the service, then the error is
   * thrown.
   */
  async reopen(libraryDir: string, maxActiveRemote: number, reconnect: () => Promise<void>): Promise<void> {
    await this.#parts.callsSettled();
    const oldDir = this.#libraryDir;
    const oldMax = this.#maxActiveRemote;
    await this.close();
    try {
      await this.open(libraryDir, maxActiveRemote);
    } catch (err) {
      await this.open(oldDir, oldMax);
      await reconnect();
      throw err;
    }
    this.#parts.hub.emit('engine.status', this.#parts.statusView(this.engine.status()));
  }
}
