/**
 * Whether a task the service holds could be the create of a local task whose answer was lost:
 * its model and task type (when the record says them) and its echoed `input` against the
 * request the library keeps. The service's echo may add fields (defaults) and drop some, and
 * ace-step echoes `negative_prompt` as `negative_style_prompt`: those are tolerated. Media sent
 * from the library (an upload's address or Base64) is not kept as sent, so it is not compared;
 * a URL input is compared as given.
 */
import type { RemoteTask, Task } from '../../../shared/index.ts';

/** Fields the service echoes under another name (field notes). */
const ECHO_NAMES: Readonly<Record<string, string>> = {
  negative_prompt: 'negative_style_prompt',
  negative_style_prompt: 'negative_prompt',
};

/** A model id without its vendor, lower-cased: a vendor-prefixed id and the bare model name are one. */
function modelName(model: string): string {
  return model
    .slice(model.lastIndexOf('/') + 1)
    .trim()
    .toLowerCase();
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** Equal as JSON values, a number and its text (4 and "4") or a boolean and its text being one. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' || typeof b === 'number' || typeof a === 'boolean' || typeof b === 'boolean') {
    return (typeof a === 'string' || typeof b === 'string') && String(a).trim() === String(b).trim();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameValue(item, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const bo = b as Record<string, unknown>;
    return Object.entries(a as Record<string, unknown>).every(
      ([key, value]) => isEmpty(value) || isEmpty(bo[key]) || sameValue(value, bo[key]),
    );
  }
  return false;
}

function echoedInputOf(remote: RemoteTask): Record<string, unknown> | null {
  let input: unknown = remote.input;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return null;
    }
  }
  return input && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : null;
}

/** True when `remote` could be the create of `task` (see the file's note); false when unsure. */
export function couldBeCreateOf(
  task: Pick<Task, 'model' | 'taskType' | 'request' | 'inputs'>,
  remote: RemoteTask,
): boolean {
  if (remote.model && modelName(remote.model) !== modelName(task.model)) return false;
  if (remote.taskType && remote.taskType.trim().toLowerCase() !== task.taskType.toLowerCase()) return false;
  const echoed = echoedInputOf(remote);
  // no echo to compare: it cannot be told apart from any other task
  if (!echoed) return false;
  const fromLibrary = new Set(task.inputs.filter((i) => i.source !== 'url').map((i) => i.field));
  let compared = 0;
  for (const [field, sent] of Object.entries(task.request.input)) {
    if (fromLibrary.has(field)) continue;
    const other = ECHO_NAMES[field];
    const got = Object.hasOwn(echoed, field) ? echoed[field] : other ? echoed[other] : undefined;
    // dropped by the service, or empty on both sides
    if (got === undefined || got === null || (isEmpty(sent) && isEmpty(got))) continue;
    if (!sameValue(sent, got)) return false;
    compared += 1;
  }
  return compared > 0 || fromLibrary.size > 0 || Object.keys(task.request.input).length === 0;
}
