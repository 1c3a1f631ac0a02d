/**
 * The words of the hand-made forms' fields (Song, Face swap, Image edit): each field's label and
 * help are its catalog entry's, so a hand-made form, the generated form of the same entry, the
 * CLI's help and every message about the field say the same words. Pure.
 */
import { entryById, type FieldRule, inputProblems, problemWords } from '../../../../shared/index.ts';

/** The catalog's rule (label, help, unit…) of `field` of the entry `entryId`. */
export function catalogField(entryId: string, field: string): FieldRule {
  const rule = entryById(entryId)?.input.fields[field];
  if (!rule) throw new Error(`the catalog has no field ${field} in ${entryId}`);
  return rule;
}

/**
 * What a hand-made form says of the number it read from a field's text, in the rule's one
 * wording (`Steps must be a whole number`, `Steps must be from 1 to 100`); null when the rule
 * takes it. `bad`: the text is not a number of the field's type.
 */
export function numberProblemWords(entryId: string, field: string, value: number | 'bad'): string | null {
  const rule = catalogField(entryId, field);
  if (value === 'bad') {
    const reason = { kind: 'type', expected: rule.type, got: 'string' } as const;
    return problemWords({ field, message: '', reason }, rule);
  }
  const problem = inputProblems({ [field]: value }, { strict: false, fields: { [field]: rule } }, '')[0];
  return problem ? problemWords(problem, rule) : null;
}
