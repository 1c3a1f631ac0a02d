/**
 * Picks, out of the engine's deliveries of task changes, the tasks that have just come to an end the user
 * wants to hear about (saved, failed, expired, or uncertain and needing a decision), once each.
 * A change to a task already at its end (a favourite, a rename) is not news: the watch
 * remembers the last state it saw of each task, and for a task it has not seen it asks when the
 * task's state last changed.
 */
import type { Task, TaskChange, TaskState } from '../../shared/index.ts';

export const NEWS_STATES: readonly TaskState[] = ['saved', 'failed', 'expired', 'uncertain'];

/** A task first seen in this state counts as news when it entered it within this time. */
const FRESH_MS = 15_000;
const MAX_REMEMBERED = 5_000;

export class TaskFinishWatch {
  readonly #lastState = new Map<string, TaskState>();
  readonly #enteredAt: (taskId: string) => string | null;
  readonly #now: () => number;

  /** `enteredAt` answers when the task's current state began (ISO), from the store's events. */
  constructor(enteredAt: (taskId: string) => string | null, now: () => number = Date.now) {
    this.#enteredAt = enteredAt;
    this.#now = now;
  }

  /** The tasks of these changes that just reached a news state. */
  observe(changes: readonly TaskChange[]): Task[] {
    const news: Task[] = [];
    for (const { taskId, task } of changes) {
      if (!task) {
        this.#lastState.delete(taskId);
        continue;
      }
      const previous = this.#lastState.get(taskId);
      if (NEWS_STATES.includes(task.state) && previous !== task.state) {
        if (previous !== undefined || this.#freshlyEntered(taskId)) news.push(task);
      }
      this.#remember(taskId, task.state);
    }
    return news;
  }

  #freshlyEntered(taskId: string): boolean {
    const at = this.#enteredAt(taskId);
    if (!at) return false;
    const t = Date.parse(at);
    return Number.isFinite(t) && this.#now() - t <= FRESH_MS;
  }

  #remember(taskId: string, state: TaskState): void {
    this.#lastState.delete(taskId);
    this.#lastState.set(taskId, state);
    if (this.#lastState.size > MAX_REMEMBERED) {
      const oldest = this.#lastState.keys().next().value;
      if (oldest !== undefined) this.#lastState.delete(oldest);
    }
  }
}
