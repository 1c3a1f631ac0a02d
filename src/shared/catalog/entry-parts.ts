/**
 * How the catalog's entries are written: what the entries of one model share, the builder of an
 * entry of the Other tab (checked loosely, no price unless given), and the cross-field rules
 * entries use. Read by task-types.ts and the entry files beside it.
 */

import type { TaskTypeEntry } from './entry-types.ts';
import type { InputRules } from './input-fields.ts';

/** What the task types of one model share: its name, what they yield and (ace-step) how long they take. */
export const aceStepAudio = {
  modelName: 'ace-step',
  historyFamily: 'llm',
  makes: 'song',
  outputKind: 'audio',
  expectedSeconds: 60,
} as const;
export const imageToolkit = {
  modelName: 'image-toolkit',
  historyFamily: 'image_toolkit',
  outputKind: 'image',
} as const;

/** An entry as written below: its id is made from its model name and task type. */
export type EntryParts = Omit<TaskTypeEntry, 'id'>;

export type OtherTaskTypeParts = Omit<
  EntryParts,
  'family' | 'makes' | 'price' | 'sandboxOnly' | 'input' | 'sizeParameter'
> &
  Partial<
    Pick<
      TaskTypeEntry,
      | 'makes'
      | 'price'
      | 'sandboxOnly'
      | 'sizeParameter'
      | 'outputList'
      | 'outputFields'
      | 'shortName'
      | 'historyFamily'
    >
  > & {
    fields: InputRules['fields'];
    check?: InputRules['check'];
  };

/**
 * The entry of a task type of the Other tab: its input is checked loosely (fields beyond these
 * pass), and unless given it makes something `other`, has no published price, the real service serves it and no input
 * scales its duration.
 */
export function otherTaskType(parts: OtherTaskTypeParts): EntryParts {
  return {
    modelName: parts.modelName,
    taskType: parts.taskType,
    family: 'other',
    makes: parts.makes ?? 'other',
    label: parts.label,
    ...(parts.description ? { description: parts.description } : {}),
    ...(parts.operation ? { operation: parts.operation } : {}),
    ...(parts.deterministic ? { deterministic: true } : {}),
    ...(parts.transparentOutput ? { transparentOutput: true } : {}),
    outputKind: parts.outputKind,
    ...(parts.outputList ? { outputList: parts.outputList } : {}),
    ...(parts.outputFields ? { outputFields: parts.outputFields } : {}),
    ...(parts.shortName ? { shortName: parts.shortName } : {}),
    ...(parts.historyFamily ? { historyFamily: parts.historyFamily } : {}),
    expectedSeconds: parts.expectedSeconds,
    price: parts.price ?? null,
    sandboxOnly: parts.sandboxOnly ?? false,
    input: { strict: false, fields: parts.fields, ...(parts.check ? { check: parts.check } : {}) },
    sizeParameter: parts.sizeParameter ?? null,
    example: parts.example,
  };
}

/** Flux: width x height at most 1024 x 1024 (field notes). */
export const FLUX_MAX_PIXELS = 1_048_576;

/** A cross-field rule: `width` x `height`, when both are given, at most `max` pixels. */
export function pixelsAtMost(input: Record<string, unknown>, max: number) {
  const { width, height } = input;
  if (typeof width !== 'number' || typeof height !== 'number' || width * height <= max) return null;
  const most = max.toLocaleString('en-US');
  const pixels = (width * height).toLocaleString('en-US');
  return {
    field: 'width',
    message: `input.width x input.height must be at most ${most} pixels, got ${width} x ${height} = ${pixels}`,
    words: `Width x height must be at most ${most} pixels (${width} x ${height} is ${pixels})`,
  };
}

export function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
