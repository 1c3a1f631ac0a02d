/**
 * `compose.saveForms` and `compose.loadForms`: the composer's forms kept across starts
 * (saved-forms-file.ts). A form's local files are grants (path-grants.ts): a path is saved only
 * while the user has given that file to the app, and after a restart a slot is filled again only
 * with a file the app may read: inside the library, given again in this run, or the library's
 * own copy of the same bytes (a task already used the file). Any other slot comes back empty,
 * with the file's name and a note saying to drop it again. A webhook secret is never kept
 * (issue 17, item 9): the form comes back with it empty and a note to type it again.
 */
import { join } from 'node:path';
import { localPathCandidate, validateInput } from '../../core/inputs/index.ts';
import { contentInputPath, hashFileInput, hasInputFile } from '../../core/library/index.ts';
import {
  type InputMediaKind,
  type SavedForms,
  type SavedFormsView,
  type SavedSlot,
  SLOT_FIELD_KINDS,
  SLOT_FIELD_NAMES,
  withoutWebhookSecrets,
} from '../../shared/index.ts';
import type { CallContext } from './call-context.ts';
import { SavedFormsFile } from './saved-forms-file.ts';

type Slot = SavedSlot;

const fileNameOf = (path: string): string => path.split(/[\\/]/).pop() || path;

function emptied(slot: Slot, path: string, note: string): Slot {
  return { value: '', label: slot.label || fileNameOf(path), origin: null, result: null, note };
}

/** Every slot of the forms (the extra pictures too), mapped by `edit`. */
async function mapSlots(
  forms: SavedForms,
  edit: (slot: Slot, field: (typeof SLOT_FIELD_NAMES)[number]) => Promise<Slot> | Slot,
): Promise<SavedForms> {
  const slots = { ...forms.slots };
  for (const field of SLOT_FIELD_NAMES) slots[field] = await edit(forms.slots[field], field);
  const extra = { ...forms.batch.extra };
  for (const field of ['target_image', 'source_image'] as const) {
    const edited: Slot[] = [];
    for (const slot of forms.batch.extra[field]) edited.push(await edit(slot, field));
    // an extra picture that could not be kept is left out (its note goes with the main slot's)
    extra[field] = edited.filter((s) => s.value !== '' || s.result !== null);
  }
  return { ...forms, slots, batch: { ...forms.batch, extra } };
}

/** The library's own copy of the file at `path` (same bytes), when a task already used it; else null. */
async function libraryCopyOf(
  ctx: CallContext,
  path: string,
  field: string,
  kind: InputMediaKind,
): Promise<string | null> {
  try {
    const checked = await validateInput(path, { field, kind, faceSwap: false });
    if (checked.source !== 'file') return null;
    const hash = await hashFileInput(checked);
    const stored = contentInputPath(hash.sha256, checked.ext);
    if (!(await hasInputFile(ctx.libraryDir(), stored, hash.size))) return null;
    return join(ctx.libraryDir(), ...stored.split('/'));
  } catch {
    return null; // gone, changed or unreadable: the user drops it again
  }
}

export function savedFormsCalls(ctx: CallContext) {
  const file = new SavedFormsFile(ctx.options.userDataDir);
  return {
    'compose.saveForms': async (forms: SavedForms): Promise<{ saved: true }> => {
      const kept = await mapSlots(forms, (slot) => {
        const path = localPathCandidate(slot.value.trim());
        if (path === null || ctx.grants.mayReadFile(path, ctx.libraryDir())) return slot;
        return emptied(slot, path, 'This file was not given to the app; drop it here again.');
      });
      // a webhook secret is not kept on disk nor given back: the user types it again
      await file.write(withoutWebhookSecrets(kept));
      return { saved: true };
    },

    'compose.loadForms': async (): Promise<SavedFormsView> => {
      const reading = await file.read();
      if (!reading.forms) return reading;
      const forms = await mapSlots(reading.forms, async (slot, field) => {
        const path = localPathCandidate(slot.value.trim());
        if (path === null || ctx.grants.mayReadFile(path, ctx.libraryDir())) return slot;
        const copy = await libraryCopyOf(ctx, path, field, SLOT_FIELD_KINDS[field]);
        if (copy !== null) return { ...slot, value: copy, origin: 'library', note: null };
        return emptied(
          slot,
          path,
          `${fileNameOf(path)} is not read again after a restart until you give it to the app: drop it here again (or browse for it).`,
        );
      });
      // a file written before secrets were left out may hold one: it is not given back
      return { forms: withoutWebhookSecrets(forms), problem: reading.problem };
    },
  };
}
