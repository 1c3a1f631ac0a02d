/**
 * The Activity list's rows, from its sections: a section's header, then its rows. A batch is
 * one group, in the first section any of its tasks is in; its tasks in later sections are not
 * rows there. So a section's count is what it lists: its single tasks, and the tasks of the
 * batch groups it holds said as such ("3 tasks in 1 batch"); a section left with no rows is not
 * shown. Pure; no DOM.
 */
import type { AtService } from '../../../../shared/index.ts';
import { countWord } from '../../../../shared/task/task-count-words.ts';
import type { ActivitySection, ActivitySectionId, LoadedTask } from '../../model/task-status.ts';

export type ActivityItem =
  | { kind: 'header'; id: ActivitySectionId; title: string; count: string }
  | { kind: 'task'; task: LoadedTask }
  | { kind: 'batch'; batchId: string; tasks: LoadedTask[] }
  | { kind: 'older'; count: number };

/** "2", "3 tasks in 1 batch", "2 tasks + 5 in 2 batches". */
export function sectionCountWords(singles: number, batches: number, batchTasks: number): string {
  if (batches === 0) return singles.toLocaleString('en-US');
  const grouped = `in ${countWord(batches, 'batch', 'batches')}`;
  if (singles === 0) return `${countWord(batchTasks, 'task')} ${grouped}`;
  return `${countWord(singles, 'task')} + ${batchTasks.toLocaleString('en-US')} ${grouped}`;
}

/** "At the service: 3 running, 1 waiting (2 from elsewhere)": what runs under this key, any app's. */
export function atServiceWords(at: AtService): string {
  const elsewhere =
    at.fromElsewhere > 0 ? ` (${at.fromElsewhere.toLocaleString('en-US')} from elsewhere)` : '';
  return `At the service: ${at.running.toLocaleString('en-US')} running, ${at.waiting.toLocaleString('en-US')} waiting${elsewhere}`;
}

/**
 * The rows of the sections, in order. `everyTask` gives each batch all its known tasks (a group
 * shows them all); `older` is how many older failures to offer (0: none), after the failures or,
 * without any, before the finished tasks.
 */
export function activityItems(
  sections: readonly ActivitySection[],
  everyTask: Iterable<LoadedTask>,
  older: number,
): ActivityItem[] {
  // every known task of each batch, in the order queued
  const batches = new Map<string, LoadedTask[]>();
  for (const task of everyTask) {
    if (!task.batchId) continue;
    const list = batches.get(task.batchId);
    if (list) list.push(task);
    else batches.set(task.batchId, [task]);
  }
  for (const list of batches.values())
    list.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const list: ActivityItem[] = [];
  let offered = older === 0;
  const grouped = new Set<string>();
  for (const section of sections) {
    if (!offered && section.id === 'finished') {
      list.push({ kind: 'older', count: older });
      offered = true;
    }
    const rows: ActivityItem[] = [];
    let singles = 0;
    let batchTasks = 0;
    for (const task of section.tasks) {
      if (!task.batchId) {
        rows.push({ kind: 'task', task });
        singles += 1;
      } else if (!grouped.has(task.batchId)) {
        grouped.add(task.batchId);
        const tasks = batches.get(task.batchId) ?? [task];
        rows.push({ kind: 'batch', batchId: task.batchId, tasks });
        batchTasks += tasks.length;
      }
    }
    if (rows.length > 0) {
      const count = sectionCountWords(singles, rows.length - singles, batchTasks);
      list.push({ kind: 'header', id: section.id, title: section.title, count }, ...rows);
    }
    if (!offered && section.id === 'failed') {
      list.push({ kind: 'older', count: older });
      offered = true;
    }
  }
  if (!offered) list.push({ kind: 'older', count: older });
  return list;
}
