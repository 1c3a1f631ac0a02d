/** The words of the OS notification for a task that just ended. Pure. */
import type { Task } from '../../shared/index.ts';

const FAMILY_WORDS: Record<Task['family'], string> = {
  song: 'Song',
  'face-swap': 'Face swap',
  'image-edit': 'Image edit',
  other: 'Task',
};

const STATE_WORDS: Partial<Record<Task['state'], string>> = {
  saved: 'is ready',
  failed: 'failed',
  expired: 'expired before it could be saved',
  uncertain: 'needs your decision',
};

export function finishNoticeOf(task: Task): { title: string; body: string } {
  const title = `${FAMILY_WORDS[task.family] ?? 'Task'} ${STATE_WORDS[task.state] ?? task.state}`;
  const detail = task.state === 'saved' ? '' : task.error?.message ? `: ${task.error.message}` : '';
  const body = `${task.title}${detail}`;
  return { title, body: body.length > 240 ? `${body.slice(0, 239)}…` : body };
}
