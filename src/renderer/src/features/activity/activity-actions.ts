/** What the Activity view asks main to do with a task; the change comes back as an event. */
import type { StudioCallName } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../stores/tasks-store.ts';
import { toastError, useUi } from '../../stores/ui-store.ts';

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

export function openInLibrary(id: string): void {
  useUi.getState().openDetail(id);
  useUi.getState().navigate('library');
}
