/**
 * A previous result used as an input: a draft's media field holds `{ "$output": { taskId, index } }`
 * (src/shared/task/task-lineage.ts) and main resolves it when the task is queued (the service's URL
 * while it is trusted, else the library file). The composer checks such a field as given (it names
 * a saved result), not as text. Pure.
 */
import { type InputRules, mediaFieldsOfRules, outputRefOf } from '../../../../shared/index.ts';

/** What the catalog's rules see in a media field holding a result: a present, well-formed value. */
const RESULT_STAND_IN = 'library-result';

/**
 * The input as the catalog's rules should check it: each media field holding a well-formed result
 * reads as a given value (its bytes are checked by main when it resolves it), every other field as
 * it is.
 */
export function inputForCheck(input: Record<string, unknown>, rules: InputRules): Record<string, unknown> {
  const media = mediaFieldsOfRules(rules).filter((m) => outputRefOf(input[m.field]) !== null);
  if (media.length === 0) return input;
  const copy = { ...input };
  for (const m of media) copy[m.field] = RESULT_STAND_IN;
  return copy;
}
