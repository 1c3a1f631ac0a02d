/**
 * The cap on the size of a draft's input: its JSON text, without the media fields that hold a
 * string (a local path, a URL or Base64, which have caps of their own in src/core/inputs).
 * The renderer's JSON editor and the main process's checks use the same rule and words.
 */

import { catalogEntry } from './entry-lookup.ts';
import { mediaFieldsOfRules } from './input-fields.ts';

/** Most bytes (UTF-8) of a draft's input as JSON text, media fields not counted. */
export const DRAFT_INPUT_MAX_BYTES = 1_000_000;

/** UTF-8 length of a string, counted without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The model and task type of a draft, which name its catalog entry. */
export interface DraftPair {
  model: string;
  taskType: string;
}

/**
 * Bytes of the input as compact JSON, leaving out the entry's media fields that hold a
 * string. Infinity when the input cannot be written as JSON.
 */
export function draftInputBytes(input: Record<string, unknown>, pair: DraftPair): number {
  const entry = catalogEntry(pair.model, pair.taskType);
  const media = new Set(entry ? mediaFieldsOfRules(entry.input).map((rule) => rule.field) : []);
  const counted = Object.fromEntries(
    Object.entries(input).filter(([field, value]) => !(media.has(field) && typeof value === 'string')),
  );
  try {
    return utf8Length(JSON.stringify(counted) ?? '');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2).replace(/\.?0+$/, '')} MB`;
}

/**
 * Why a draft's input is too large, as the rest of a sentence that starts with the field
 * ("input …"), or null when it fits.
 */
export function draftInputSizeProblem(input: Record<string, unknown>, pair: DraftPair): string | null {
  const bytes = draftInputBytes(input, pair);
  if (bytes <= DRAFT_INPUT_MAX_BYTES) return null;
  const limit = `${megabytes(DRAFT_INPUT_MAX_BYTES)} (${DRAFT_INPUT_MAX_BYTES.toLocaleString('en-US')} bytes)`;
  if (!Number.isFinite(bytes)) return `cannot be written as JSON; the limit is ${limit}`;
  return `is ${megabytes(bytes)} of JSON text (${bytes.toLocaleString('en-US')} bytes); the limit is ${limit}, media fields not counted`;
}
