/**
 * Which batch the library's compare view shows (null: the gallery), and opening it from Activity
 * or a task's detail: the batch's tasks are loaded first, so results outside the loaded gallery
 * pages are there too.
 */
import { create } from 'zustand';
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi, type View } from '../../state/ui-state.ts';

export interface BatchCompareState {
  batchId: string | null;
  /** The batch's task ids in the order they were queued. */
  taskIds: string[];
  /** Where it was opened from (the view and the detail then shown), to go back to on Escape. */
  from: { view: View; detailId: string | null } | null;
  close(): void;
}

export const useBatchCompare = create<BatchCompareState>()((set) => ({
  batchId: null,
  taskIds: [],
  from: null,
  close: () => set({ batchId: null, taskIds: [], from: null }),
}));

/** Opens the library's side-by-side view of a batch's results. */
export async function openBatchCompare(batchId: string): Promise<void> {
  try {
    const [summary] = await invoke('tasks.batches', { batchId });
    if (!summary) {
      toastError('This batch has no tasks any more');
      return;
    }
    const missing = summary.taskIds.filter((id) => !useTasks.getState().byId.has(id));
    const loaded = await Promise.all(missing.map((id) => invoke('tasks.get', { id })));
    useTasks.getState().upsert(loaded.filter((t) => t !== null));
    const { view, detailId } = useUi.getState();
    useBatchCompare.setState({ batchId, taskIds: summary.taskIds, from: { view, detailId } });
    useUi.getState().openDetail(null);
    useUi.getState().navigate('library');
  } catch (err) {
    toastError(err);
  }
}
