/** Checks fault options given as JSON (the --faults flag and PUT /_sandbox/faults) key by key. */
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
] as const;

const KNOWN = new Set<string>([...FAULT_NUMBER_KEYS, 'applyTo']);

/** What is wrong with `value` as fault options (naming the key), or null when nothing is. */
export function faultOptionsProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON object';
  for (const [key, v] of Object.entries(value)) {
    if (!KNOWN.has(key)) return `unknown key '${key}' (known: ${[...KNOWN].join(', ')})`;
    if (key === 'applyTo') {
      if (v !== 'all' && v !== 'create' && v !== 'fetch') return "applyTo must be 'all', 'create' or 'fetch'";
    } else if (typeof v !== 'number' || !Number.isFinite(v)) {
      return `${key} must be a number`;
    } else if (key.endsWith('Rate') && (v < 0 || v > 1)) {
      return `${key} must be between 0 and 1, got ${v}`;
    }
  }
  return null;
}
