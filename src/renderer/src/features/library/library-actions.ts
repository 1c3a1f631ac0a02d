/**
 * Library actions over the bridge: favourite, rename, delete (with an undo window), export,
 * reveal, drag out, and reading an export's task.json to queue it again (TaskFileDialog).
 */
import type { TaskFilePreview } from '../../../../shared/index.ts';
import { countWord, tasksWord } from '../../../../shared/task/task-count-words.ts';
import { invoke } from '../../bridge.ts';
import { asSentence, toStudioError } from '../../model/studio-error.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { useGalleryUi } from './gallery-state.ts';

/** How long a delete can be undone before the delete call is made. */
export const UNDO_WINDOW_MS = 5000;

export async function setFavorite(id: string, favorite: boolean): Promise<void> {
  try {
    useTasks.getState().upsert([await invoke('tasks.setFavorite', { id, favorite })]);
  } catch (err) {
    toastError(err);
  }
}

/** Sets the favourite mark of several tasks (one call each), stopping at the first refusal. */
export async function setFavoriteMany(ids: readonly string[], favorite: boolean): Promise<void> {
  try {
    for (const id of ids) useTasks.getState().upsert([await invoke('tasks.setFavorite', { id, favorite })]);
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

/**
 * Deletes tasks after an undo window: their cards are hidden at once and a toast offers
 * "Undo"; the `tasks.delete` calls are made only when the window ends. Nothing is deleted if the
 * window closes first (the timer goes with the page), so the tasks are still there next time.
 */
export function deleteWithUndo(ids: readonly string[]): void {
  const gallery = useGalleryUi.getState();
  const list = [...new Set(ids)].filter((id) => !gallery.hidden.has(id));
  if (list.length === 0) return;
  const ui = useUi.getState();
  const wasSelected = list.filter((id) => ui.selection.has(id));
  gallery.hide(list);
  if (wasSelected.length > 0) ui.setSelection([...ui.selection].filter((id) => !list.includes(id)));
  if (ui.detailId && list.includes(ui.detailId)) ui.openDetail(null);

  const title = list.length === 1 ? useTasks.getState().byId.get(list[0] as string)?.title : undefined;
  let settled = false;
  const undo = () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    useGalleryUi.getState().unhide(list);
    const now = useUi.getState();
    if (wasSelected.length > 0) now.setSelection([...now.selection, ...wasSelected]);
    if (now.view === 'library') useGalleryUi.getState().focusCard(list[0] as string);
  };
  const toastId = ui.pushToast(
    'info',
    title === undefined ? `Deleted ${list.length} tasks` : `Deleted “${title}”`,
    { label: 'Undo', run: undo },
  );
  const timer = setTimeout(() => {
    if (settled) return;
    settled = true;
    useUi.getState().dismissToast(toastId);
    void commitDeletes(list);
  }, UNDO_WINDOW_MS);
}

async function commitDeletes(ids: readonly string[]): Promise<void> {
  const refused: string[] = [];
  let firstError: unknown = null;
  for (const id of ids) {
    try {
      await invoke('tasks.delete', { selection: { ids: [id] } });
      useTasks.getState().applyChanges([{ taskId: id, task: null }]);
    } catch (err) {
      refused.push(id);
      firstError ??= err;
    }
  }
  useGalleryUi.getState().unhide(ids);
  void useTasks.getState().refreshTotal();
  if (firstError !== null) {
    const message = firstError instanceof Error ? firstError.message : String(firstError);
    toastError(
      refused.length === 1
        ? `Could not delete “${useTasks.getState().byId.get(refused[0] as string)?.title ?? 'a task'}”: ${message}`
        : `Could not delete ${refused.length} tasks: ${message}`,
    );
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
        `Exported ${tasksWord(result.tasks.length)} (${countWord(files, 'file')}) to ${result.folder}`,
      );
  } catch (err) {
    toastError(err);
  }
}

/**
 * Asks main for an exported task.json (its file dialog) and what it would queue; nothing is
 * queued here (TaskFileDialog asks the user first). Null when the dialog was cancelled or the
 * file was refused (a toast says why).
 */
export async function readExport(): Promise<TaskFilePreview | null> {
  try {
    return await invoke('tasks.readTaskFile', {});
  } catch (err) {
    toastError(`Nothing was queued from the export. ${asSentence(toStudioError(err).message)}`);
    return null;
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
