/**
 * The library selection as the actions see it: ids, or "every task the gallery's filter matches
 * but these" (Select all), which is never turned into ids here: the bulk calls take it as it is
 * and the library resolves it. How many are selected comes from the store's count of the filter,
 * so the number on screen is the number an action touches (or, past the store's count cap, says
 * that it is more: "1,000+"). The selection holds only tasks the list shows (ui-state's leftList).
 */
import type { TaskSelection } from '../../../../shared/index.ts';
import type { CountedTasks } from '../../../../shared/task/task-count-words.ts';
import { invoke } from '../../bridge.ts';
import { toTaskFilter } from '../../model/library-query.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { type UiState, useUi } from '../../state/ui-state.ts';

type SelectionState = Pick<UiState, 'selection' | 'allMatching'>;

export function isSelected(s: SelectionState, id: string): boolean {
  return s.allMatching ? !s.allMatching.except.has(id) : s.selection.has(id);
}

/** How many tasks are selected: with Select all, the filter's count (the gallery's total) less the exceptions. */
export function selectedCount(s: SelectionState, total: number | null): number {
  if (!s.allMatching) return s.selection.size;
  return Math.max(0, (total ?? 0) - s.allMatching.except.size);
}

/** The gallery's count as the selection reads it. */
type GalleryCount = { total: number | null; totalCapped: boolean };

/**
 * How many tasks are selected, and whether that is a lower bound: Select all of a list whose
 * count the library stopped at its cap (a search or a board of over 1,000) holds more.
 */
export function selectionSize(s: SelectionState, gallery: GalleryCount): CountedTasks {
  const count = selectedCount(s, gallery.total);
  return s.allMatching && gallery.totalCapped ? { count, capped: true } : { count };
}

/** The toolbar's words for a selection of this size: "3 selected", "1,000+ selected" past the cap. */
export function selectedWords({ count, capped }: CountedTasks): string {
  return `${count.toLocaleString('en-US')}${capped ? '+' : ''} selected`;
}

/** The toolbar's words for the selection (selectedWords of its selectionSize). */
export function selectionWords(s: SelectionState, gallery: GalleryCount): string {
  return selectedWords(selectionSize(s, gallery));
}

/** The React hook of selectedCount. */
export function useSelectedCount(): number {
  const total = useTasks((s) => s.gallery.total);
  return useUi((s) => selectedCount(s, total));
}

/** The React hook of selectionSize (the count, and whether there are more). */
export function useSelectionSize(): CountedTasks {
  const total = useTasks((s) => s.gallery.total);
  const totalCapped = useTasks((s) => s.gallery.totalCapped);
  const count = useUi((s) => selectedCount(s, total));
  const capped = useUi((s) => s.allMatching !== null) && totalCapped;
  return capped ? { count, capped } : { count };
}

/** The selection for a bulk call: the ids, or the gallery's filter less the exceptions. */
export function currentSelection(): TaskSelection | null {
  const ui = useUi.getState();
  if (ui.allMatching) {
    return { filter: toTaskFilter(useTasks.getState().gallery.filters), except: [...ui.allMatching.except] };
  }
  return ui.selection.size === 0 ? null : { ids: [...ui.selection] };
}

/** The selected ids, newest first, for the actions that take ids (asked of the library for Select all). */
export async function selectedIds(): Promise<string[]> {
  const selection = currentSelection();
  if (selection === null) return [];
  if ('ids' in selection) return selection.ids;
  return invoke('tasks.selectionIds', { selection });
}

/** The selection clears and the gallery loads again (after a bulk action changed what it holds). */
export function reloadAfterBulk(): void {
  useUi.getState().setSelection([], null);
  useTasks.getState().reloadGallery();
}
