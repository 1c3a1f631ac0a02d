/**
 * In-app notices of tasks that end: a toast when a task is saved, fails, expires or needs a
 * decision, one "queue done" notice when the last queued or running task has ended (after a run
 * of two or more: a single task's own notice says it all), and the optional tone (Settings ›
 * Notifications). The OS notification main shows while the window is unfocused is apart.
 *
 * A change is news when the window knew the task in an active state before the changes: call
 * `taskNewsOf` before the changes are applied to the tasks state, `announceTaskNews` after.
 */
import { ENGINE_WORK_STATES, type Task, type TaskChange, type TaskState } from '../../../../shared/index.ts';
import { asSentence } from '../../model/studio-error.ts';
import { taskCounts } from '../../model/task-status.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { fixAndRetry, openInLibrary, showInActivity } from './activity-actions.ts';
import { type NoticeTone, playNoticeTone } from './notice-sound.ts';

const NEWS_STATES: readonly TaskState[] = ['saved', 'failed', 'expired', 'uncertain'];

export interface TaskNews {
  task: Task;
}

/** Tasks that ended in these changes, from an active state the window knew. */
export function taskNewsOf(changes: readonly TaskChange[]): TaskNews[] {
  const known = useTasks.getState().byId;
  const news: TaskNews[] = [];
  for (const { taskId, task } of changes) {
    if (!task || !NEWS_STATES.includes(task.state)) continue;
    const before = known.get(taskId)?.state;
    if (before !== undefined && before !== task.state && ENGINE_WORK_STATES.includes(before))
      news.push({ task });
  }
  return news;
}

/** What ended since the queue was last empty. */
const run = { saved: 0, failed: 0, other: 0 };

function countRun(news: readonly TaskNews[]): void {
  for (const { task } of news) {
    if (task.state === 'saved') run.saved += 1;
    else if (task.state === 'failed') run.failed += 1;
    else run.other += 1;
  }
}

const quoted = (task: Task) => `“${task.title}”`;

function noticeOne(task: Task): void {
  const { pushToast } = useUi.getState();
  switch (task.state) {
    case 'saved':
      pushToast('success', `Saved ${quoted(task)}`, { label: 'Open', run: () => openInLibrary(task.id) });
      break;
    case 'failed':
      pushToast(
        'error',
        `${quoted(task)} failed: ${asSentence(task.error?.message ?? 'the service gave no reason')}`,
        { label: 'Fix & retry', run: () => void fixAndRetry(task) },
      );
      break;
    case 'expired':
      pushToast('error', `${quoted(task)} expired: the service no longer had its result`, {
        label: 'Show in Activity',
        run: showInActivity,
      });
      break;
    default:
      pushToast('error', `${quoted(task)} needs your decision: the answer to sending it was lost`, {
        label: 'Show in Activity',
        run: showInActivity,
      });
  }
}

/** One notice per ending, or one per kind when one delivery of changes ends several at once. */
function noticeEndings(news: readonly TaskNews[]): void {
  const saved = news.filter((n) => n.task.state === 'saved');
  const rest = news.filter((n) => n.task.state !== 'saved');
  const { pushToast } = useUi.getState();
  if (saved.length > 2) {
    pushToast('success', `Saved ${saved.length} tasks`, {
      label: 'Open Library',
      run: () => useUi.getState().navigate('library'),
    });
  } else for (const { task } of saved) noticeOne(task);
  if (rest.length > 2) {
    pushToast('error', `${rest.length} tasks failed or need a decision`, {
      label: 'Show in Activity',
      run: showInActivity,
    });
  } else for (const { task } of rest) noticeOne(task);
}

function runSummary(): string {
  const parts = [
    run.saved > 0 ? `${run.saved} saved` : null,
    run.failed > 0 ? `${run.failed} failed` : null,
    run.other > 0 ? `${run.other} need${run.other === 1 ? 's' : ''} a look` : null,
  ].filter((part) => part !== null);
  return parts.join(', ');
}

/** Shows the notices of changes just applied, the queue-done notice, and plays the tone. */
export function announceTaskNews(news: readonly TaskNews[]): void {
  if (news.length === 0) return;
  countRun(news);
  noticeEndings(news);
  let tone: NoticeTone = news.some((n) => n.task.state !== 'saved') ? 'failed' : 'saved';
  const active = taskCounts(useTasks.getState().byId.values()).active;
  if (active === 0) {
    const ended = run.saved + run.failed + run.other;
    if (ended >= 2) {
      const clean = run.failed === 0 && run.other === 0;
      useUi.getState().pushToast(clean ? 'success' : 'info', `Queue done: ${runSummary()}`, {
        label: 'Show in Activity',
        run: showInActivity,
      });
      if (clean) tone = 'queue-done';
    }
    run.saved = 0;
    run.failed = 0;
    run.other = 0;
  }
  if (useStudio.getState().settings?.notifySound) playNoticeTone(tone);
}
