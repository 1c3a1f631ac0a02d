/**
 * Undo for whatever replaces a tab's form (issue 17, item 12; issue 22 review, item 1): Clear,
 * and a fill from a dropped file (recall), a re-run or a result's action. The form changes at
 * once and, when it held something, a toast offers to put the whole of it back (its fields,
 * pictures, title, what it was made from and its batch choices) while it shows; the replaced
 * pictures' previews are freed only once that time is over. Nothing typed is lost to a mis-aimed
 * drop.
 */
import {
  type ComposeState,
  clearedTab,
  releasePreview,
  snapshotOf,
  useCompose,
} from '../../state/compose-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { type ComposeForms, type ComposeTab, TAB_LABELS } from './compose-model.ts';
import { TAB_SLOTS } from './compose-slots.ts';

/** How long the Undo is offered: the info toast's time. */
export const UNDO_MS = 6000;

/** Whether the tab's form holds anything Clear would take away (a field, a picture, a title…). */
export function holdsDraft(state: ComposeState, tab: ComposeTab): boolean {
  const cleared = { ...state, ...clearedTab(state, tab, true) };
  return JSON.stringify(snapshotOf(state)) !== JSON.stringify(snapshotOf(cleared));
}

/**
 * Runs `change` on the tab's form (it keeps the replaced pictures' previews). When the form held
 * something, says `undoable` with Undo; else `plain`, if any.
 */
export function replaceWithUndo(
  tab: ComposeTab,
  change: () => void,
  undoable: string,
  plain: string | null,
): void {
  const state = useCompose.getState();
  const before = snapshotOf(state);
  const held = holdsDraft(state, tab);
  change();
  if (!held) {
    if (plain) useUi.getState().pushToast('info', plain);
    releaseReplaced(tab, before);
    return;
  }
  let undone = false;
  useUi.getState().pushToast('info', undoable, {
    label: 'Undo',
    run: () => {
      undone = true;
      useCompose.getState().restoreTab(tab, before);
    },
  });
  setTimeout(() => {
    if (!undone) releaseReplaced(tab, before);
  }, UNDO_MS + 1000);
}

/** Frees the previews of the tab's pictures in `before` that the composer no longer shows. */
function releaseReplaced(tab: ComposeTab, before: ReturnType<typeof snapshotOf>): void {
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
}

/** Clear: the tab's form emptied, with Undo (nothing said when it was empty already). */
export function clearWithUndo(tab: ComposeTab): void {
  const clear = () => useCompose.getState().clearTab(tab, true);
  replaceWithUndo(tab, clear, `Cleared the ${TAB_LABELS[tab]} form`, null);
}

/** Opens `tab` filled in with `forms` (recall, a re-run, a result's action), with Undo when it replaced a draft. */
export function fillWithUndo(tab: ComposeTab, forms: ComposeForms, message: string): void {
  const fill = () => useCompose.getState().fill(tab, forms, true);
  const undoable = `${message} It replaced what the ${TAB_LABELS[tab]} form held: Undo puts that back.`;
  replaceWithUndo(tab, fill, undoable, message);
}
