/**
 * The composer: the drafts of every tab (kept while switching), which fields the user has
 * touched and whether Queue was tried (what the live check shows), errors from main, and the
 * Queue state.
 */
import { create } from 'zustand';
import { valuesOfJson } from '../features/compose/catalog-form/form-fields.ts';
import {
  type BatchForm,
  clampVariations,
  emptyBatch,
  type MultiSlot,
} from '../features/compose/compose-batch.ts';
import {
  type CommonForm,
  type ComposeForms,
  type ComposeTab,
  EMPTY_COMMON,
  EMPTY_FACE_SWAP,
  EMPTY_IMAGE_EDIT,
  EMPTY_SONG,
  emptyForms,
  emptyOther,
  type FaceSwapForm,
  type ImageEditForm,
  type OtherForm,
  perTab,
  type SongForm,
} from '../features/compose/compose-model.ts';
import { EMPTY_SLOT, type SlotField, type SlotState, TAB_SLOTS } from '../features/compose/compose-slots.ts';
import { emptyKindForm, isKindTab, type KindForm, type KindTab } from '../features/compose/kind-tabs.ts';
import {
  emptyFromResult,
  type FromResultForm,
  type ResultOperation,
  type ResultValue,
  resultSlotOf,
  sourceFieldOf,
  startingValues,
} from '../features/compose/result-operations.ts';

export interface ComposeState extends ComposeForms {
  tab: ComposeTab;
  /** Messages from main by input field (`style_prompt`, `image1`, `webhook_config.endpoint`…), per tab. */
  errors: Record<ComposeTab, Record<string, string>>;
  /** Fields the user changed, per tab: their problems show before any Queue attempt. */
  touched: Record<ComposeTab, Record<string, true>>;
  /** Queue was tried on the tab since it was last cleared or queued: every problem shows. */
  attempted: Record<ComposeTab, boolean>;
  /** A problem with the whole draft that belongs to no one field. */
  formError: string | null;
  queueing: boolean;
  /** Why the last Queue needs the user's word (a task with no published price under a budget). */
  unknownPrice: string | null;
  /** Variations, the face swap's extra targets and the song split: Queue sends a batch. */
  batch: BatchForm;
  setVariations(tab: ComposeTab, count: number): void;
  setSongSplit(split: boolean): void;
  /** Replaces the extra pictures of a slot (their previews no longer shown are freed). */
  setExtra(field: MultiSlot, pictures: SlotState[]): void;
  setTab(tab: ComposeTab): void;
  setSong(patch: Partial<SongForm>): void;
  setFaceSwap(patch: Partial<FaceSwapForm>): void;
  setImageEdit(patch: Partial<ImageEditForm>): void;
  /** Chooses the From a result tab's operation (each keeps its own values). */
  setOperation(operation: ResultOperation): void;
  /** Chooses the Picture tools tab's tool (one of PICTURE_TOOLS; each keeps its own values). */
  setTool(tool: ResultOperation): void;
  /** Sets fields of the current operation (the Picture tools tab's: its tool), by input field. */
  setResultValues(patch: Record<string, ResultValue>): void;
  setOther(patch: Partial<OtherForm>): void;
  /** Sets the form of the Image, Video or 3D tab: the entry chosen and its values. */
  setKind(tab: KindTab, form: KindForm): void;
  setCommon(patch: Partial<CommonForm>): void;
  setSlot(field: SlotField, slot: SlotState): void;
  setFieldError(tab: ComposeTab, field: string, message: string | null): void;
  setFormError(message: string | null): void;
  setQueueing(queueing: boolean): void;
  setAttempted(tab: ComposeTab, attempted: boolean): void;
  setUnknownPrice(message: string | null): void;
  /** Empties a tab's form; `keepPreviews` keeps its pictures' previews for an Undo (the caller frees them). */
  clearTab(tab: ComposeTab, keepPreviews?: boolean): void;
  /** Puts back what belonged to `tab` in `before` (Clear's Undo). */
  restoreTab(tab: ComposeTab, before: ComposeSnapshot): void;
  /** Every tab's form as kept on disk last time (the start of the app); checks and errors start anew. */
  restoreAll(
    tab: ComposeTab,
    forms: ComposeForms,
    batch: Pick<BatchForm, 'variations' | 'songSplit' | 'extra' | 'promptLines'>,
  ): void;
  /** Puts `forms` in the composer on `tab`; `keepPreviews` keeps the replaced pictures' previews for an Undo. */
  fill(tab: ComposeTab, forms: ComposeForms, keepPreviews?: boolean): void;
  /** After a task of `tab` is queued: what belonged to it (its title, what it was made from) is cleared. */
  clearQueued(tab: ComposeTab): void;
}

/** The forms and batch choices at one moment (what Clear's Undo puts back). */
export type ComposeSnapshot = ComposeForms & { batch: BatchForm };

/** The forms and batch choices of the state, as they are now. */
export function snapshotOf(s: ComposeState): ComposeSnapshot {
  const { song, faceSwap, imageEdit, fromResult, other, kinds, common, slots, parent, batch } = s;
  return { song, faceSwap, imageEdit, fromResult, other, kinds, common, slots, parent, batch };
}

const noErrors = (): Record<ComposeTab, Record<string, string>> => perTab({});

/** Frees a preview made from a dropped File. */
export function releasePreview(slot: SlotState): void {
  if (slot.previewUrl?.startsWith('blob:')) URL.revokeObjectURL(slot.previewUrl);
}

function withoutField(errors: Record<string, string>, field: string): Record<string, string> {
  if (!(field in errors)) return errors;
  const next = { ...errors };
  delete next[field];
  return next;
}

const noneTouched = (): Record<ComposeTab, Record<string, true>> => perTab({});

export const useCompose = create<ComposeState>()((set, get) => {
  /**
   * The user changed these fields: main's old messages about them (and about the whole form) go,
   * and they count as touched.
   */
  const edited = (tab: ComposeTab, fields: string[]) =>
    set((s) => {
      let tabErrors = s.errors[tab];
      for (const field of fields) tabErrors = withoutField(tabErrors, field);
      const touched = fields.every((f) => s.touched[tab][f])
        ? s.touched
        : { ...s.touched, [tab]: { ...s.touched[tab], ...Object.fromEntries(fields.map((f) => [f, true])) } };
      const errors = tabErrors === s.errors[tab] ? s.errors : { ...s.errors, [tab]: tabErrors };
      if (errors === s.errors && touched === s.touched && s.formError === null) return s;
      return { errors, touched, formError: null };
    });

  return {
    ...emptyForms(),
    tab: 'song',
    errors: noErrors(),
    touched: noneTouched(),
    attempted: perTab(false),
    formError: null,
    queueing: false,
    unknownPrice: null,
    batch: emptyBatch(),
    setVariations: (tab, count) =>
      set((s) => ({
        batch: { ...s.batch, variations: { ...s.batch.variations, [tab]: clampVariations(count) } },
      })),
    setSongSplit: (songSplit) => {
      set((s) => ({ batch: { ...s.batch, songSplit } }));
      edited('song', ['lyrics']);
    },
    setExtra: (field, pictures) => {
      // a picture moved into the slot keeps its preview
      const kept = new Set([...pictures.map((t) => t.previewUrl), get().slots[field].previewUrl]);
      for (const old of get().batch.extra[field]) if (!kept.has(old.previewUrl)) releasePreview(old);
      set((s) => ({ batch: { ...s.batch, extra: { ...s.batch.extra, [field]: pictures } } }));
      edited(field === 'target_image' ? 'faceSwap' : get().tab === 'pictures' ? 'pictures' : 'fromResult', [
        field,
      ]);
    },
    setTab: (tab) => set({ tab, formError: null }),
    setUnknownPrice: (unknownPrice) => set({ unknownPrice }),
    setSong: (patch) => {
      set((s) => ({ song: { ...s.song, ...patch } }));
      edited('song', songFields(patch));
    },
    setFaceSwap: (patch) => {
      set((s) => ({ faceSwap: { ...s.faceSwap, ...patch } }));
      edited('faceSwap', faceSwapFields(patch));
    },
    setOperation: (operation) => {
      set((s) => ({ fromResult: { ...s.fromResult, operation } }));
      edited('fromResult', ['operation']);
    },
    setTool: (tool) => {
      set((s) => ({ fromResult: { ...s.fromResult, tool } }));
      edited('pictures', ['operation']);
    },
    setResultValues: (patch) => {
      const tab = get().tab === 'pictures' ? 'pictures' : 'fromResult';
      const { operation, tool } = get().fromResult;
      const op = tab === 'pictures' ? tool : operation;
      set((s) => ({
        fromResult: {
          ...s.fromResult,
          values: { ...s.fromResult.values, [op]: { ...s.fromResult.values[op], ...patch } },
        },
      }));
      edited(tab, Object.keys(patch));
    },
    setImageEdit: (patch) => {
      set((s) => ({ imageEdit: { ...s.imageEdit, ...patch } }));
      edited('imageEdit', imageEditFields(patch));
    },
    setOther: (patch) => {
      set((s) => ({ other: { ...s.other, ...patch } }));
      edited('other', ['input', 'model', 'task_type', 'model_id']);
    },
    setKind: (tab, form) => {
      const before = get().kinds[tab];
      set((s) => ({ kinds: { ...s.kinds, [tab]: form } }));
      edited(tab, changedKindFields(before, form));
    },
    setCommon: (patch) => {
      const tab = get().tab;
      set((s) => ({ common: { ...s.common, [tab]: { ...s.common[tab], ...patch } } }));
      edited(tab, commonFields(patch));
    },
    setSlot: (field, slot) => {
      const previous = get().slots[field];
      if (previous.previewUrl !== slot.previewUrl) releasePreview(previous);
      set((s) => ({ slots: { ...s.slots, [field]: slot }, parent: withoutParentOf(s, field, slot) }));
      for (const tab of Object.keys(TAB_SLOTS) as ComposeTab[]) {
        if (TAB_SLOTS[tab].includes(field)) edited(tab, sourceNames(tab, field));
      }
    },
    setFieldError: (tab, field, message) =>
      set((s) => ({
        errors: {
          ...s.errors,
          [tab]:
            message === null ? withoutField(s.errors[tab], field) : { ...s.errors[tab], [field]: message },
        },
      })),
    setFormError: (formError) => set({ formError }),
    setQueueing: (queueing) => set({ queueing }),
    setAttempted: (tab, attempted) =>
      set((s) => (s.attempted[tab] === attempted ? s : { attempted: { ...s.attempted, [tab]: attempted } })),
    clearTab: (tab, keepPreviews = false) => set(clearedTab(get(), tab, keepPreviews)),
    restoreTab: (tab, before) => {
      const s = get();
      const slots = { ...s.slots };
      for (const field of TAB_SLOTS[tab]) slots[field] = before.slots[field];
      const multi = multiSlotOfTab(tab);
      set({
        slots,
        song: tab === 'song' ? before.song : s.song,
        faceSwap: tab === 'faceSwap' ? before.faceSwap : s.faceSwap,
        imageEdit: tab === 'imageEdit' ? before.imageEdit : s.imageEdit,
        fromResult: tab === 'fromResult' || tab === 'pictures' ? before.fromResult : s.fromResult,
        other: tab === 'other' ? before.other : s.other,
        kinds: isKindTab(tab) ? { ...s.kinds, [tab]: before.kinds[tab] } : s.kinds,
        common: { ...s.common, [tab]: before.common[tab] },
        parent: { ...s.parent, [tab]: before.parent[tab] },
        batch: {
          ...s.batch,
          variations: { ...s.batch.variations, [tab]: before.batch.variations[tab] },
          songSplit: tab === 'song' ? before.batch.songSplit : s.batch.songSplit,
          extra: multi ? { ...s.batch.extra, [multi]: before.batch.extra[multi] } : s.batch.extra,
        },
        errors: { ...s.errors, [tab]: {} },
        formError: null,
      });
    },
    restoreAll: (tab, forms, batch) =>
      set({
        ...forms,
        tab,
        batch: { ...get().batch, ...batch },
        errors: noErrors(),
        touched: noneTouched(),
        attempted: perTab(false),
        formError: null,
      }),
    fill: (tab, forms, keepPreviews = false) => {
      const current = get().slots;
      for (const field of Object.keys(current) as SlotField[]) {
        if (!keepPreviews && current[field] !== forms.slots[field]) releasePreview(current[field]);
      }
      set({
        ...forms,
        tab,
        batch: clearedBatch(get().batch, tab, keepPreviews),
        errors: noErrors(),
        touched: noneTouched(),
        attempted: perTab(false),
        formError: null,
      });
    },
    clearQueued: (tab) =>
      set((s) => ({
        // the next variations of an image edit without a seed start somewhere new; the next
        // Queue sends one again unless asked (issue 21, item 11)
        batch: {
          ...s.batch,
          seedStart: emptyBatch().seedStart,
          variations: { ...s.batch.variations, [tab]: 1 },
        },
        common: { ...s.common, [tab]: { ...s.common[tab], title: '' } },
        parent: { ...s.parent, [tab]: null },
        attempted: { ...s.attempted, [tab]: false },
      })),
  };
});

/** The state once `tab` is emptied (clearTab); `keepPreviews` keeps its pictures' previews (then nothing is freed). */
export function clearedTab(s: ComposeState, tab: ComposeTab, keepPreviews = false): Partial<ComposeState> {
  const slots = { ...s.slots };
  for (const field of TAB_SLOTS[tab]) {
    if (!keepPreviews) releasePreview(slots[field]);
    slots[field] = EMPTY_SLOT;
  }
  return {
    slots,
    song: tab === 'song' ? EMPTY_SONG : s.song,
    // the mode (one face or several) stays, like the operation below: Clear empties the fields
    faceSwap: tab === 'faceSwap' ? { ...EMPTY_FACE_SWAP, mode: s.faceSwap.mode } : s.faceSwap,
    imageEdit: tab === 'imageEdit' ? EMPTY_IMAGE_EDIT : s.imageEdit,
    // the operation chosen stays: Clear empties its fields
    fromResult: clearedFromResult(s.fromResult, tab),
    other: tab === 'other' ? emptyOther() : s.other,
    // the entry chosen stays, like the operation: Clear empties its fields
    kinds: isKindTab(tab)
      ? { ...s.kinds, [tab]: { ...emptyKindForm(tab), entryId: s.kinds[tab].entryId } }
      : s.kinds,
    batch: clearedBatch(s.batch, tab, keepPreviews),
    common: { ...s.common, [tab]: EMPTY_COMMON },
    parent: { ...s.parent, [tab]: null },
    errors: { ...s.errors, [tab]: {} },
    touched: { ...s.touched, [tab]: {} },
    attempted: { ...s.attempted, [tab]: false },
    formError: null,
  };
}

/** The slot of `tab` that takes extra pictures, if any. */
function multiSlotOfTab(tab: ComposeTab): MultiSlot | null {
  return tab === 'faceSwap'
    ? 'target_image'
    : tab === 'fromResult' || tab === 'pictures'
      ? 'source_image'
      : null;
}

/** The From a result form once `tab` is cleared: the operation and the tool chosen stay, their fields empty. */
function clearedFromResult(form: FromResultForm, tab: ComposeTab): FromResultForm {
  if (tab === 'fromResult') return { ...emptyFromResult(), operation: form.operation, tool: form.tool };
  if (tab !== 'pictures') return form;
  return { ...form, values: { ...form.values, [form.tool]: startingValues(form.tool) } };
}

/** The batch state once `tab` is cleared: its variations back to one, its extra pictures gone. */
function clearedBatch(batch: BatchForm, tab: ComposeTab, keepPreviews = false): BatchForm {
  const field = multiSlotOfTab(tab);
  if (field && !keepPreviews) for (const picture of batch.extra[field]) releasePreview(picture);
  return {
    ...batch,
    variations: { ...batch.variations, [tab]: 1 },
    songSplit: tab === 'song' ? false : batch.songSplit,
    extra: field ? { ...batch.extra, [field]: [] } : batch.extra,
  };
}

/**
 * The tabs' parents once `field` holds `slot`: a tab made from a result is no longer, when the
 * user puts something else where it was and no other slot of the tab still holds it.
 */
function withoutParentOf(s: ComposeForms, field: SlotField, slot: SlotState): ComposeForms['parent'] {
  const before = s.slots[field].result;
  if (!before || (slot.result?.taskId === before.taskId && slot.result.index === before.index))
    return s.parent;
  const slots = { ...s.slots, [field]: slot };
  let parent = s.parent;
  for (const tab of Object.keys(TAB_SLOTS) as ComposeTab[]) {
    const p = parent[tab];
    if (!TAB_SLOTS[tab].includes(field) || !p || p.taskId !== before.taskId || p.output !== before.index)
      continue;
    const kept = TAB_SLOTS[tab].some(
      (f) => slots[f].result?.taskId === p.taskId && slots[f].result?.index === p.output,
    );
    if (!kept) parent = { ...parent, [tab]: null };
  }
  return parent;
}

/** The fields a slot change touches: the slot, and in the From a result tab the input field it fills. */
function sourceNames(tab: ComposeTab, field: SlotField): string[] {
  if (tab !== 'fromResult' && tab !== 'pictures') return [field];
  const form = useCompose.getState().fromResult;
  const operation = tab === 'pictures' ? form.tool : form.operation;
  return resultSlotOf(operation) === field ? [field, sourceFieldOf(operation)] : [field];
}

/** The fields a kind tab's change touches: the entry chosen, or the values that differ. */
function changedKindFields(before: KindForm, after: KindForm): string[] {
  if (before.entryId !== after.entryId) return ['entry'];
  const a = valuesOfJson(before.json) ?? {};
  const b = valuesOfJson(after.json) ?? {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
}

function faceSwapFields(patch: Partial<FaceSwapForm>): string[] {
  const map: Record<keyof FaceSwapForm, string> = {
    mode: 'mode',
    swapFacesIndex: 'swap_faces_index',
    targetFacesIndex: 'target_faces_index',
  };
  return Object.keys(patch).map((k) => map[k as keyof FaceSwapForm]);
}

function songFields(patch: Partial<SongForm>): string[] {
  const map: Record<keyof SongForm, string> = {
    stylePrompt: 'style_prompt',
    negativePrompt: 'negative_prompt',
    lyrics: 'lyrics',
    duration: 'duration',
  };
  const fields = Object.keys(patch).map((k) => map[k as keyof SongForm]);
  return patch.stylePrompt !== undefined ? [...fields, 'style_audio'] : fields;
}

function imageEditFields(patch: Partial<ImageEditForm>): string[] {
  const map: Record<keyof ImageEditForm, string> = {
    prompt: 'prompt',
    negativePrompt: 'negative_prompt',
    seed: 'seed',
    steps: 'steps',
    flowShift: 'flow_shift',
  };
  return Object.keys(patch).map((k) => map[k as keyof ImageEditForm]);
}

function commonFields(patch: Partial<CommonForm>): string[] {
  const map: Record<keyof CommonForm, string> = {
    title: 'title',
    webhookEndpoint: 'webhook_config.endpoint',
    webhookSecret: 'webhook_config.secret',
    webhookSecretNotKept: 'webhook_config.secret',
  };
  return [...Object.keys(patch).map((k) => map[k as keyof CommonForm]), 'webhook'];
}
