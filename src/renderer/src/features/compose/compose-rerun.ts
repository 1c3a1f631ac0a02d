/** Filling the composer back from a re-run's DraftView: which tab, and each field's value. Pure. */
import { catalogEntry, type DraftView, modelNameOf } from '../../../../shared/index.ts';
import { type ComposeForms, type ComposeTab, clampDuration, DEFAULT_DURATION } from './compose-model.ts';
import {
  type MediaPlace,
  SLOT_RULES,
  type SlotField,
  type SlotState,
  slotFromValue,
} from './compose-slots.ts';
import { isKindTab, kindTabOfEntry, mediaSlotsOf } from './kind-tabs.ts';

/** The tab that composes a task type. */
export function tabOfTaskType(taskType: string): ComposeTab {
  if (taskType === 'txt2audio') return 'song';
  if (taskType === 'face-swap') return 'faceSwap';
  if (taskType === 'image-edit') return 'imageEdit';
  return 'other';
}

/**
 * The tab a draft opens in: the Image, Video or 3D tab that lists its entry (a face swap onto a
 * video is the Video tab's, though its task type is the picture face swap's), else its task
 * type's own tab, else Other.
 */
export function tabOfDraft(draft: Pick<DraftView, 'model' | 'taskType'>): ComposeTab {
  const entry = catalogEntry(draft.model, draft.taskType);
  return (entry && kindTabOfEntry(entry.id)) ?? tabOfTaskType(draft.taskType);
}
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const numText = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/** The forms a re-run opens with, and the tab to show. Tabs not involved keep their values. */
export function formsFromDraft(
  draft: DraftView,
  rerunOf: string | null,
  current: ComposeForms,
  place: MediaPlace,
): { tab: ComposeTab; forms: ComposeForms } {
  const parent = rerunOf ? { taskId: rerunOf, output: null, title: draft.title ?? '' } : null;
  const tab = tabOfDraft(draft);
  const input = draft.input;
  const forms: ComposeForms = {
    ...current,
    common: {
      ...current.common,
      [tab]: {
        title: draft.title ?? '',
        webhookEndpoint: draft.webhook?.endpoint ?? '',
        webhookSecret: draft.webhook?.secret ?? '',
      },
    },
    slots: { ...current.slots },
    parent: { ...current.parent, [tab]: parent },
  };
  const slot = (field: SlotField) => {
    forms.slots[field] = namedSlot(draft, field, field, place);
  };
  switch (tab) {
    case 'song':
      forms.song = {
        stylePrompt: str(input.style_prompt),
        negativePrompt: str(input.negative_prompt) || str(input.negative_style_prompt),
        lyrics: str(input.lyrics),
        duration: typeof input.duration === 'number' ? clampDuration(input.duration) : DEFAULT_DURATION,
      };
      slot('style_audio');
      break;
    case 'faceSwap':
      // a face swap re-runs as one: the tab may have been left on several faces
      forms.faceSwap = { ...current.faceSwap, mode: 'one' };
      slot('target_image');
      slot('swap_image');
      break;
    case 'imageEdit':
      forms.imageEdit = {
        prompt: str(input.prompt),
        negativePrompt: str(input.negative_prompt),
        seed: numText(input.seed),
        steps: numText(input.steps),
        flowShift: numText(input.flow_shift),
      };
      slot('image1');
      slot('image2');
      slot('image3');
      break;
    case 'image':
    case 'video':
    case 'model3d':
      fillKindTab(tab, draft, forms, place);
      break;
    default:
      forms.other = {
        model: catalogEntry(draft.model, draft.taskType)?.modelName ?? modelNameOf(draft.model),
        taskType: draft.taskType,
        modelId: draft.model.includes('/') ? draft.model : '',
        json: JSON.stringify(input, null, 2),
      };
  }
  return { tab, forms };
}

/** The slot of a draft's input field, named by the file the user gave when it is the library's copy. */
function namedSlot(draft: DraftView, field: string, slot: SlotField, place: MediaPlace): SlotState {
  const shown = slotFromValue(str(draft.input[field]), SLOT_RULES[slot].kind, place);
  const name = draft.fileNames?.[field];
  return name && shown.status !== 'empty' ? { ...shown, label: name } : shown;
}

/** A kind tab on the draft's entry: its values as the form's JSON, each media field in the tab's slot. */
function fillKindTab(tab: ComposeTab, draft: DraftView, forms: ComposeForms, place: MediaPlace): void {
  const entry = catalogEntry(draft.model, draft.taskType);
  if (!entry || !isKindTab(tab)) return;
  const slots = mediaSlotsOf(tab, entry);
  const values = Object.fromEntries(
    Object.entries(draft.input).filter(([name]) => !slots.some((s) => s.field === name)),
  );
  forms.kinds = { ...forms.kinds, [tab]: { entryId: entry.id, json: JSON.stringify(values, null, 2) } };
  for (const { field, slot } of slots) forms.slots[slot] = namedSlot(draft, field, slot, place);
}
