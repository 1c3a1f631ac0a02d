/** Checks fault options given as JSON (the --faults flag and PUT /_sandbox/faults) key by key. */
import { TASK_TYPES } from '../shared/catalog/index.ts';

const FAULT_NUMBER_KEYS = [
  'seed',
  'serverErrorRate',
  'rateLimitRate',
  'retryAfterSeconds',
  'slowRate',
  'slowMs',
  'resetBeforeBodyRate',
  'resetAfterBodyRate',
  'malformedJsonRate',
  'taskFailureRate',
  'earlyExpiryRate',
  'earlyExpiryMs',
  'bodyRefusalRate',
  'bodyRefusalCode',
] as const;

/** Every other key, with the check of its value (a problem, or null). */
const OTHER_KEYS: Readonly<Record<string, (value: unknown) => string | null>> = {
  applyTo: (v) =>
    v === 'all' || v === 'create' || v === 'fetch' ? null : "applyTo must be 'all', 'create' or 'fetch'",
  bodyRefusalMessage: (v) =>
    typeof v === 'string' && v.trim() !== '' ? null : 'bodyRefusalMessage must be a non-empty string',
  planRefusedTaskTypes: taskTypeListProblem,
  uploadRefused: (v) => (typeof v === 'boolean' ? null : 'uploadRefused must be true or false'),
  noTaskHistory: (v) => (typeof v === 'boolean' ? null : 'noTaskHistory must be true or false'),
};

const KNOWN = new Set<string>([...FAULT_NUMBER_KEYS, ...Object.keys(OTHER_KEYS)]);

/** What is wrong with `value` as fault options (naming the key), or null when nothing is. */
export function faultOptionsProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON object';
  for (const [key, v] of Object.entries(value)) {
    if (!KNOWN.has(key)) return `unknown key '${key}' (known: ${[...KNOWN].join(', ')})`;
    const check = OTHER_KEYS[key];
    const problem = check ? check(v) : numberProblem(key, v);
    if (problem) return problem;
  }
  return null;
}

/** A number key: finite; a rate between 0 and 1; a refusal code an error status. */
function numberProblem(key: string, v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return `${key} must be a number`;
  if (key.endsWith('Rate') && (v < 0 || v > 1)) return `${key} must be between 0 and 1, got ${v}`;
  if (key === 'bodyRefusalCode' && !(Number.isInteger(v) && v >= 400 && v <= 599)) {
    return `bodyRefusalCode must be an integer 400-599, got ${v}`;
  }
  return null;
}

/** planRefusedTaskTypes: an array of task types the catalog knows. */
function taskTypeListProblem(v: unknown): string | null {
  if (!Array.isArray(v)) return 'planRefusedTaskTypes must be an array of task types';
  for (const item of v) {
    if (typeof item !== 'string' || !TASK_TYPES.some((e) => e.taskType === item)) {
      const known = [...new Set(TASK_TYPES.map((e) => e.taskType))];
      return `planRefusedTaskTypes: unknown task type ${JSON.stringify(item)} (known: ${known.join(', ')})`;
    }
  }
  return null;
}
