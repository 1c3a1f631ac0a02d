/**
 * Library actions over the bridge: favourite, rename, delete (with an undo window), export,
 * reveal, drag out, and queueing a task again from an export's task.json.
 */
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
        `Exported ${result.tasks.length} task${result.tasks.length === 1 ? '' : 's'} (${files} files) to ${result.folder}`,
      );
  } catch (err) {
    toastError(err);
  }
}

/**
 * What importing an export's task.json came to: queued, cancelled at the file dialog, refused
 * (told in a toast), or waiting for the user's word on a price the service does not publish.
 */
export type ImportOutcome = { kind: 'done' } | { kind: 'unknown-price'; question: string };

/**
 * Asks main for an exported task.json (its file dialog) and queues that task again; a toast says
 * what was queued, or why not. `acceptUnknownPrice` is the user's word after the price question.
 */
export async function importFromExport(acceptUnknownPrice = false): Promise<ImportOutcome> {
  try {
    const task = await invoke('tasks.importTaskFile', acceptUnknownPrice ? { acceptUnknownPrice: true } : {});
    if (!task) return { kind: 'done' };
    useTasks.getState().upsert([task]);
    useUi.getState().pushToast('success', `Queued “${task.title}” again from the export`, {
      label: 'View in Activity',
      run: () => useUi.getState().navigate('activity'),
    });
  } catch (err) {
    const error = toStudioError(err);
    if (error.kind === 'price-unknown') return { kind: 'unknown-price', question: asSentence(error.message) };
    toastError(`Nothing was queued from the export. ${asSentence(error.message)}`);
  }
  return { kind: 'done' };
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
