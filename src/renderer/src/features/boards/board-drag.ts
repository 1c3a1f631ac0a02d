/**
 * Dragging cards onto a board in the sidebar (issue 22, item 1): a card dragged from the gallery
 * carries the selection when it is part of it (every selected task, "Select all" included), else
 * its own task. The drag's data type marks it as ours; the selection travels as JSON.
 */
import type { DragEvent } from 'react';
import type { TaskSelection } from '../../../../shared/index.ts';
import { useUi } from '../../state/ui-state.ts';
import { currentSelection, isSelected } from '../library/gallery-selection.ts';

export const TASKS_DRAG_TYPE = 'application/x-studio-tasks';

/** Starts a drag of a card: the selection when the card is in it, else the card's task. */
export function startTaskDrag(event: DragEvent, id: string): void {
  const ui = useUi.getState();
  const selection = (isSelected(ui, id) ? currentSelection() : null) ?? { ids: [id] };
  event.dataTransfer.setData(TASKS_DRAG_TYPE, JSON.stringify(selection));
  event.dataTransfer.effectAllowed = 'copyLink';
}

/**
 * A drag started on a gallery row (the rows are the draggable elements: the cards are left as
 * they are): the card under the pointer is what is dragged, and its picture is the drag's.
 */
export function startCardDrag(event: DragEvent<HTMLElement>): void {
  const under = document.elementFromPoint(event.clientX, event.clientY) ?? (event.target as Element);
  const card = under?.closest<HTMLElement>('[data-testid="task-card"]');
  const id = card?.dataset.taskId;
  if (!card || !id) {
    event.preventDefault();
    return;
  }
  startTaskDrag(event, id);
  const box = card.getBoundingClientRect();
  event.dataTransfer.setDragImage(card, event.clientX - box.left, event.clientY - box.top);
}

/** Whether a drag carries our tasks (the only data a board takes). */
export function isTaskDrag(event: DragEvent): boolean {
  return event.dataTransfer.types.includes(TASKS_DRAG_TYPE);
}

/** The selection a drop carries, or null when it is not ours. */
export function droppedSelection(event: DragEvent): TaskSelection | null {
  const text = event.dataTransfer.getData(TASKS_DRAG_TYPE);
  if (!text) return null;
  try {
    return JSON.parse(text) as TaskSelection;
  } catch {
    return null;
  }
}
