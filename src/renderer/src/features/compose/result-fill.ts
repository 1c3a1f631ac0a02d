/**
 * Keeping going from a library result: the actions a saved song or picture offers, and the forms
 * each opens with, filled in: the result in the slot it goes to (as `{ $output: { taskId, index } }`,
 * shown by its title and thumbnail), what it was made from (`parent`), and for a song the prompts
 * the source was made with. Pure; no DOM, no bridge.
 */
import {
  entryById,
  type InputMediaKind,
  mediaFieldsOfRules,
  mediaKind,
  TASK_TYPES,
  type TaskFamily,
  type TaskOutput,
} from '../../../../shared/index.ts';
import { mediaUrl } from '../../model/media-url.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import type { ComposeForms, ComposeTab } from './compose-model.ts';
import {
  type MediaPlace,
  SLOT_RULES,
  type SlotField,
  type SlotState,
  slotFromResult,
} from './compose-slots.ts';
import { isKindTab, kindTabOfEntry, slotOfField, sourceOf, withEntry } from './kind-tabs.ts';
import {
  isResultOperation,
  operationOfEntry,
  operationWords,
  type ResultOperation,
  type ResultValues,
  resultSlotOf,
  sourceFieldOf,
  startingValues,
} from './result-operations.ts';

/** A keep-going action: its stable id (`data-action`), its button's words, and where it puts the result. */
export interface KeepGoingAction {
  id: ResultAction;
  label: string;
  /** The catalog entry it makes a task of, and the media field the result goes in. */
  entryId: string;
  field: string;
}
/** An operation's id (`extend`, `upscale`) or a hand-made form's action (`face-target`). */
export type ResultAction = string;

/**
 * Every keep-going action, from the catalog in its order: each operation of the From a result
 * tab on its source field, and each media field of a hand-made form that declares one
 * (`resultAction`: the face swap's two pictures, the image edit's image1, a multi-face swap).
 */
const ACTIONS: readonly (KeepGoingAction & { kind: InputMediaKind })[] = TASK_TYPES.flatMap((entry) =>
  mediaFieldsOfRules(entry.input).flatMap((media) => {
    const operation = operationOfEntry(entry.id);
    if (operation !== undefined && media.field === sourceFieldOf(operation)) {
      const { button } = operationWords(operation);
      return [{ id: operation, label: button, entryId: entry.id, field: media.field, kind: media.kind }];
    }
    const declared = entry.input.fields[media.field]?.resultAction;
    if (declared) {
      return [
        { id: declared.id, label: declared.label, entryId: entry.id, field: media.field, kind: media.kind },
      ];
    }
    // an entry of the Image, Video or 3D tab that is no operation (a face onto a video: two
    // media fields): the result goes in the slot of the field it starts from
    const tab = operation === undefined ? kindTabOfEntry(entry.id) : undefined;
    if (!tab || !media.required || media.kind !== sourceOf(entry) || !slotOfField(tab, entry, media.field)) {
      return [];
    }
    const label = entry.operation?.button ?? entry.operation?.label ?? entry.label;
    return [{ id: entry.id, label, entryId: entry.id, field: media.field, kind: media.kind }];
  }),
);

/** The actions an output of this kind offers, in the catalog's order (none for a kind no field takes). */
export function actionsFor(kind: TaskOutput['kind']): readonly KeepGoingAction[] {
  return ACTIONS.filter((a) => a.kind === kind);
}

/** The keep-going actions that make one kind of result: a group of the detail's menu. */
export interface ActionGroup {
  makes: TaskOutput['kind'];
  /** "Picture tools" (what makes the result's own kind), "Into a video", "Into 3D". */
  label: string;
  actions: readonly KeepGoingAction[];
}

/** A group's name by what its actions make, when that is not the result's own kind. */
const INTO_WORDS: Partial<Record<TaskOutput['kind'], string>> = {
  image: 'Into a picture',
  video: 'Into a video',
  '3d': 'Into 3D',
  audio: 'Into a sound',
};

/**
 * The actions an output of this kind offers, grouped by what they make: the tools that make its
 * own kind first ("Picture tools"), then each other kind in the catalog's order ("Into a video").
 */
export function actionGroupsFor(kind: TaskOutput['kind']): ActionGroup[] {
  const makesOf = (a: KeepGoingAction) => entryById(a.entryId)?.outputKind ?? kind;
  const actions = actionsFor(kind);
  const kinds = [...new Set([kind, ...actions.map(makesOf)])];
  return kinds
    .map((makes) => {
      const own = mediaKind(kind).label;
      const label =
        makes === kind
          ? `${own.charAt(0).toUpperCase()}${own.slice(1)} tools`
          : (INTO_WORDS[makes] ?? `Into ${mediaKind(makes).words.asked}`);
      return { makes, label, actions: actions.filter((a) => makesOf(a) === makes) };
    })
    .filter((group) => group.actions.length > 0);
}

/** An action's button words. */
export function actionLabel(action: ResultAction): string {
  return ACTIONS.find((a) => a.id === action)?.label ?? action;
}

/** The result as its slot shows it: its title, its thumbnail, and its size or length. */
export function resultSlot(
  task: Pick<LoadedTask, 'id' | 'title' | 'outputs'>,
  output: TaskOutput,
  place: MediaPlace,
) {
  const base = place.mediaBaseUrl;
  const path = output.thumbPath ?? output.path;
  const several = task.outputs.length > 1;
  const size =
    output.kind === 'image' && output.width && output.height
      ? `${output.width} x ${output.height} px`
      : output.kind === 'audio' && output.durationSeconds
        ? `${Math.round(output.durationSeconds)} s`
        : null;
  return slotFromResult({
    ref: { taskId: task.id, index: output.index },
    title: several ? `${task.title} (output ${output.index + 1})` : task.title,
    kind: output.kind === 'audio' || output.kind === 'video' ? output.kind : 'image',
    previewUrl: base && path ? mediaUrl(base, path) : null,
    mediaUrl: base && output.path ? mediaUrl(base, output.path) : null,
    seconds: output.durationSeconds,
    info: size ? `A result in your library · ${size}` : 'A result in your library',
  });
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An operation's values to start from, with what the source song was made with where it fits. */
function valuesFor(operation: ResultOperation, source: Record<string, unknown>): ResultValues {
  const values = startingValues(operation);
  const style = text(source.style_prompt);
  const negative = text(source.negative_prompt) || text(source.negative_style_prompt);
  const lyrics = text(source.lyrics);
  switch (operation) {
    case 'extend':
      // the new part in the song's style; its lyrics are the user's to write
      return { ...values, style_prompt: style, negative_prompt: negative };
    case 'edit':
      // what the song is now; what should change is the user's to write (a copy would change nothing)
      return { ...values, style_prompt: style, lyrics };
    case 'audio2audio':
      return { ...values, style_prompt: style, negative_prompt: negative, lyrics };
    default:
      return values;
  }
}

/** The tab of a hand-made form, by what its entry makes. */
const OWN_TABS: Partial<Record<TaskFamily, ComposeTab>> = {
  song: 'song',
  'face-swap': 'faceSwap',
  'image-edit': 'imageEdit',
};

/** The tab an action opens and the slot the result goes to (a hand-made form's slot is its field). */
function placeOf(action: ResultAction): { tab: ComposeTab; slot: SlotField } {
  if (isResultOperation(action)) return { tab: 'fromResult', slot: resultSlotOf(action) };
  const found = ACTIONS.find((a) => a.id === action);
  const entry = entryById(found?.entryId);
  const kindTab = entry ? kindTabOfEntry(entry.id) : undefined;
  const kindSlot = found && entry && kindTab ? slotOfField(kindTab, entry, found.field) : null;
  if (kindTab && kindSlot && entry && found?.id === entry.id) return { tab: kindTab, slot: kindSlot };
  const tab = entry ? OWN_TABS[entry.makes] : undefined;
  if (!found || !tab || !(found.field in SLOT_RULES)) throw new Error(`no keep-going action ${action}`);
  return { tab, slot: found.field as SlotField };
}

/**
 * The forms an action opens with: `current` with the result in its slot and the tab's lineage
 * set; the other tabs keep their values.
 */
export function formsForResult(
  action: ResultAction,
  task: Pick<LoadedTask, 'id' | 'title' | 'outputs' | 'request'>,
  output: TaskOutput,
  current: ComposeForms,
  place: MediaPlace,
): { tab: ComposeTab; forms: ComposeForms } {
  const { tab, slot } = placeOf(action);
  const filled: SlotState = resultSlot(task, output, place);
  const forms: ComposeForms = {
    ...current,
    slots: { ...current.slots, [slot]: filled },
    parent: { ...current.parent, [tab]: { taskId: task.id, output: output.index, title: task.title } },
  };
  if (tab === 'faceSwap') {
    const several = ACTIONS.find((a) => a.id === action)?.entryId === 'image-toolkit/multi-face-swap';
    forms.faceSwap = { ...current.faceSwap, mode: several ? 'several' : 'one' };
  }
  const kindEntry = isKindTab(tab) ? entryById(ACTIONS.find((a) => a.id === action)?.entryId) : undefined;
  if (isKindTab(tab) && kindEntry) {
    forms.kinds = { ...current.kinds, [tab]: withEntry(current.kinds[tab], kindEntry) };
    const word = kindEntry.operation?.titleWord ?? kindEntry.label.toLowerCase();
    const title = `${task.title} (${word})`.slice(0, 200);
    forms.common = { ...current.common, [tab]: { ...current.common[tab], title } };
  }
  if (tab === 'fromResult') {
    const operation: ResultOperation = action;
    forms.fromResult = {
      ...current.fromResult,
      operation,
      values: { ...current.fromResult.values, [operation]: valuesFor(operation, task.request.input) },
    };
    const title = `${task.title} (${operationWords(operation).titleWord})`.slice(0, 200);
    forms.common = { ...current.common, fromResult: { ...current.common.fromResult, title } };
  }
  return { tab, forms };
}
