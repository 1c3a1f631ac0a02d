/**
 * A file the app made, dropped on the composer (issue 22, item 2): main reads the task it came
 * from (the parameters its export embedded, else its checksum in the library: `tasks.recallFile`)
 * and the composer opens that task's form filled in, saying where the parameters came from. A
 * task of this library is filled in as its re-run is (its own inputs, "made from" it). A draft the
 * drop replaces is offered back with Undo (form-undo.ts).
 */
import type { FileRecall } from '../../../../shared/index.ts';
import { invoke, pathForFile } from '../../bridge.ts';
import { useCompose } from '../../state/compose-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { formsFromDraft } from './compose-rerun.ts';
import { TAB_SLOTS } from './compose-slots.ts';
import { fillWithUndo } from './form-undo.ts';
import { mediaPlace } from './media-place.ts';
import { checkSlot } from './slot-actions.ts';

/** What the composer says once it is filled in from a file. */
export function recallNote(recall: FileRecall): string {
  const missing =
    recall.missingMedia.length > 0
      ? ` Give ${recall.missingMedia.join(', ')} again: ${recall.task ? 'their files are gone from the library' : 'the file names them in another library'}.`
      : '';
  // a task of this library is named in the source already
  const what = recall.task ? '' : `: ${recall.taskLabel} “${recall.title}”`;
  return `Filled in from ${recall.source}${what}.${missing}`;
}

/** Fills the composer from a dropped file; a file that says nothing the library knows gets the reason. */
export async function openFromFile(file: File): Promise<void> {
  const path = pathForFile(file);
  if (!path) {
    toastError(`${file.name} cannot be read from here: drop it from your files`);
    return;
  }
  try {
    const recall = await invoke('tasks.recallFile', { path });
    const rerunOf = recall.task?.id ?? null;
    const { tab, forms } = formsFromDraft(recall.draft, rerunOf, useCompose.getState(), mediaPlace());
    // a draft it replaces can be put back (Undo), as after Clear
    fillWithUndo(tab, forms, recallNote(recall));
    useUi.getState().navigate('compose');
    await Promise.all(TAB_SLOTS[tab].map((field) => checkSlot(field)));
  } catch (err) {
    toastError(err);
  }
}
