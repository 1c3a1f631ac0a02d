/**
 * Fetching the tasks the service holds when each falls due (the schedule is polling-schedule.ts,
 * recorded by remote-answers.ts), at most a few at a time and within a global rate, and what a
 * failed fetch leads to (failure-outcomes.ts decides; this applies it).
 */
import { REMOTE_ACTIVE_STATES, type RemoteTask, type Task } from '../../../shared/index.ts';
import type { ServiceClient } from '../../service/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { pollOutcome } from '../failure-outcomes.ts';
import { FetchRateLimiter } from './fetch-rate-limiter.ts';
import { sameError } from './shown-changes.ts';

/** Fetches under way at once. */
const POLL_CONCURRENCY = 8;

export class TaskPolling {
  readonly #ctx: EngineContext;
  readonly #limiter: FetchRateLimiter;
  /** Ids of the tasks being fetched now. */
  readonly #polling = new Set<string>();

  constructor(ctx: EngineContext, fetchesPerSecond: number) {
    this.#ctx = ctx;
    this.#limiter = new FetchRateLimiter(fetchesPerSecond, ctx.clock.now());
  }

  /** Starts the fetches due at `now`, and sets the loop to wake for the next one. */
  start(now: number): void {
    const { connection, reachability, store, loop } = this.#ctx;
    const client = connection.client;
    if (!client || connection.authProblem) return;
    if (!reachability.allows(now)) return;
    const room = POLL_CONCURRENCY - this.#polling.size;
    if (room <= 0) return;
    const due = store.dueForPoll(now, room + this.#polling.size).filter((t) => !this.#polling.has(t.id));
    for (const task of due.slice(0, room)) {
      const token = this.#limiter.tryTake(now);
      if (!token.ok) {
        loop.wakeAt(now + token.waitMs);
        break;
      }
      this.#polling.add(task.id);
      loop.track(
        this.#poll(client, task).finally(() => {
          this.#polling.delete(task.id);
        }),
      );
    }
    const next = store.nextPollDue();
    if (next !== null && next > now) loop.wakeAt(next);
  }

  async #poll(client: ServiceClient, task: Task): Promise<void> {
    if (!task.remoteId) return;
    let remote: RemoteTask;
    try {
      remote = await client.getTask(task.remoteId);
    } catch (err) {
      this.#pollFailed(task, err);
      return;
    }
    const { answers, clock, events, limit, reachability } = this.#ctx;
    reachability.noteReachable();
    // a charge to convert: the account's value of a point first (at most every 10 min, never fails)
    const usage = remote.usage;
    const inPoints =
      usage !== null && usage.type !== 'llm' && usage.type !== 'quota' && (usage.consume ?? 0) > 0;
    if (inPoints && ['completed', 'failed', 'cancelled'].includes(remote.status)) {
      await answers.pointValue.refresh(client, clock.now());
    }
    const answer = answers.apply(task.id, remote, REMOTE_ACTIVE_STATES, `service: ${remote.status}`);
    if (answer?.task.state === 'staged' && task.state !== 'staged') limit.lower('held');
    // an answer that changed nothing the task shows (the next fetch is set) is not news
    if (answer?.changed) events.changed(answer.task);
  }

  #pollFailed(task: Task, err: unknown): void {
    const { clock, connection, events, reachability, store } = this.#ctx;
    const now = clock.now();
    const unreadable = store.unreadableAnswers(task.id) ?? { count: 0, since: null };
    const outcome = pollOutcome(err, store.pollSchedule(task.id)?.pollCount ?? 0, {
      ...unreadable,
      nowMs: now,
    });
    if (outcome.action === 'fail') {
      const t = store.transition(task.id, 'failed', {
        from: REMOTE_ACTIVE_STATES,
        patch: { nextPollAt: null, error: outcome.error },
        detail: outcome.detail,
      });
      if (t) events.changed(t);
      return;
    }
    if (outcome.cause === 'unreachable') reachability.noteUnreachable();
    if (outcome.cause === 'unauthorized' && connection.noteKeyRefused()) events.emitStatus();
    const retryIn = outcome.retryInMs === 'offline-backoff' ? reachability.backoffMs() : outcome.retryInMs;
    if (outcome.cause === 'rate-limited') this.#limiter.pauseUntil(now + retryIn);
    // the same trouble again is no news: only the next fetch is recorded
    const news =
      outcome.error !== undefined && outcome.error !== null && !sameError(outcome.error, task.error);
    store.transaction(() => {
      store.setPollSchedule(task.id, { nextPollAt: Math.round(now + retryIn) });
      if (outcome.unreadable) store.setUnreadableAnswers(task.id, outcome.unreadable);
      if (news) store.patchTask(task.id, { error: outcome.error });
    });
    if (news) events.changedById(task.id);
  }
}
