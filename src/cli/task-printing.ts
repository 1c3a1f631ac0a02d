/**
 * How the CLI shows tasks: one line each for people, JSON for scripts.
 */

import { formatUsd, type Task, type TaskListItem } from '../shared/index.ts';
import { printOut, terminalJson } from './terminal-output.ts';

export function taskLine(task: TaskListItem | Task): string {
  const cost = task.estimateMicros === null ? '' : ` ${formatUsd(task.estimateMicros)}`;
  const remote = task.remoteId ? ` remote=${task.remoteId}` : '';
  const from =
    task.parentId === null
      ? ''
      : ` from=${task.parentId}${task.parentOutput === null ? '' : `:${task.parentOutput}`}`;
  const error = task.error ? `\n    ${task.error.message}` : '';
  // an uncertain create the service's history holds several times: settle ID --remote picks one
  const settlement = 'settlement' in task && task.state === 'uncertain' ? task.settlement : null;
  const candidates = (settlement?.outcome === 'choose' ? settlement.candidates : [])
    .map(
      (c) =>
        `\n    could be: ${c.remoteId} created ${c.createdAt ?? 'at an unknown time'} (settle ${task.id} --remote ${c.remoteId})`,
    )
    .join('');
  const files = task.outputs
    .filter((o) => o.path)
    .map((o) => `\n    ${o.path}`)
    .join('');
  return `${task.id}  ${task.state.padEnd(11)} ${task.taskType.padEnd(10)} ${task.title}${cost}${remote}${from}${error}${candidates}${files}`;
}

/** "1 task", "2 tasks": the app's one count of tasks in words. */
export { tasksWord } from '../shared/task/task-count-words.ts';

/** Writes `value` to stdout as indented JSON (control characters escaped), then a line break. */
export function printJson(value: unknown): void {
  printOut(`${terminalJson(value, 2)}\n`);
}
