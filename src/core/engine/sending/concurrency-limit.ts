/**
 * How many tasks the engine lets the service hold at once (pending, staged and processing): the
 * user's setting, and fewer once the service showed that its plan takes fewer (it held a task
 * back, or refused one while others ran). What the service showed is kept, with the reason in
 * words, until the service settings change.
 */
import { REMOTE_ACTIVE_STATES } from '../../../shared/index.ts';
import type { LibraryStore } from '../../store/index.ts';

export interface ConcurrencyLimitOptions {
  store: LibraryStore;
  /** The user's setting. */
  configured: number;
  /** Called when the limit the service showed is lowered. */
  onChange: () => void;
  /** Tasks from elsewhere at the service (service-load.ts): they take slots too. */
  fromElsewhere: () => number;
}

export class ConcurrencyLimit {
  readonly #options: ConcurrencyLimitOptions;
  #configured: number;
  /** What the service showed it takes at once, with the reason; null: unknown. */
  #learned: { tasks: number; reason: string } | null = null;

  constructor(options: ConcurrencyLimitOptions) {
    this.#options = options;
    this.#configured = options.configured;
  }

  /** The most tasks to have at the service now. */
  get max(): number {
    return Math.min(this.#configured, this.learned?.tasks ?? Number.POSITIVE_INFINITY);
  }

  /** The lower limit in force below the setting, with the reason; null when the setting holds. */
  get learned(): { tasks: number; reason: string } | null {
    const elsewhere = this.#options.fromElsewhere();
    const left = Math.max(1, this.#configured - elsewhere);
    if (
      elsewhere === 0 ||
      left >= this.#configured ||
      left >= (this.#learned?.tasks ?? Number.POSITIVE_INFINITY)
    ) {
      return this.#learned;
    }
    const those = elsewhere === 1 ? '1 task from elsewhere is' : `${elsewhere} tasks from elsewhere are`;
    return {
      tasks: left,
      reason: `${those} at the service under this key and take${elsewhere === 1 ? 's' : ''} slots of your plan: the app now sends at most ${left} at a time.`,
    };
  }

  /** The user's setting, used from the next time the engine sends a task. */
  setConfigured(tasks: number): void {
    this.#configured = tasks;
  }

  /** Forgets what the service showed (its settings changed). */
  forget(): void {
    this.#learned = null;
  }

  /**
   * The service held a task (`staged`) or refused one while others ran: its plan takes no more
   * than are running now. Sends at most that many from now on, and says why.
   */
  lower(cause: 'held' | 'refused'): void {
    const running = this.#options.store.countInStates(
      cause === 'held' ? ['pending', 'processing'] : REMOTE_ACTIVE_STATES,
    );
    // a refusal with nothing running is a rate limit, not a concurrency limit
    if (cause === 'refused' && running === 0) return;
    const tasks = Math.max(1, running);
    if (tasks >= this.max) return;
    const what = cause === 'held' ? 'held a task back' : 'refused a task';
    const others =
      running === 0
        ? 'although none of this app’s were running'
        : `while ${running} ${running === 1 ? 'was' : 'were'} running`;
    this.#learned = {
      tasks,
      reason: `The service ${what} ${others}, so your plan seems to allow ${tasks} at once: the app now sends at most ${tasks} at a time.`,
    };
    this.#options.onChange();
  }
}
