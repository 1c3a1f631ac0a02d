/**
 * Recently deleted from the window: moving a selection there (after a question naming how many
 * tasks it moves, with one Undo), and, in the Recently deleted view, restoring, deleting forever
 * and emptying it (each "forever" after a question). The question waits in `useTrashQuestion`,
 * which TrashQuestion.tsx shows.
 */
import { create } from 'zustand';
import { RUNNING_STATES, type TaskSelection } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { currentSelection, reloadAfterBulk } from './gallery-selection.ts';
import { type TrashQuestion, tasksWord } from './trash-question-words.ts';

export { questionWords, type TrashQuestion, tasksWord } from './trash-question-words.ts';

export const useTrashQuestion = create<{ question: TrashQuestion | null }>()(() => ({ question: null }));

const ask = (question: TrashQuestion | null) => useTrashQuestion.setState({ question });

/** How many tasks a selection holds, and how many of them the service is working on (they stay). */
async function countOf(
  selection: TaskSelection,
): Promise<{ count: number; running: number; capped?: boolean }> {
  const byId = useTasks.getState().byId;
  const isRunning = (id: string) => {
    const state = byId.get(id)?.state;
    return state !== undefined && RUNNING_STATES.includes(state);
  };
  if ('ids' in selection) {
    return { count: selection.ids.length, running: selection.ids.filter(isRunning).length };
  }
  const counts = await invoke('tasks.count', selection.filter);
  const running = RUNNING_STATES.reduce((n, state) => n + (counts.byState[state] ?? 0), 0);
  // a capped count (a search or a board of over 1,000 matches) names a lower bound: the action
  // itself takes every task that matches
  if (counts.capped)
    return { count: Math.max(0, counts.total - selection.except.length), running: 0, capped: true };
  return {
    count: Math.max(0, counts.total - selection.except.length),
    running: Math.max(0, running - selection.except.filter(isRunning).length),
  };
}

/** Asks before moving the selection (or `ids`) to Recently deleted, naming how many tasks it moves. */
export async function askToTrash(ids?: readonly string[]): Promise<void> {
  const selection = ids ? { ids: [...ids] } : currentSelection();
  if (selection === null) return;
  try {
    ask({ kind: 'trash', selection, ...(await countOf(selection)) });
  } catch (err) {
    toastError(err);
  }
}

/** In Recently deleted: asks before deleting the selection (or `ids`) forever. */
export async function askToDeleteForever(ids?: readonly string[]): Promise<void> {
  const selection = ids ? { ids: [...ids] } : currentSelection();
  if (selection === null) return;
  try {
    const { count, capped } = await countOf(selection);
    ask({ kind: 'forever', selection, count, ...(capped ? { capped } : {}) });
  } catch (err) {
    toastError(err);
  }
}

/** Asks before emptying Recently deleted, naming how many tasks it holds. */
export async function askToEmpty(): Promise<void> {
  try {
    ask({ kind: 'empty', count: (await invoke('tasks.count', { trashed: true })).total });
  } catch (err) {
    toastError(err);
  }
}

export function dismissQuestion(): void {
  ask(null);
}

/** Does what the question asked, once the user said yes. */
export async function answerYes(question: TrashQuestion): Promise<void> {
  ask(null);
  const ui = useUi.getState();
  try {
    if (question.kind === 'trash') {
      const outcome = await invoke('tasks.delete', { selection: question.selection });
      const ids = 'ids' in question.selection ? question.selection.ids : null;
      reloadAfterBulk();
      const left =
        outcome.running > 0 ? ` (${tasksWord(outcome.running)} the service is working on stayed)` : '';
      ui.pushToast('info', `Moved ${tasksWord(outcome.moved)} to Recently deleted${left}`, {
        label: 'Undo',
        run: () => void undoTrash(outcome.deletedAt, ids),
      });
    } else if (question.kind === 'forever') {
      const outcome = await invoke('tasks.deleteForever', { selection: question.selection });
      reloadAfterBulk();
      ui.pushToast('info', `Deleted ${tasksWord(outcome.done)} forever`);
    } else {
      const outcome = await invoke('tasks.emptyTrash', {});
      reloadAfterBulk();
      ui.pushToast('info', `Emptied Recently deleted: ${tasksWord(outcome.done)} deleted forever`);
    }
  } catch (err) {
    reloadAfterBulk();
    toastError(err);
  }
}

/** Undo of one move (or retention's run): its tasks come back, and a selection of ids with them. */
export async function undoTrash(deletedAt: string, ids: readonly string[] | null): Promise<void> {
  try {
    const outcome = await invoke('tasks.restore', { deletedAt });
    reloadAfterBulk();
    if (ids) useUi.getState().setSelection(ids, null);
    useUi.getState().pushToast('success', `Restored ${tasksWord(outcome.done)}`);
  } catch (err) {
    toastError(err);
  }
}

/** Takes the selection (or `ids`) out of Recently deleted: nothing is lost, so nothing is asked. */
export async function restoreSelected(ids?: readonly string[]): Promise<void> {
  const selection = ids ? { ids: [...ids] } : currentSelection();
  if (selection === null) return;
  try {
    const outcome = await invoke('tasks.restore', { selection });
    reloadAfterBulk();
    useUi.getState().pushToast('success', `Restored ${tasksWord(outcome.done)}`);
  } catch (err) {
    toastError(err);
  }
}

/** Shows the library or Recently deleted in the gallery (the selection and the detail close). */
export function showRecentlyDeleted(on: boolean): void {
  const tasks = useTasks.getState();
  if (tasks.gallery.filters.trashed === on) return;
  useUi.getState().openDetail(null);
  tasks.setFilters({ trashed: on });
}
