/**
 * What runs at the service under this key, this library's tasks and tasks from elsewhere (other
 * apps, other libraries, the service's own site), read from `GET /account/active_tasks` at a
 * modest rate: only while the engine has something to send or tasks at the service, at most
 * once per interval. A service that does not answer it (404, no network, any refusal) is not
 * asked again, and nothing is said, until the service settings change.
 */
import type { AtService } from '../../../shared/index.ts';
import type { ServiceClient } from '../../service/index.ts';
import type { LibraryStore } from '../../store/index.ts';
import type { ServiceConnection } from '../service-connection.ts';
import type { WorkLoop } from '../work-loop.ts';

/** The shortest time between two readings, by default. */
export const SERVICE_LOAD_INTERVAL_MS = 30_000;

/**
 * What the reading needs of the engine's context (engine-context.ts), named part by part: the
 * context holds a ServiceLoad, so this file does not import the context's type.
 */
interface LoadContext {
  readonly store: Pick<LibraryStore, 'countInStates'>;
  readonly connection: Pick<ServiceConnection, 'client' | 'authProblem'>;
  readonly loop: Pick<WorkLoop, 'track'>;
  readonly events: { emitStatus(): void };
}

/*
 * The reading sets no wake of its own: the work loop runs often enough while tasks run or wait
 * (fetch times, task changes), and a wake 30 s ahead would hold back the loop's earlier ones.
 */

export class ServiceLoad {
  readonly #ctx: LoadContext;
  /** The shortest time between two readings; 0: never read. */
  readonly #intervalMs: number;
  /** The client whose service did not answer: not asked again while it is the one in force. */
  #unanswered: ServiceClient | null = null;
  #reading: Promise<void> | null = null;
  #nextAt = 0;
  /** The tasks from elsewhere at the last reading, running and waiting; null while unknown. */
  #elsewhere: { running: number; waiting: number } | null = null;

  constructor(ctx: LoadContext, intervalMs: number) {
    this.#ctx = ctx;
    this.#intervalMs = intervalMs;
  }

  /**
   * What runs at the service: the tasks from elsewhere as last read, with this library's own as
   * they are now (a task sent after the reading counts at once, so the line never says fewer than
   * the library has there); null while unknown or when the service does not tell.
   */
  get known(): AtService | null {
    const elsewhere = this.#elsewhere;
    if (!elsewhere) return null;
    const { store } = this.#ctx;
    return {
      running: elsewhere.running + store.countInStates(['processing']),
      waiting: elsewhere.waiting + store.countInStates(['pending', 'staged']),
      fromElsewhere: elsewhere.running + elsewhere.waiting,
    };
  }

  /** Tasks from elsewhere taking the service's slots (0 while unknown). */
  get fromElsewhere(): number {
    return this.#elsewhere ? this.#elsewhere.running + this.#elsewhere.waiting : 0;
  }

  /** True while the first reading for these settings is under way: sending waits for it. */
  get holdsSending(): boolean {
    return this.#reading !== null && this.#elsewhere === null;
  }

  /** The service settings changed: what was read is forgotten, and the new service is asked. */
  forget(): void {
    this.#elsewhere = null;
    this.#unanswered = null;
    this.#nextAt = 0;
  }

  /** Reads the counts when due and the engine has something to send or tasks at the service. */
  start(now: number): void {
    const { connection, loop, store } = this.#ctx;
    const client = connection.client;
    if (this.#intervalMs <= 0 || now < this.#nextAt) return;
    if (!client || this.#reading || client === this.#unanswered || connection.authProblem) return;
    if (store.countInStates(['queued', 'submitting', 'pending', 'staged', 'processing']) === 0) return;
    this.#nextAt = now + this.#intervalMs;
    const p = this.#read(client).finally(() => {
      this.#reading = null;
    });
    this.#reading = p;
    loop.track(p);
  }

  async #read(client: ServiceClient): Promise<void> {
    let counts: Awaited<ReturnType<ServiceClient['activeTasks']>>;
    try {
      counts = await client.activeTasks();
    } catch {
      if (client !== this.#ctx.connection.client) return;
      this.#unanswered = client;
      this.#set(null);
      return;
    }
    if (client !== this.#ctx.connection.client) return; // the settings changed meanwhile
    let running = 0;
    let waiting = 0;
    for (const c of counts) {
      running += c.processing;
      waiting += c.pending + c.staged;
    }
    // what is not this library's is from elsewhere; it runs as far as the running count leaves
    // room beside this library's running tasks (the library learns of a start only by fetching)
    const { store } = this.#ctx;
    const total = Math.max(0, running + waiting - store.countInStates(['pending', 'staged', 'processing']));
    const elsewhereRunning = Math.min(total, Math.max(0, running - store.countInStates(['processing'])));
    this.#set({ running: elsewhereRunning, waiting: total - elsewhereRunning });
  }

  #set(elsewhere: { running: number; waiting: number } | null): void {
    const was = this.#elsewhere;
    this.#elsewhere = elsewhere;
    const same =
      was === elsewhere ||
      (was !== null &&
        elsewhere !== null &&
        was.running === elsewhere.running &&
        was.waiting === elsewhere.waiting);
    if (!same) this.#ctx.events.emitStatus();
  }
}
