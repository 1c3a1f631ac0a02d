/**
 * The From a result tab as data: its operations, generated from the catalog (every entry without
 * a tab of its own whose one required media field can hold a result: extend, edit and remix a
 * song; upscale, remove the background of, or segment a picture), each shown with its entry's
 * fields and words in the catalog's order; the form's values, and the input they give. Pure; no
 * DOM, no bridge.
 */
import {
  type FieldRule,
  type InputMediaKind,
  type MediaFieldRule,
  mapLyricsTags,
  mediaFieldsOfRules,
  mediaKind,
  type OperationWords,
  songEditChangesNothing,
  TASK_TYPES,
  type TaskTypeEntry,
  widgetOf,
} from '../../../../shared/index.ts';
import { type FormField, formFields } from './catalog-form/form-fields.ts';
import type { ComposedInput, LocalProblem } from './compose-shapes.ts';
import { type SlotField, type SlotState, slotFilled, slotInput } from './compose-slots.ts';

/** The tab's slot for a source of each kind; an operation on a kind without one is not offered. */
const SOURCE_SLOTS: Partial<Record<InputMediaKind, SlotField>> = {
  audio: 'source_audio',
  image: 'source_image',
  video: 'source_video',
};

/**
 * Whether an entry is an operation on a result: it has no tab of its own, and exactly one
 * required media field, of a kind the tab has a slot for.
 */
function sourceOfEntry(entry: TaskTypeEntry): MediaFieldRule | null {
  if (entry.family !== 'other') return null;
  const media = mediaFieldsOfRules(entry.input);
  const required = media.filter((m) => m.required);
  const only = required.length === 1 ? required[0] : undefined;
  return only && SOURCE_SLOTS[only.kind] ? only : null;
}

/**
 * The operations, generated from the catalog in its order: an operation's id is its task type
 * (`extend`, `upscale`), or its entry's id when an earlier operation has that task type.
 */
const OPERATION_ENTRIES: ReadonlyMap<string, TaskTypeEntry> = (() => {
  const found = new Map<string, TaskTypeEntry>();
  for (const entry of TASK_TYPES) {
    if (!sourceOfEntry(entry)) continue;
    found.set(found.has(entry.taskType) ? entry.id : entry.taskType, entry);
  }
  return found;
})();

export const RESULT_OPERATIONS: readonly string[] = [...OPERATION_ENTRIES.keys()];
/** An operation of the From a result tab: an id of RESULT_OPERATIONS. */
export type ResultOperation = string;

/**
 * The picture tools' model: its tasks rework a picture (upscale, background removal, segment,
 * face swaps) and are the Picture tools tab's, the Face swap tab's and the keep-going actions'.
 */
export const PICTURE_TOOLS_MODEL = 'image-toolkit';

/**
 * The Picture tools tab's tools (issue 21, item 8), generated from the catalog: the operations of
 * the picture tools' model that take one picture and make a picture (upscale, remove background,
 * segment). Each also stays an operation of the From a result tab.
 */
export const PICTURE_TOOLS: readonly ResultOperation[] = RESULT_OPERATIONS.filter((op) => {
  const entry = OPERATION_ENTRIES.get(op);
  return (
    entry?.modelName === PICTURE_TOOLS_MODEL &&
    entry.outputKind === 'image' &&
    sourceOfEntry(entry)?.kind === 'image'
  );
});

export function isPictureTool(value: string): boolean {
  return PICTURE_TOOLS.includes(value);
}

/** How a field is edited, from its catalog rule. */
export type ResultFieldKind = 'media' | 'switch' | 'number' | 'lyrics' | 'text';

/** A field's words: its label, and what to say beside it (the catalog's). */
export interface ResultFieldWords {
  label: string;
  /** "Lyrics are…" rather than "is". */
  plural?: boolean;
  /** Put after a number in a range message (`from 0 to 240 seconds`). */
  unit?: string;
  hint?: string;
}

export function entryOf(operation: ResultOperation): TaskTypeEntry {
  const entry = OPERATION_ENTRIES.get(operation);
  if (!entry) throw new Error(`no operation ${operation} in the catalog`);
  return entry;
}

/** The operation of an entry, if it is one. */
export function operationOfEntry(entryId: string): ResultOperation | undefined {
  return [...OPERATION_ENTRIES].find(([, entry]) => entry.id === entryId)?.[0];
}

/** An operation's words: the catalog's, or made from its entry's label and its source's kind. */
export function operationWords(
  operation: ResultOperation,
): Required<OperationWords> & { description: string } {
  const entry = entryOf(operation);
  const kind = mediaKind(sourceKindOf(operation));
  const made = {
    label: entry.label,
    source: `The ${kind.label}`,
    titleWord: entry.label.toLowerCase(),
  };
  const words = { ...made, ...entry.operation };
  const file = kind.words.asked.endsWith(' file') ? kind.words.asked : `${kind.words.asked} file`;
  const from = `a result from your library, ${file}, or its web address`;
  return {
    ...words,
    source: `${words.source}: ${from}.`,
    button: words.button ?? words.label,
    description: entry.description ?? '',
  };
}

export function operationLabel(operation: ResultOperation): string {
  return operationWords(operation).label;
}

export function isResultOperation(value: string): value is ResultOperation {
  return OPERATION_ENTRIES.has(value);
}

/** The kind of source an operation takes (its one required media field). */
export function sourceKindOf(operation: ResultOperation): InputMediaKind {
  return sourceOfEntry(entryOf(operation))?.kind ?? 'image';
}

/** The tab's slot that holds an operation's source. */
export function resultSlotOf(operation: ResultOperation): SlotField {
  return SOURCE_SLOTS[sourceKindOf(operation)] ?? 'source_image';
}

/** The input field an operation sends its source as (`audio`, `style_audio`, `image`). */
export function sourceFieldOf(operation: ResultOperation): string {
  return sourceOfEntry(entryOf(operation))?.field ?? 'image';
}

export function fieldKindOf(rule: FieldRule): ResultFieldKind {
  const widget = widgetOf(rule).kind;
  if (widget === 'media') return 'media';
  if (widget === 'toggle') return 'switch';
  if (widget === 'number' || widget === 'seed' || widget === 'choice') return 'number';
  return widget === 'lyrics' ? 'lyrics' : 'text';
}

/** One field the form shows for an operation. */
export interface ResultField {
  field: string;
  rule: FieldRule;
  kind: ResultFieldKind;
  words: ResultFieldWords;
  /** The catalog example's text, as the placeholder of a text field. */
  example: string | null;
  /** The same field for the generic form's widgets. */
  form: FormField;
}

function wordsOf(rule: FieldRule): ResultFieldWords {
  return {
    label: rule.label,
    ...(rule.plural ? { plural: true } : {}),
    ...(rule.unit ? { unit: rule.unit } : {}),
    ...(rule.help ? { hint: rule.help } : {}),
  };
}

/** The fields an operation's form shows besides its source, in the catalog's order. */
export function resultFields(operation: ResultOperation): ResultField[] {
  const entry = entryOf(operation);
  return formFields(entry, [sourceFieldOf(operation)]).flatMap((form) => {
    const { name: field, rule } = form;
    if (rule.media) return [];
    const example = entry.example[field];
    return [
      {
        field,
        rule,
        kind: fieldKindOf(rule),
        words: wordsOf(rule),
        example: typeof example === 'string' && example !== '' ? example : null,
        form,
      },
    ];
  });
}

/** The words of one of an operation's fields (its source field is the slot's). */
export function resultFieldWords(operation: ResultOperation, field: string): ResultFieldWords {
  const rule = entryOf(operation).input.fields[field];
  return rule ? wordsOf(rule) : { label: field };
}

/** A field's value in the form: text as typed (numbers too), or on/off. */
export type ResultValue = string | boolean;
export type ResultValues = Record<string, ResultValue>;

export interface FromResultForm {
  operation: ResultOperation;
  /** The Picture tools tab's tool: one of PICTURE_TOOLS (its values are `values[tool]`, its picture `source_image`). */
  tool: ResultOperation;
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
  return {
    operation: isResultOperation('extend') ? 'extend' : (RESULT_OPERATIONS[0] ?? ''),
    tool: isPictureTool('upscale') ? 'upscale' : (PICTURE_TOOLS[0] ?? ''),
    values,
  };
}

/** The form as the Picture tools tab composes it: its tool is the operation. */
export function asToolForm(form: FromResultForm): FromResultForm {
  return { ...form, operation: form.tool };
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
  const values = form.values[operation] ?? {};
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
      input[field] = kind === 'lyrics' ? mapLyricsTags(value).text : value;
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
  if (operation === 'edit' && local.length === 0) {
    // an edit that keeps the style and the words would be billed for the same song
    const nothing = songEditChangesNothing(input);
    const given = (input.edit_style_prompt ?? input.edit_lyrics) !== undefined;
    if (nothing) local.push({ field: 'edit_style_prompt', message: nothing, missing: !given });
  }
  return { model: entry.modelName, taskType: entry.taskType, input, local, readable: true };
}

/** The screen order of the tab's fields for an operation: the choice, the source, then the catalog's. */
export function resultFieldOrder(operation: ResultOperation): string[] {
  const fields = resultFields(operation).flatMap(({ field, kind }) =>
    kind === 'lyrics' ? [field, `${field}-markers`] : [field],
  );
  return ['operation', resultSlotOf(operation), ...fields];
}
