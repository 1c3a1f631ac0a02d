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

/** A regular-expression alternative that matches one character of the secret in any spelling. */
function characterPattern(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(4, '0');
  const forms = [
    char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'),
    // JSON's \uXXXX escape, either case of hex digits
    `\\\\u${hex.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`)}`,
  ];
  // JSON's short escapes: \/ \" \\
  if (char === '/' || char === '"' || char === '\\') forms.push(`\\\\\\${char}`);
  // URL encoding
  if (encodeURIComponent(char) !== char) {
    const pct = encodeURIComponent(char).slice(1);
    forms.push(`%${pct.replace(/[A-F]/g, (d) => `[${d}${d.toLowerCase()}]`)}`);
  }
  return forms.length === 1 ? (forms[0] as string) : `(?:${forms.join('|')})`;
}

/**
 * One pattern matching every spelling of a secret an echo may contain: as is, with any of its
 * characters JSON-escaped (`\u0041`, `\/`) or URL-encoded (`%2F`), in any mix.
 */
function patternOf(secret: string): RegExp | null {
  if (secret.length < MIN_SCRUBBED_SECRET_LENGTH) return null;
  return new RegExp([...secret].map(characterPattern).join(''), 'g');
}

function scrubText(value: string, pattern: RegExp | null): string {
  if (!pattern) return value;
  pattern.lastIndex = 0;
  return value.replace(pattern, REDACTED);
}

function scrubValue(value: unknown, pattern: RegExp | null): unknown {
  if (typeof value === 'string') return scrubText(value, pattern);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, pattern));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // field names are the service's vocabulary, never an echo of the key: keep them as they are
    for (const [key, item] of Object.entries(value)) out[key] = scrubValue(item, pattern);
    return out;
  }
  return value;
}

export function createSecretScrubber(secret: string): SecretScrubber {
  const pattern = patternOf(secret);
  return {
    text: (value) => scrubText(value, pattern),
    value: (value) => scrubValue(value, pattern),
  };
}
