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

/** The spellings of a secret that an echo may contain: as is, JSON-escaped and URL-encoded. */
function spellingsOf(secret: string): string[] {
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
    for (const [key, item] of Object.entries(value))
      out[scrubText(key, spellings)] = scrubValue(item, spellings);
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
