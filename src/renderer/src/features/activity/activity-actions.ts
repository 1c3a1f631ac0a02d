/** What the Activity view asks main to do with a task; the change comes back as an event. */
import type { StudioCallName } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { asSentence, fieldNamedIn } from '../../model/studio-error.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import { useCompose } from '../../state/compose-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { openRerun } from '../compose/compose-actions.ts';
import { useFailureList } from './failure-list.ts';

type TaskAction = Extract<
  StudioCallName,
  'tasks.cancel' | 'tasks.resubmit' | 'tasks.discard' | 'tasks.checkNow' | 'tasks.retryDownloads'
>;

const DONE: Record<TaskAction, string> = {
  'tasks.cancel': 'Cancelled; nothing was sent or billed.',
  'tasks.resubmit': 'Submitted again; it is back in the queue.',
  'tasks.discard': 'Discarded; it will not be sent again.',
  'tasks.checkNow': 'Asking the service about it now.',
  'tasks.retryDownloads': 'Trying the download again.',
};

export async function runTaskAction(action: TaskAction, id: string): Promise<void> {
  try {
    const task = await invoke(action, { id });
    useTasks.getState().upsert([task]);
    useUi.getState().pushToast('success', DONE[action]);
  } catch (err) {
    toastError(err);
  }
}

/** The user's choice: the service's task `remoteId` is this uncertain task's create. */
export async function settleTask(id: string, remoteId: string): Promise<void> {
  try {
    const task = await invoke('tasks.settle', { id, remoteId });
    useTasks.getState().upsert([task]);
    useUi
      .getState()
      .pushToast('success', 'Taken as this task; its result will be saved. Nothing was sent again.');
  } catch (err) {
    toastError(err);
  }
}

export function openInLibrary(id: string): void {
  useUi.getState().openDetail(id);
  useUi.getState().navigate('library');
}

export function showInActivity(): void {
  useUi.getState().navigate('activity');
}

/**
 * "Fix & retry": the composer opens on the failed task's tab, filled in with its inputs (as a
 * re-run of it), with the failure shown as the form's problem, and beside the field it names.
 */
export async function fixAndRetry(task: Pick<LoadedTask, 'id' | 'error'>): Promise<void> {
  // the composer is filled only when the task's draft could be read (else a toast says why)
  let filled = false;
  const stopWatching = useCompose.subscribe(() => {
    filled = true;
  });
  try {
    await openRerun(task.id);
  } finally {
    stopWatching();
  }
  if (!filled) return;
  const compose = useCompose.getState();
  const why = asSentence(task.error?.message ?? 'the service gave no reason');
  const field = fieldNamedIn(task.error?.message ?? '');
  if (field) compose.setFieldError(compose.tab, field, why);
  compose.setFormError(`The last try failed: ${why}`);
}

/** Takes a failure off Activity's list (it stays in the library), with an Undo for a few seconds. */
export function dismissFailure(task: Pick<LoadedTask, 'id' | 'title' | 'createdAt'>): void {
  useFailureList.getState().dismiss(task.id, task.createdAt);
  useUi.getState().pushToast('info', `Dismissed “${task.title}”; it stays in the library`, {
    label: 'Undo',
    run: () => useFailureList.getState().restore(task.id),
  });
}
