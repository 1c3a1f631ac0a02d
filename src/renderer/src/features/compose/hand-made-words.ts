/**
 * The words of the hand-made forms' fields (Song, Face swap, Image edit): each field's label and
 * help are its catalog entry's, so a hand-made form, the generated form of the same entry, the
 * CLI's help and every message about the field say the same words. Pure.
 */
import { entryById, type FieldRule } from '../../../../shared/index.ts';

/** The catalog's rule (label, help, unit…) of `field` of the entry `entryId`. */
export function catalogField(entryId: string, field: string): FieldRule {
  const rule = entryById(entryId)?.input.fields[field];
  if (!rule) throw new Error(`the catalog has no field ${field} in ${entryId}`);
  return rule;
}
