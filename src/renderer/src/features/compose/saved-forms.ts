/**
 * The composer's forms kept across restarts (issue 17, item 12): read from main once at the
 * start (`compose.loadForms`) and put into every tab, then sent to main as the user types
 * (`compose.saveForms`, at most once per SAVE_DELAY_MS, only when something changed) and at once
 * when the window is hidden or closed. A slot whose file was not given again after a restart
 * comes back empty with its file's name and main's note, in the slot's own words.
 */
import type { SavedForms, SavedSlot } from '../../../../shared/index.ts';
import { SAVED_SLOT_VALUE_MAX, withoutWebhookSecrets } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { type ComposeState, useCompose } from '../../state/compose-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import type { ComposeForms } from './compose-model.ts';
import {
  EMPTY_SLOT,
  previewsAsPicture,
  SLOT_RULES,
  type SlotField,
  type SlotState,
  slotFromValue,
} from './compose-slots.ts';
import { emptyKindForms } from './kind-tabs.ts';
import { mediaPlace } from './media-place.ts';
import { emptyFromResult, isPictureTool, type ResultOperation } from './result-operations.ts';
import { checkSlot } from './slot-actions.ts';

const SAVE_DELAY_MS = 400;

/** What a slot keeps on disk: what it holds, never its check or its preview. */
function savedSlot(slot: SlotState): SavedSlot {
  if (slot.value.length > SAVED_SLOT_VALUE_MAX) {
    return {
      ...{ value: '', origin: null, result: null },
      label: slot.label,
      note: `${slot.label || 'This picture'} was too large to keep in the draft; drop or paste it again.`,
    };
  }
  return {
    value: slot.value,
    label: slot.label,
    origin: slot.origin,
    result: slot.result ?? null,
    note: slot.status === 'bad' && !slot.value && !slot.result ? slot.message : null,
  };
}

/** What is sent to be kept: never a webhook secret (main leaves it out too). */
export function savedFormsOf(s: ComposeState): SavedForms {
  return withoutWebhookSecrets(formsToKeep(s));
}

function formsToKeep(s: ComposeState): SavedForms {
  const slots = Object.fromEntries(
    Object.entries(s.slots).map(([field, slot]) => [field, savedSlot(slot)]),
  ) as SavedForms['slots'];
  return {
    version: 1,
    tab: s.tab,
    song: s.song,
    faceSwap: s.faceSwap,
    imageEdit: s.imageEdit,
    fromResult: s.fromResult,
    other: s.other,
    kinds: s.kinds,
    common: s.common,
    slots,
    parent: s.parent,
    batch: {
      variations: s.batch.variations,
      songSplit: s.batch.songSplit,
      extra: {
        target_image: s.batch.extra.target_image.map(savedSlot),
        source_image: s.batch.extra.source_image.map(savedSlot),
      },
      promptLines: s.batch.promptLines ?? {},
    },
  };
}

/** A slot as kept on disk, shown again: checked anew, or empty with the reason it is. */
function slotOfSaved(saved: SavedSlot, field: SlotField): SlotState {
  if (saved.result) {
    return {
      ...EMPTY_SLOT,
      label: saved.label,
      origin: 'result',
      previewUrl: previewsAsPicture(SLOT_RULES[field].kind) ? saved.result.mediaUrl : null,
      status: 'ok',
      result: saved.result,
    };
  }
  if (saved.value === '') {
    if (!saved.note) return EMPTY_SLOT;
    return { ...EMPTY_SLOT, label: saved.label, status: 'bad', message: saved.note };
  }
  const shown = slotFromValue(saved.value, SLOT_RULES[field].kind, mediaPlace());
  return { ...shown, label: saved.label || shown.label };
}

function formsOfSaved(saved: SavedForms): ComposeForms {
  const slots = Object.fromEntries(
    Object.entries(saved.slots).map(([field, slot]) => [field, slotOfSaved(slot, field as SlotField)]),
  ) as ComposeForms['slots'];
  return {
    song: saved.song,
    faceSwap: saved.faceSwap,
    imageEdit: saved.imageEdit,
    fromResult: {
      operation: saved.fromResult.operation as ResultOperation,
      tool:
        saved.fromResult.tool && isPictureTool(saved.fromResult.tool)
          ? saved.fromResult.tool
          : emptyFromResult().tool,
      values: saved.fromResult.values as ComposeForms['fromResult']['values'],
    },
    other: saved.other,
    kinds: saved.kinds ?? emptyKindForms(),
    common: saved.common,
    slots,
    parent: saved.parent,
  };
}

let started = false;
let lastSent = '';
let timer: ReturnType<typeof setTimeout> | null = null;

/** Sends the forms now when they changed since the last time. */
function saveNow(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const forms = savedFormsOf(useCompose.getState());
  const text = JSON.stringify(forms);
  if (text === lastSent) return;
  lastSent = text;
  invoke('compose.saveForms', forms).catch((err: unknown) => {
    lastSent = ''; // tried again at the next change
    toastError(`Your draft could not be saved: ${err instanceof Error ? err.message : String(err)}`);
  });
}

/** Reads the forms kept last time into the composer, then keeps them as the user types. Once per window. */
export async function startSavedForms(): Promise<void> {
  if (started) return;
  started = true;
  try {
    const { forms, problem } = await invoke('compose.loadForms', {});
    if (problem) useUi.getState().pushToast('error', problem);
    if (forms) {
      const restored = formsOfSaved(forms);
      const batch = {
        variations: forms.batch.variations,
        songSplit: forms.batch.songSplit,
        extra: {
          target_image: forms.batch.extra.target_image.map((s) => slotOfSaved(s, 'target_image')),
          source_image: forms.batch.extra.source_image.map((s) => slotOfSaved(s, 'source_image')),
        },
        promptLines: forms.batch.promptLines ?? {},
      };
      useCompose.getState().restoreAll(forms.tab, restored, batch);
      lastSent = JSON.stringify(savedFormsOf(useCompose.getState()));
      const fields = Object.keys(restored.slots) as SlotField[];
      void Promise.all(fields.map((field) => checkSlot(field)));
    } else {
      lastSent = JSON.stringify(savedFormsOf(useCompose.getState()));
    }
  } catch (err) {
    toastError(`Your saved draft could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  useCompose.subscribe(() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(saveNow, SAVE_DELAY_MS);
  });
  window.addEventListener('pagehide', saveNow);
  window.addEventListener('beforeunload', saveNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveNow();
  });
}
