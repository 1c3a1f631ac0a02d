/**
 * Keeping going from a library result: the actions a saved song or picture offers, and the forms
 * each opens with, filled in: the result in the slot it goes to (as `{ $output: { taskId, index } }`,
 * shown by its title and thumbnail), what it was made from (`parent`), and for a song the prompts
 * the source was made with. Pure; no DOM, no bridge.
 */
import type { TaskOutput } from '../../../../shared/index.ts';
import { mediaUrl } from '../../model/media-url.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import type { ComposeForms, ComposeTab } from './compose-model.ts';
import { type MediaPlace, type SlotField, type SlotState, slotFromResult } from './compose-slots.ts';
import {
  operationWords,
  type ResultOperation,
  type ResultValues,
  resultSlotOf,
  startingValues,
} from './result-operations.ts';

export const SONG_ACTIONS = ['extend', 'edit', 'audio2audio'] as const;
export const IMAGE_ACTIONS = [
  'upscale',
  'background-remove',
  'segment',
  'face-target',
  'face',
  'edit-image1',
  'multi-face-swap',
] as const;
export type ResultAction = (typeof SONG_ACTIONS)[number] | (typeof IMAGE_ACTIONS)[number];

/** Each action's button label. */
export const ACTION_LABELS: Record<ResultAction, string> = {
  extend: 'Extend',
  edit: 'Edit',
  audio2audio: 'Remix',
  upscale: 'Upscale',
  'background-remove': 'Remove background',
  segment: 'Segment',
  'face-target': 'Use as face-swap target',
  face: 'Use as face',
  'edit-image1': 'Edit (as image1)',
  'multi-face-swap': 'Multi-face swap',
};

/** The actions an output of this kind offers (none for video and other files). */
export function actionsFor(kind: TaskOutput['kind']): readonly ResultAction[] {
  if (kind === 'audio') return SONG_ACTIONS;
  if (kind === 'image') return IMAGE_ACTIONS;
  return [];
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
    kind: output.kind === 'audio' ? 'audio' : 'image',
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
      // what the song is now, and the same again to change
      return { ...values, style_prompt: style, lyrics, edit_style_prompt: style, edit_lyrics: lyrics };
    case 'audio2audio':
      return { ...values, style_prompt: style, negative_prompt: negative, lyrics };
    default:
      return values;
  }
}

/** The tab an action opens and the slot the result goes to. */
function placeOf(action: ResultAction): { tab: ComposeTab; slot: SlotField } {
  switch (action) {
    case 'face-target':
    case 'multi-face-swap':
      return { tab: 'faceSwap', slot: 'target_image' };
    case 'face':
      return { tab: 'faceSwap', slot: 'swap_image' };
    case 'edit-image1':
      return { tab: 'imageEdit', slot: 'image1' };
    default:
      return { tab: 'fromResult', slot: resultSlotOf(action) };
  }
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
    forms.faceSwap = { ...current.faceSwap, mode: action === 'multi-face-swap' ? 'several' : 'one' };
  }
  if (tab === 'fromResult') {
    const operation = action as ResultOperation;
    forms.fromResult = {
      operation,
      values: { ...current.fromResult.values, [operation]: valuesFor(operation, task.request.input) },
    };
    const title = `${task.title} (${operationWords(operation).titleWord})`.slice(0, 200);
    forms.common = { ...current.common, fromResult: { ...current.common.fromResult, title } };
  }
  return { tab, forms };
}
