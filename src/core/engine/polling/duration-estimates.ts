/**
 * Expected durations of tasks from the recent history of their model and type
 * (polling-schedule.ts does the arithmetic). The history is read from the library once and
 * cached until a task of that kind completes, so scheduling a fetch never queries the database.
 */
import { catalogEntry, sizeParameterOf, type TaskTypeEntry } from '../../../shared/index.ts';
import type { LibraryStore } from '../../store/index.ts';
import { type DurationEstimate, type DurationSample, estimateDuration } from './polling-schedule.ts';

/** How many of the latest completed tasks of a kind an estimate rests on. */
const HISTORY_LENGTH = 50;

export class DurationEstimates {
  readonly #store: LibraryStore;
  readonly #histories = new Map<string, DurationSample[]>();

  constructor(store: LibraryStore) {
    this.#store = store;
  }

  /**
   * `entry` is the catalog entry of the model and task type (the model id may be an override),
   * when the caller knows it; else it is looked up by the pair.
   */
  estimateFor(
    model: string,
    taskType: string,
    input: Record<string, unknown>,
    entry: TaskTypeEntry | undefined = catalogEntry(model, taskType),
  ): DurationEstimate {
    const key = keyOf(model, taskType);
    let history = this.#histories.get(key);
    if (!history) {
      history = this.#store
        .durationHistory(model, taskType, HISTORY_LENGTH)
        .map((h) => ({ durationMs: h.durationMs, size: sizeParameterOf(entry, h.request.input) }));
      this.#histories.set(key, history);
    }
    const defaultMs = (entry?.expectedSeconds ?? 60) * 1000;
    return estimateDuration(history, sizeParameterOf(entry, input), defaultMs);
  }

  /** A task of this kind completed: its history is read again for the next estimate. */
  forget(model: string, taskType: string): void {
    this.#histories.delete(keyOf(model, taskType));
  }
}

function keyOf(model: string, taskType: string): string {
  return `${model}\u0000${taskType}`;
}
