/** Library actions over the bridge: favourite, rename, delete, export, reveal, drag out. */
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../stores/tasks-store.ts';
import { toastError, useUi } from '../../stores/ui-store.ts';

export async function setFavorite(id: string, favorite: boolean): Promise<void> {
  try {
    useTasks.getState().upsert([await invoke('tasks.setFavorite', { id, favorite })]);
  } catch (err) {
    toastError(err);
  }
}

export async function renameTask(id: string, title: string): Promise<boolean> {
  try {
    useTasks.getState().upsert([await invoke('tasks.rename', { id, title })]);
    return true;
  } catch (err) {
    toastError(err);
    return false;
  }
}

export async function deleteTask(id: string): Promise<void> {
  try {
    await invoke('tasks.delete', { id });
    useTasks.getState().applyChanges([{ taskId: id, task: null }]);
    void useTasks.getState().refreshTotal();
    useUi.getState().pushToast('success', 'Deleted the task and its files.');
  } catch (err) {
    toastError(err);
  }
}

/** Exports tasks (files plus JSON sidecars) to a folder the user picks. */
export async function exportTasks(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    const result = await invoke('tasks.export', { ids });
    if (!result) return;
    const files = result.tasks.reduce((n, t) => n + t.files.length, 0);
    useUi
      .getState()
      .pushToast(
        'success',
        `Exported ${result.tasks.length} task${result.tasks.length === 1 ? '' : 's'} (${files} files) to ${result.folder}`,
      );
  } catch (err) {
    toastError(err);
  }
}

export async function revealTask(id: string, index = 0): Promise<void> {
  try {
    await invoke('tasks.reveal', { id, index });
  } catch (err) {
    toastError(err);
  }
}

export function dragOut(id: string, index: number): void {
  invoke('tasks.dragOut', { id, index }).catch((err: unknown) => toastError(err));
}
