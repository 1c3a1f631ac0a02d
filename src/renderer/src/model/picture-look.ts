/**
 * How a result's picture is shown: on a checkerboard when its catalog entry says its pictures
 * have transparent parts (a background removal), in the card, the detail, the compare and the
 * viewer alike (issue 21, item 8). Pure.
 */
import { entryOfTask } from '../../../shared/index.ts';

/** The class that draws a picture of this task on a checkerboard ('' when it needs none). */
export function checkerboardClass(task: {
  entryId?: string | null;
  model: string;
  taskType: string;
}): string {
  return entryOfTask(task)?.transparentOutput ? 'on-checkerboard' : '';
}
