/**
 * What tells the cards of one batch apart (issue 21, item 10): a task's place in its batch
 * ("2 of 4") and the seed it was sent with, when it has them; and the titles results are
 * compared under, told apart the same way when they share one. Pure.
 */
import type { TaskListItem } from '../../../shared/index.ts';

export function variationWords(task: Pick<TaskListItem, 'batchPlace' | 'request'>): string | null {
  const place = task.batchPlace && task.batchPlace.count > 1 ? task.batchPlace : null;
  const seed = task.request.input.seed;
  const parts = [
    place ? `${place.index} of ${place.count}` : null,
    typeof seed === 'number' && Number.isFinite(seed) ? `seed ${seed}` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/**
 * The titles of results shown side by side (Compare): a title only one of them has as it is; a
 * shared one with each result's place and seed ("Harbour at dusk (2 of 3 · seed 1002)"), else
 * its number among those sharing it ("Kite (2)").
 */
export function comparedTitles(
  tasks: readonly Pick<TaskListItem, 'title' | 'batchPlace' | 'request'>[],
): string[] {
  const seen = new Map<string, number>();
  return tasks.map((task) => {
    const sharing = tasks.filter((other) => other.title === task.title).length;
    if (sharing < 2) return task.title;
    const number = (seen.get(task.title) ?? 0) + 1;
    seen.set(task.title, number);
    return `${task.title} (${variationWords(task) ?? number})`;
  });
}
