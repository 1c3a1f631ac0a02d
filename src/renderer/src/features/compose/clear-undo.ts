/**
 * Clear with Undo (issue 17, item 12): the tab's form is emptied at once and a toast offers to
 * put the whole of it back (its fields, pictures, title, what it was made from and its batch
 * choices) while it shows; the pictures' previews are freed only once that time is over.
 */
import { releasePreview, snapshotOf, useCompose } from '../../state/compose-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { type ComposeTab, TAB_LABELS } from './compose-model.ts';
import { TAB_SLOTS } from './compose-slots.ts';
import { savedFormsOf } from './saved-forms.ts';

/** How long the Undo is offered: the info toast's time. */
export const CLEAR_UNDO_MS = 6000;

export function clearWithUndo(tab: ComposeTab): void {
  const state = useCompose.getState();
  const before = snapshotOf(state);
  const was = JSON.stringify(savedFormsOf(state));
  state.clearTab(tab, true);
  // nothing was in the form: nothing to undo
  if (JSON.stringify(savedFormsOf(useCompose.getState())) === was) return;
  let undone = false;
  useUi.getState().pushToast('info', `Cleared the ${TAB_LABELS[tab]} form`, {
    label: 'Undo',
    run: () => {
      undone = true;
      useCompose.getState().restoreTab(tab, before);
    },
  });
  setTimeout(() => {
    if (undone) return;
    const pictures = [
      ...TAB_SLOTS[tab].map((field) => before.slots[field]),
      ...(tab === 'faceSwap' ? before.batch.extra.target_image : []),
      ...(tab === 'fromResult' || tab === 'pictures' ? before.batch.extra.source_image : []),
    ];
    const now = useCompose.getState();
    const shown = new Set([
      ...Object.values(now.slots).map((s) => s.previewUrl),
      ...now.batch.extra.target_image.map((s) => s.previewUrl),
      ...now.batch.extra.source_image.map((s) => s.previewUrl),
    ]);
    for (const picture of pictures) if (!shown.has(picture.previewUrl)) releasePreview(picture);
  }, CLEAR_UNDO_MS + 1000);
}
