/**
 * Recording what the service said about a task (the answer to a create, to a fetch, or to an
 * import), in one transaction: state, remote id, times, usage, outputs and the next fetch. An
 * answer that changes nothing the task shows records only the next fetch (shown-changes.ts).
 */
import {
  entryOfTask,
  REMOTE_ACTIVE_STATES,
  type RemoteTask,
  type Task,
  type TaskError,
  type TaskState,
} from '../../../shared/index.ts';
import { billedCostOf } from '../../../shared/task/billed-cost.ts';
import type { LibraryStore } from '../../store/index.ts';
import type { EngineClock } from '../engine-clock.ts';
import { outputCountProblem } from '../saving/output-downloads.ts';
import type { DurationEstimates } from './duration-estimates.ts';
import { AccountPointValue } from './point-value.ts';
import { nextPollDelay, type PollingTuning } from './polling-schedule.ts';
import { CANCELLED_AT_SERVICE, localStateOf, remoteFailureOf, remotePatchOf } from './remote-state.ts';
import { changesShown } from './shown-changes.ts';

export interface RemoteAnswersOptions {
  store: LibraryStore;
  clock: EngineClock;
  random: () => number;
  estimates: DurationEstimates;
  polling: PollingTuning;
  /** Most outputs one task may have; a completed task with more fails. */
  maxOutputsPerTask: number;
}

/** A recorded answer: the task as it is now, and whether anything it shows changed. */
export interface RecordedAnswer {
  task: Task;
  changed: boolean;
}

/** The states in which the service has billed a task for good (its `usage.consume` is final). */
const BILLED_STATES: readonly TaskState[] = ['completed', 'failed', 'cancelled'];

export class RemoteAnswers {
  readonly #options: RemoteAnswersOptions;
  /** The account's value of a point, read by the fetches before an ended task is recorded. */
  readonly pointValue = new AccountPointValue();

  constructor(options: RemoteAnswersOptions) {
    this.#options = options;
  }

  /**
   * Records `remote` on task `id` when the task is in one of `from`; null when it is not (or is
   * gone). `submittedAt` is given for the answer to a create: the fetches start over from it.
   * `changed` is false when the answer changed nothing the task shows (only when to fetch next).
   */
  apply(
    id: string,
    remote: RemoteTask,
    from: readonly TaskState[],
    detail: string,
    submittedAt?: number,
  ): RecordedAnswer | null {
    const { store, clock, random, estimates, polling, maxOutputsPerTask } = this.#options;
    const now = clock.now();
    const reported = localStateOf(remote);
    // a completed task with more outputs than allowed fails, and none of them is kept
    const tooMany =
      reported === 'completed' ? outputCountProblem(remote.outputs.length, maxOutputsPerTask) : null;
    const to: TaskState = tooMany ? 'failed' : reported;
    return store.transaction((): RecordedAnswer | null => {
      const current = store.getTask(id);
      if (!current || !from.includes(current.state)) return null;
      const pollCount = submittedAt !== undefined ? 0 : (store.pollSchedule(id)?.pollCount ?? 0) + 1;
      // a readable answer ends a run of unreadable ones: the count starts again
      if ((store.unreadableAnswers(id)?.count ?? 0) > 0)
        store.setUnreadableAnswers(id, { count: 0, since: null });
      // once the service ended the task its usage is the bill: converted and checked against the price
      const cost = BILLED_STATES.includes(reported)
        ? { cost: billedCostOf(remote.usage, current.estimateMicros, this.pointValue.micros) }
        : {};
      const shown = {
        ...remotePatchOf(remote),
        ...cost,
        remoteId: current.remoteId ?? remote.id,
        ...(submittedAt !== undefined ? { submittedAt: new Date(submittedAt).toISOString() } : {}),
        error: null as TaskError | null,
      };
      if (to === 'failed') shown.error = tooMany ?? remoteFailureOf(remote);
      if (to === 'cancelled') shown.error = CANCELLED_AT_SERVICE;
      let nextPollAt: number | null = null;
      if (REMOTE_ACTIVE_STATES.includes(to)) {
        const since = Date.parse(shown.submittedAt ?? current.submittedAt ?? new Date(now).toISOString());
        const estimate = estimates.estimateFor(
          current.model,
          current.taskType,
          current.request.input,
          entryOfTask(current),
        );
        nextPollAt = Math.round(
          now + nextPollDelay({ elapsedMs: now - since, fetches: pollCount, estimate }, random, polling),
        );
      }
      if (to === 'completed') {
        store.replaceOutputs(id, remote.outputs);
        estimates.forget(current.model, current.taskType);
      }
      if (to === current.state) {
        if (!changesShown(current, shown)) {
          store.setPollSchedule(id, { pollCount, nextPollAt });
          return { task: current, changed: false };
        }
        const task = store.patchTask(id, { ...shown, pollCount, nextPollAt });
        return task ? { task, changed: true } : null;
      }
      const task = store.transition(id, to, { from, patch: { ...shown, pollCount, nextPollAt }, detail });
      return task ? { task, changed: true } : null;
    });
  }
}
