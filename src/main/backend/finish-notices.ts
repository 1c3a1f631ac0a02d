/**
 * Who wants to hear that a task just ended (the shell's OS notifications): each delivery of task
 * changes of the library in use goes through a TaskFinishWatch, and its news to the listeners.
 */
import type { Task, TaskChange } from '../../shared/index.ts';
import { TaskFinishWatch } from './task-finish-watch.ts';

/** The part of the library's store the watch asks when a task's state last changed. */
export interface TaskEventsSource {
  events(taskId: string): readonly { at: string }[];
}

export class FinishNotices {
  readonly #listeners = new Set<(task: Task) => void>();
  #watch: TaskFinishWatch | null = null;

  on(listener: (task: Task) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts over on a library just opened. */
  watch(store: TaskEventsSource): void {
    this.#watch = new TaskFinishWatch((id) => {
      const events = store.events(id);
      return events[events.length - 1]?.at ?? null;
    });
  }

  observe(changes: readonly TaskChange[]): void {
    for (const task of this.#watch?.observe(changes) ?? []) {
      for (const listener of this.#listeners) {
        try {
          listener(task);
        } catch {
          // a failing notifier must not stop the others
        }
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
