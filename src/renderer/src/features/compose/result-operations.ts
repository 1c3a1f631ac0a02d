/**
 * The From a result tab as data: its operations (extend, edit and remix a song; upscale, remove
 * the background of, or segment a picture), each one catalog task type whose fields the form
 * shows from the catalog's input rules, in the catalog's order, with the words a person reads
 * beside them; the form's values, and the input they give. Pure; no DOM, no bridge.
 */
import {
  entryById,
  type FieldRule,
  type InputMediaKind,
  LIMITS,
  mediaFieldsOfRules,
  type TaskTypeEntry,
} from '../../../../shared/index.ts';
import type { ComposedInput, LocalProblem } from './compose-model.ts';
import { type SlotField, type SlotState, slotFilled, slotInput } from './compose-slots.ts';

export const RESULT_OPERATIONS = [
  'extend',
  'edit',
  'audio2audio',
  'upscale',
  'background-remove',
  'segment',
] as const;
export type ResultOperation = (typeof RESULT_OPERATIONS)[number];

/** How a field is edited, from its catalog rule. */
export type ResultFieldKind = 'media' | 'switch' | 'number' | 'lyrics' | 'text';

/** A field's words: its label, and what to say beside it. */
export interface ResultFieldWords {
  label: string;
  /** "Lyrics are…" rather than "is". */
  plural?: boolean;
  /** Put after a number in a range message (`from 0 to 240 seconds`). */
  unit?: string;
  hint?: string;
}

interface OperationWords {
  /** The operation's name on its button and in the tab. */
  label: string;
  /** One line under the choice. */
  description: string;
  /** What the source slot is for. */
  source: string;
  /** Said when the source is missing. */
  missing: string;
  /** Put after the source's title in the new task's title: `Ocean lullaby (extended)`. */
  titleWord: string;
  /** Catalog fields this form leaves out (a second name of another field, or a number it does not set). */
  hidden: readonly string[];
  fields: Record<string, ResultFieldWords>;
}

const SONG_SOURCE = 'a result from your library, an audio file, or its web address';
const PICTURE_SOURCE = 'a result from your library, a picture file, or its web address';

const WORDS: Record<ResultOperation, OperationWords> = {
  extend: {
    label: 'Extend',
    description: 'Add music before or after a song.',
    source: `The song to extend: ${SONG_SOURCE}.`,
    missing: 'Add the song to extend',
    titleWord: 'extended',
    // `negative_style_prompt` is the service's second name of the negative prompt; how long the
    // song already is, the service reads from the song itself
    hidden: ['negative_style_prompt', 'duration'],
    fields: {
      style_prompt: {
        label: 'Style of the new part',
        hint: 'Genre, instruments and mood of the added music.',
      },
      negative_prompt: { label: 'Negative prompt' },
      lyrics: { label: 'Lyrics for the new part', plural: true },
      left_extend_duration: { label: 'Seconds before', unit: ' seconds' },
      right_extend_duration: { label: 'Seconds after', unit: ' seconds' },
    },
  },
  edit: {
    label: 'Song edit',
    description: 'New style or new lyrics for the same song.',
    source: `The song to edit: ${SONG_SOURCE}.`,
    missing: 'Add the song to edit',
    titleWord: 'edited',
    hidden: ['duration'],
    fields: {
      style_prompt: { label: 'Style of the song now', hint: 'How the song sounds today.' },
      lyrics: { label: 'Lyrics of the song now', plural: true },
      edit_style_prompt: { label: 'New style', hint: 'How it should sound instead.' },
      edit_lyrics: { label: 'New lyrics', plural: true },
    },
  },
  audio2audio: {
    label: 'Remix',
    description: 'The song as the style to follow, with a new prompt.',
    source: `The song to remix: ${SONG_SOURCE}.`,
    missing: 'Add the song to remix',
    titleWord: 'remix',
    hidden: ['negative_style_prompt'],
    fields: {
      style_prompt: { label: 'New style prompt', hint: 'What to change: genre, instruments, mood.' },
      negative_prompt: { label: 'Negative prompt' },
      lyrics: { label: 'Lyrics', plural: true },
      duration: { label: 'Length', unit: ' seconds', hint: 'How long the remix is.' },
    },
  },
  upscale: {
    label: 'Upscale',
    description: 'A larger picture with finer detail.',
    source: `The picture to upscale: ${PICTURE_SOURCE}.`,
    missing: 'Add the picture to upscale',
    titleWord: 'upscaled',
    hidden: [],
    fields: {
      scale: { label: 'Scale', hint: '2 doubles the width and the height.' },
      face_enhance: { label: 'Improve faces' },
    },
  },
  'background-remove': {
    label: 'Remove background',
    description: 'Keep the subject, make the rest transparent.',
    source: `The picture: ${PICTURE_SOURCE}.`,
    missing: 'Add the picture whose background to remove',
    titleWord: 'no background',
    hidden: [],
    fields: {
      rmbg_model: { label: 'Removal model', hint: "Empty: the service's default." },
    },
  },
  segment: {
    label: 'Segment',
    description: 'Cut out what a prompt names.',
    source: `The picture to cut from: ${PICTURE_SOURCE}.`,
    missing: 'Add the picture to cut from',
    titleWord: 'segment',
    hidden: [],
    fields: {
      prompt: { label: 'What to cut out' },
      negative_prompt: { label: 'What to leave out' },
      segment_factor: {
        label: 'Edge adjustment',
        unit: ' pixels',
        hint: 'In pixels: negative shrinks the cut-out, positive grows it.',
      },
    },
  },
};

/** The catalog entry each operation queues (model and task type). */
const OPERATION_ENTRIES: Readonly<Record<ResultOperation, string>> = {
  extend: 'ace-step/extend',
  edit: 'ace-step/edit',
  audio2audio: 'ace-step/audio2audio',
  upscale: 'image-toolkit/upscale',
  'background-remove': 'image-toolkit/background-remove',
  segment: 'image-toolkit/segment',
};

export function entryOf(operation: ResultOperation): TaskTypeEntry {
  const entry = entryById(OPERATION_ENTRIES[operation]);
  if (!entry) throw new Error(`the catalog has no entry ${OPERATION_ENTRIES[operation]}`);
  return entry;
}

export function operationLabel(operation: ResultOperation): string {
  return WORDS[operation].label;
}

export function operationWords(operation: ResultOperation): Omit<OperationWords, 'fields' | 'hidden'> {
  return WORDS[operation];
}

export function isResultOperation(value: string): value is ResultOperation {
  return (RESULT_OPERATIONS as readonly string[]).includes(value);
}

/** The kind of source an operation takes (its one media field). */
export function sourceKindOf(operation: ResultOperation): InputMediaKind {
  return mediaFieldsOfRules(entryOf(operation).input)[0]?.kind ?? 'image';
}

/** The tab's slot that holds an operation's source. */
export function resultSlotOf(operation: ResultOperation): SlotField {
  return sourceKindOf(operation) === 'audio' ? 'source_audio' : 'source_image';
}

/** The input field an operation sends its source as (`audio`, `style_audio`, `image`). */
export function sourceFieldOf(operation: ResultOperation): string {
  return mediaFieldsOfRules(entryOf(operation).input)[0]?.field ?? 'image';
}

export function fieldKindOf(rule: FieldRule): ResultFieldKind {
  if (rule.media) return 'media';
  if (rule.type === 'boolean') return 'switch';
  if (rule.type === 'number' || rule.type === 'integer') return 'number';
  return rule.maxLength === LIMITS.lyricsMaxChars ? 'lyrics' : 'text';
}

/** One field the form shows for an operation. */
export interface ResultField {
  field: string;
  rule: FieldRule;
  kind: ResultFieldKind;
  words: ResultFieldWords;
  /** The catalog example's text, as the placeholder of a text field. */
  example: string | null;
}

/** The fields an operation's form shows besides its source, in the catalog's order. */
export function resultFields(operation: ResultOperation): ResultField[] {
  const entry = entryOf(operation);
  const words = WORDS[operation];
  return Object.entries(entry.input.fields).flatMap(([field, rule]) => {
    if (rule.media || words.hidden.includes(field)) return [];
    const example = entry.example[field];
    return [
      {
        field,
        rule,
        kind: fieldKindOf(rule),
        words: words.fields[field] ?? { label: field },
        example: typeof example === 'string' && example !== '' ? example : null,
      },
    ];
  });
}

/** The words of one of an operation's fields (its source field is the slot's). */
export function resultFieldWords(operation: ResultOperation, field: string): ResultFieldWords {
  if (field === sourceFieldOf(operation)) {
    return { label: sourceKindOf(operation) === 'audio' ? 'The song' : 'The picture' };
  }
  return WORDS[operation].fields[field] ?? { label: field };
}

/** A field's value in the form: text as typed (numbers too), or on/off. */
export type ResultValue = string | boolean;
export type ResultValues = Record<string, ResultValue>;

export interface FromResultForm {
  operation: ResultOperation;
  /** Each operation's own values, by input field (kept while switching). */
  values: Record<ResultOperation, ResultValues>;
}

/** An operation's starting values: the catalog example's numbers and switches. */
export function startingValues(operation: ResultOperation): ResultValues {
  const example = entryOf(operation).example;
  const values: ResultValues = {};
  for (const { field, kind } of resultFields(operation)) {
    const value = example[field];
    if (kind === 'number' && typeof value === 'number') values[field] = String(value);
    if (kind === 'switch' && typeof value === 'boolean') values[field] = value;
  }
  return values;
}

export function emptyFromResult(): FromResultForm {
  const values = Object.fromEntries(RESULT_OPERATIONS.map((op) => [op, startingValues(op)])) as Record<
    ResultOperation,
    ResultValues
  >;
  return { operation: 'extend', values };
}

/** A number field's text as a number: null when empty, 'bad' when it is not one of its type. */
export function parseFieldNumber(text: string, type: FieldRule['type']): number | null | 'bad' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (type === 'integer') return /^-?\d+$/.test(trimmed) ? Number(trimmed) : 'bad';
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : 'bad';
}

/** Seconds an extend adds on one side, as its handle shows them (0 for an empty or unreadable field). */
export function extendSeconds(values: ResultValues, field: 'left_extend_duration' | 'right_extend_duration') {
  const raw = values[field];
  const n = typeof raw === 'string' ? parseFieldNumber(raw, 'number') : null;
  return typeof n === 'number' && n > 0 ? n : 0;
}

/** The model, task type and input the tab's form gives, with what the form itself finds wrong. */
export function fromResultInput(form: FromResultForm, slots: Record<SlotField, SlotState>): ComposedInput {
  const { operation } = form;
  const entry = entryOf(operation);
  const values = form.values[operation];
  const input: Record<string, unknown> = {};
  const local: LocalProblem[] = [];
  const source = slots[resultSlotOf(operation)];
  if (slotFilled(source)) input[sourceFieldOf(operation)] = slotInput(source);
  for (const { field, rule, kind, words } of resultFields(operation)) {
    const value = values[field];
    if (kind === 'switch') {
      if (typeof value === 'boolean') input[field] = value;
    } else if (kind === 'number') {
      const n = parseFieldNumber(typeof value === 'string' ? value : '', rule.type);
      if (n === 'bad') {
        const what = rule.type === 'integer' ? 'a whole number' : 'a number';
        local.push({ field, message: `${words.label} must be ${what}` });
      } else if (n !== null) input[field] = n;
    } else if (typeof value === 'string' && value.trim() !== '') {
      input[field] = value;
    }
  }
  if (operation === 'extend' && local.length === 0) {
    const added =
      extendSeconds(values, 'left_extend_duration') + extendSeconds(values, 'right_extend_duration');
    if (added === 0) {
      local.push({
        field: 'right_extend_duration',
        message: 'Add some seconds before or after the song (drag a handle or type a number)',
      });
    }
  }
  return { model: entry.modelName, taskType: operation, input, local, readable: true };
}

/** The screen order of the tab's fields for an operation: the choice, the source, then the catalog's. */
export function resultFieldOrder(operation: ResultOperation): string[] {
  const fields = resultFields(operation).flatMap(({ field, kind }) =>
    kind === 'lyrics' ? [field, `${field}-markers`] : [field],
  );
  return ['operation', resultSlotOf(operation), ...fields];
}
