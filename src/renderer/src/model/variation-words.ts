/**
 * What tells the cards of one batch apart (issue 21, item 10): a task's place in its batch
 * ("2 of 4") and the seed it was sent with, when it has them. Pure.
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
