/**
 * A previous result used as an input: a draft's media field holds `{ "$output": { taskId, index } }`
 * and main resolves it when the task is queued (the service's URL while it lives, else the library
 * file). The composer checks such a field as given (it names a saved result), not as text. Pure.
 */
import { type InputRules, mediaFieldsOfRules } from '../../../../shared/index.ts';

/** Which output of which task. */
export interface OutputRef {
  taskId: string;
  index: number;
}

/** The value a media field of a draft holds for a result. */
export interface OutputRefValue {
  $output: OutputRef;
}

export function outputRefValue(ref: OutputRef): OutputRefValue {
  return { $output: { taskId: ref.taskId, index: ref.index } };
}

export function isOutputRefValue(value: unknown): value is OutputRefValue {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const ref = (value as { $output?: unknown }).$output;
  if (!ref || typeof ref !== 'object') return false;
  const { taskId, index } = ref as { taskId?: unknown; index?: unknown };
  return typeof taskId === 'string' && taskId !== '' && Number.isInteger(index) && (index as number) >= 0;
}

/** What the catalog's rules see in a media field holding a result: a present, well-formed value. */
const RESULT_STAND_IN = 'library-result';

/**
 * The input as the catalog's rules should check it: each media field holding a result reads as a
 * given value (its bytes are checked by main when it resolves it), every other field as it is.
 */
export function inputForCheck(input: Record<string, unknown>, rules: InputRules): Record<string, unknown> {
  const media = mediaFieldsOfRules(rules).filter((m) => isOutputRefValue(input[m.field]));
  if (media.length === 0) return input;
  const copy = { ...input };
  for (const m of media) copy[m.field] = RESULT_STAND_IN;
  return copy;
}
