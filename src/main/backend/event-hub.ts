/**
 * The backend's events (src/shared/ipc, StudioEvents) and who listens to them: the Electron
 * shell forwards them to the window, the browser harness to the page. A listener that throws
 * is reported and does not stop the others.
 */
import type { StudioEventName, StudioEvents } from '../../shared/index.ts';

type Listener = (payload: never) => void;

export class EventHub {
  readonly #listeners = new Map<StudioEventName, Set<Listener>>();
  readonly #report: (line: string) => void;

  /** `report` writes a line about a failing listener (scrubbed by the caller). */
  constructor(report: (line: string) => void) {
    this.#report = report;
  }

  on<E extends StudioEventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  emit<E extends StudioEventName>(event: E, payload: StudioEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (p: StudioEvents[E]) => void)(payload);
      } catch (err) {
        this.#report(`studio backend: a ${event} listener failed: ${(err as Error)?.message ?? err}`);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
