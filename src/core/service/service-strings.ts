/**
 * The one place a string the service sent is made safe to keep, show and log: terminal control
 * sequences and control characters are removed first (an OSC 52 clipboard write, a title, an
 * erase; see src/shared/text), then every spelling of the API key (secret-scrubber.ts). In that
 * order, so a key the service splits with a control character is still found. Every answer is
 * read through here (response-mapping.ts), so the store, the window, the logs and the CLI only
 * ever get the result.
 */
import { withoutControlSequences } from '../../shared/index.ts';
import type { SecretScrubber } from './secret-scrubber.ts';

/** `text` from the service, without control sequences and without the key. */
export function safeServiceText(text: string, scrubber: SecretScrubber): string {
  return scrubber.text(withoutControlSequences(text));
}

/**
 * A deep copy of a parsed answer with every string made safe (safeServiceText). Field names are
 * the service's vocabulary, read by the normaliser, never shown: they are kept as they are.
 */
export function safeServiceValue(value: unknown, scrubber: SecretScrubber): unknown {
  if (typeof value === 'string') return safeServiceText(value, scrubber);
  if (Array.isArray(value)) return value.map((item) => safeServiceValue(item, scrubber));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defined, not assigned: a `__proto__` field stays a field
      Object.defineProperty(out, key, {
        value: safeServiceValue(item, scrubber),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
