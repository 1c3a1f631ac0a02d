/**
 * A problem of a field in the field's own words (its catalog label, unit and number, or the
 * words its rule gives): the one wording of every field rule. The composer shows it beside the
 * field and in the Queue bar, whichever form it is (a tab of its own, From a result, the
 * generated form); the engine refuses a draft with it (after the field's key: `duration:
 * Duration must be from 1 to 240 seconds`), so `media-task create` says it too. Only the
 * sandbox, a stand-in for the real service, answers with `InputProblem.message`, the
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
export type FieldWords = Pick<FieldRule, 'label' | 'plural' | 'unit' | 'missing'>;

/**
 * A problem of a field, named by its label: `Duration must be from 1 to 240 seconds`; the words
 * of a cross-field rule, or of a required field that has its own (`missing`).
 */
export function problemWords(p: InputProblem, words: FieldWords | undefined): string {
  if (p.words) return p.words;
  const { label, plural, unit, missing } = words ?? { label: p.field };
  const is = plural ? 'are' : 'is';
  const reason = p.reason;
  switch (reason?.kind) {
    case 'required':
      return missing ?? `${label} ${is} needed`;
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

/**
 * What a required field says when it is empty, in its one wording: its own `missing` words
 * ("Add the song to extend"), else `<label> is needed`. The composer says it beside the slot or
 * field, the engine after the key (`audio: Add the song to extend`), the CLI after the option.
 */
export function missingWords(field: string, words: FieldWords | undefined): string {
  return problemWords({ field, message: `input.${field} is required`, reason: { kind: 'required' } }, words);
}

/**
 * The engine's (and so the CLI's) message of a problem: the field's key, then the one wording
 * (`guidance_scale: Guidance must be from 1.5 to 5`); an unknown key is named by the words.
 */
export function keyedProblemWords(p: InputProblem, words: FieldWords | undefined): string {
  const said = problemWords(p, words);
  return words ? `${p.field}: ${said}` : said;
}
