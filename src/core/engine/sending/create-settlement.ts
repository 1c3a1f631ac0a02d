/**
 * Settling creates in doubt from the service's task history (issue 20): for an uncertain task
 * (its create's answer lost, a 5xx, or the app stopped while sending), read the history of its
 * family over a window around the time it was sent, fetch each task there the library does not
 * know, and compare its echoed input with the request (create-match.ts).
 * - exactly one could be it: adopt it, in one transaction, as the create's answer would have
 *   been recorded (no second create); polling and downloads go on as usual;
 * - none, and the whole window is read and safely past: the service never created it and
 *   nothing was billed (Submit again then sends it without the double-billing warning);
 * - several: the user chooses (`settle(id, remoteId)`), the candidates kept on the task;
 * - no history (404 from an older service, no connection): left uncertain with the reason.
 * One look at a time, and never while a create is under way, so a task being created is never
 * mistaken for one in doubt.
 */
import { entryOfTask, type RemoteTask, type Task, type TaskSettlement } from '../../../shared/index.ts';
import { type ServiceClient, ServiceError } from '../../service/index.ts';
import { CorruptTaskRowError } from '../../store/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { TaskActionError } from '../engine-errors.ts';
import { couldBeCreateOf } from './create-match.ts';
import { ID_CLASH_DETAIL, remoteIdClashOf } from './remote-id-clash.ts';

export interface SettlementTuning {
  /** How far either side of the sending time the history is read (the service's clock may differ). Default 10 min. */
  windowMs: number;
  /** How long after the window's end before an empty history means "never created". Default 2 min. */
  marginMs: number;
  /** How often a task not found yet is looked for again. Default 1 min. */
  recheckMs: number;
}

export const DEFAULT_SETTLEMENT: SettlementTuning = {
  windowMs: 10 * 60_000,
  marginMs: 2 * 60_000,
  recheckMs: 60_000,
};

const PAGE_SIZE = 100;
/** Pages read per look at most (10,000 tasks in the window); past that the window is not read whole. */
const MAX_PAGES = 100;
/** How long after sending the history's silence is trusted (how long it keeps tasks is not published). */
const HISTORY_TRUSTED_MS = 24 * 60 * 60_000;
/** A history that answered 404 (a service without one) is asked again this much later. */
const NO_HISTORY_RECHECK_MS = 60 * 60_000;

/** When the task was last sent: its last move to `submitting`. */
function sentAtOf(ctx: EngineContext, task: Task): number {
  const sent = ctx.store
    .events(task.id)
    .filter((e) => e.to === 'submitting')
    .at(-1);
  return Date.parse(sent?.at ?? task.updatedAt);
}

function timeText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

export class CreateSettlement {
  readonly #ctx: EngineContext;
  readonly #tuning: SettlementTuning;
  readonly #sending: () => boolean;
  #looking: Promise<void> | null = null;
  /** When each uncertain task is looked for next (epoch ms); absent: now. */
  readonly #nextLookAt = new Map<string, number>();

  constructor(ctx: EngineContext, tuning: Partial<SettlementTuning>, sending: () => boolean) {
    this.#ctx = ctx;
    this.#tuning = { ...DEFAULT_SETTLEMENT, ...tuning };
    this.#sending = sending;
  }

  /** Whether a look is under way (no create is sent meanwhile). */
  get busy(): boolean {
    return this.#looking !== null;
  }

  /** Looks for the next uncertain task that is due, when nothing is being sent. */
  start(now: number): void {
    const { connection, loop, reachability, store } = this.#ctx;
    const client = connection.client;
    if (this.#looking || !client || connection.authProblem || this.#sending()) return;
    if (!reachability.allows(now)) return;
    let next: Task | null = null;
    let wake = Number.POSITIVE_INFINITY;
    for (const task of store.tasksInStates(['uncertain'])) {
      if (!this.#needsLook(task)) continue;
      const at = this.#nextLookAt.get(task.id) ?? now;
      if (at <= now && !next) next = task;
      else wake = Math.min(wake, at);
    }
    if (Number.isFinite(wake)) loop.wakeAt(wake);
    if (!next) return;
    const task = next;
    const p = this.#look(client, task)
      .catch((err: unknown) => this.#record(task, this.#unreachable(err)))
      .finally(() => {
        this.#looking = null;
      });
    this.#looking = p;
    loop.track(p);
  }

  #needsLook(task: Task): boolean {
    if (task.deletedAt) return false;
    const outcome = task.settlement?.outcome;
    if (outcome === 'not-created' || outcome === 'choose') return false;
    // answered with another task's id: something was made; the user checks at the service
    const last = this.#ctx.store.events(task.id).at(-1);
    return !last?.detail?.startsWith(ID_CLASH_DETAIL);
  }

  async #look(client: ServiceClient, task: Task): Promise<void> {
    const { clock } = this.#ctx;
    const { windowMs, marginMs, recheckMs } = this.#tuning;
    const sentAt = sentAtOf(this.#ctx, task);
    const from = sentAt - windowMs;
    const to = sentAt + windowMs;
    const family = entryOfTask(task)?.historyFamily;
    const found: RemoteTask[] = [];
    let complete = false;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await client.history({
        page,
        pageSize: PAGE_SIZE,
        fromMs: from,
        toMs: to,
        ...(family ? { family } : {}),
      });
      for (const record of answer.records) {
        if (
          record.createdAtMs !== null &&
          (record.createdAtMs < from - 1000 || record.createdAtMs > to + 1000)
        )
          continue;
        if (record.action && record.action.toLowerCase() !== task.taskType.toLowerCase()) continue;
        if (this.#known(record.taskId)) continue;
        const remote = await client.getTask(record.taskId).catch((err: unknown) => {
          // listed but gone (404): not this task
          if (err instanceof ServiceError && err.status === 404) return null;
          throw err;
        });
        if (remote && couldBeCreateOf(task, remote)) found.push(remote);
      }
      const seen = (page - 1) * PAGE_SIZE + answer.records.length;
      if (answer.records.length < PAGE_SIZE || (answer.total !== null && seen >= answer.total)) {
        complete = true;
        break;
      }
    }
    const now = clock.now();
    const window = `${timeText(from)} to ${timeText(to)} UTC`;
    if (found.length === 1) {
      this.#adopt(task, found[0] as RemoteTask, sentAt, 'found in the service’s task history');
      return;
    }
    if (found.length > 1) {
      const candidates = found.map((r) => ({ remoteId: r.id, createdAt: r.createdAt }));
      this.#record(task, {
        outcome: 'choose',
        note: `the service has ${found.length} tasks that could be this one (created from ${window}): choose the one that is this task`,
        candidates,
      });
      return;
    }
    const safeAt = to + marginMs;
    if (now - sentAt > HISTORY_TRUSTED_MS) {
      // an old task: the history may no longer list it, so its absence proves nothing
      this.#record(task, {
        outcome: 'unreachable',
        note: 'it was sent over a day ago, and the service’s task history may no longer list tasks that old, so whether it created it cannot be told',
        candidates: [],
        recheckAt: Number.POSITIVE_INFINITY,
      });
      return;
    }
    if (complete && now >= safeAt) {
      this.#record(task, {
        outcome: 'not-created',
        note: `the service never created it; nothing was billed (its task history from ${window} has no such task)`,
        candidates: [],
      });
      return;
    }
    this.#nextLookAt.set(task.id, Math.min(now + recheckMs, Math.max(now + 1, safeAt)));
    this.#record(task, {
      outcome: 'looking',
      note: `not in the service’s task history yet; looking again until ${timeText(safeAt)} UTC`,
      candidates: [],
    });
  }

  /** Whether the library already has the service's task `remoteId` (an unreadable row counts). */
  #known(remoteId: string): boolean {
    try {
      return this.#ctx.store.getTaskByRemoteId(remoteId) !== null;
    } catch (err) {
      if (err instanceof CorruptTaskRowError) return true;
      throw err;
    }
  }

  /** Takes `remote` as the task's create answer, in one transaction (as the create's answer would have been). */
  #adopt(task: Task, remote: RemoteTask, sentAt: number, how: string): Task {
    const { answers, events, store } = this.#ctx;
    const clash = remoteIdClashOf(store, task.id, remote.id);
    if (clash) throw new TaskActionError(clash.message);
    const after = store.transaction(() => {
      const recorded = answers.apply(
        task.id,
        remote,
        ['uncertain'],
        `${how}: task ${remote.id}, not sent again`,
        sentAt,
      );
      return recorded ? store.patchTask(task.id, { settlement: null }) : null;
    });
    if (!after) throw new TaskActionError(`task ${task.id} is no longer uncertain`);
    this.#nextLookAt.delete(task.id);
    events.changed(after);
    this.#ctx.loop.kick();
    return after;
  }

  #unreachable(err: unknown): Omit<TaskSettlement, 'checkedAt'> & { recheckAt: number } {
    const now = this.#ctx.clock.now();
    const status = err instanceof ServiceError ? err.status : undefined;
    if (status === 404) {
      return {
        outcome: 'unreachable',
        note: 'this service has no task history (HTTP 404), so whether it created the task cannot be checked',
        candidates: [],
        recheckAt: now + NO_HISTORY_RECHECK_MS,
      };
    }
    const reason = err instanceof Error ? err.message : String(err);
    return {
      outcome: 'unreachable',
      note: `the service’s task history could not be read (${reason}); looking again later`,
      candidates: [],
      recheckAt: now + this.#tuning.recheckMs,
    };
  }

  #record(task: Task, found: Omit<TaskSettlement, 'checkedAt'> & { recheckAt?: number }): void {
    const { clock, events, storage, store } = this.#ctx;
    const { recheckAt, ...settlement } = found;
    if (recheckAt !== undefined) this.#nextLookAt.set(task.id, recheckAt);
    const value: TaskSettlement = { ...settlement, checkedAt: new Date(clock.now()).toISOString() };
    storage.keep(`settlement:${task.id}`, () => {
      const current = store.getTask(task.id);
      if (current?.state !== 'uncertain') return;
      const decided = {
        'not-created': 'Submit it again (it is sent once), or discard it.',
        choose: 'or submit it again, or discard it.',
      } as const;
      const patch =
        value.outcome === 'not-created' || value.outcome === 'choose'
          ? {
              settlement: value,
              error: {
                kind: 'uncertain',
                message: `${value.note}${value.outcome === 'choose' ? ', ' : '. '}${decided[value.outcome]}`,
                code: null,
              },
            }
          : { settlement: value };
      const after = store.patchTask(task.id, patch);
      if (after) events.changed(after);
    });
  }

  /** The user's choice among a task's candidates (or any task of the service not in the library). */
  async choose(id: string, remoteId: string): Promise<Task> {
    const { connection, store } = this.#ctx;
    const task = store.getTask(id);
    if (!task) throw new TaskActionError(`no task ${id} in the library`);
    if (task.state !== 'uncertain')
      throw new TaskActionError(`cannot settle a task that is ${task.state}: only uncertain tasks can be`);
    const client = connection.client;
    if (!client) throw new TaskActionError('no service is set up, so the task cannot be fetched');
    if (this.#known(remoteId))
      throw new TaskActionError(`the service's task ${remoteId} is already in the library`);
    const remote = await client.getTask(remoteId);
    return this.#adopt(task, remote, sentAtOf(this.#ctx, task), 'chosen by the user');
  }

  /** Forgets when a task was to be looked at (it was sent again or discarded). */
  forget(id: string): void {
    this.#nextLookAt.delete(id);
  }
}
