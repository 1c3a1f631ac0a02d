/**
 * Removes a secret (the API key) from any text or value that is about to be shown, logged or
 * kept: error messages, stacks, body excerpts and echoed payloads.
 */

export const REDACTED = '[redacted]';

export interface SecretScrubber {
  /** The text with every known spelling of the secret replaced by `[redacted]`. */
  text(value: string): string;
  /** A deep copy of a parsed JSON value with the secret removed from every string in it. */
  value(value: unknown): unknown;
}

/**
 * Secrets shorter than this are not scrubbed: a two-letter "key" would turn every word that
 * contains it into `[redacted]` (and `task_id` into `tas[redacted]_id`), and a key that short
 * protects nothing anyway. Real keys are long random strings; the app asks for at least 8.
 */
export const MIN_SCRUBBED_SECRET_LENGTH = 6;

/** The spellings of a secret that an echo may contain: as is, JSON-escaped and URL-encoded. */
function spellingsOf(secret: string): string[] {
  if (secret.length < MIN_SCRUBBED_SECRET_LENGTH) return [];
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

function scrubText(value: string, spellings: readonly string[]): string {
  let out = value;
  for (const form of spellings) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

function scrubValue(value: unknown, spellings: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, spellings);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, spellings));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // field names are the service's vocabulary, never an echo of the key: keep them as they are
    for (const [key, item] of Object.entries(value)) out[key] = scrubValue(item, spellings);
    return out;
  }
  return value;
}

export function createSecretScrubber(secret: string): SecretScrubber {
  const spellings = spellingsOf(secret);
  return {
    text: (value) => scrubText(value, spellings),
    value: (value) => scrubValue(value, spellings),
  };
}
