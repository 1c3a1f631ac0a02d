/**
 * A problem of a field in the field's own words (its catalog label, unit and number): the one
 * wording every form shows beside a field and in the Queue bar, whichever form it is (a tab of
 * its own, From a result, the generated form). The wire keeps `InputProblem.message`, the
 * service's own wording (`input.duration must be between 1 and 240, got 500`).
 */
import type { FieldRule, FieldType, InputProblem } from './input-fields.ts';

/** What a value of a type is, as a person says it. */
export const TYPE_WORDS: Readonly<Record<FieldType, string>> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
};

/** `from 1 to 240 seconds`, `at least 0`, `at most 4`. */
export function rangeWords(min: number | null, max: number | null, unit = ''): string {
  if (min !== null && max !== null) return `from ${min} to ${max}${unit}`;
  if (min !== null) return `at least ${min}${unit}`;
  return `at most ${max ?? ''}${unit}`;
}

const count = (n: number) => n.toLocaleString('en-US');

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The words of a field: its rule's, or its name when the catalog does not know it. */
export type FieldWords = Pick<FieldRule, 'label' | 'plural' | 'unit'>;

/** A problem of a field, named by its label: `Duration must be from 1 to 240 seconds`. */
export function problemWords(p: InputProblem, words: FieldWords | undefined): string {
  const { label, plural, unit } = words ?? { label: p.field };
  const is = plural ? 'are' : 'is';
  const reason = p.reason;
  switch (reason?.kind) {
    case 'required':
      return `${label} ${is} needed`;
    case 'type':
      return `${label} must be ${TYPE_WORDS[reason.expected]}`;
    case 'range':
      return `${label} must be ${rangeWords(reason.min, reason.max, unit)}`;
    case 'too-long':
      return `${label} ${is} ${count(reason.length)} characters; the limit is ${count(reason.max)}`;
    case 'url-extension':
      return `${label}: the URL must end in ${reason.allowed.join(', ')}`;
    case 'unknown-field':
      return `${label} is not a field of this task (its fields: ${reason.known.join(', ')})`;
    default:
      return sentence(p.message.replace(/\binput\./g, ''));
  }
}
