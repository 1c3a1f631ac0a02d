/**
 * Strict Base64 (RFC 4648 standard alphabet) and `data:` URIs. Strict means: any character
 * outside A-Z a-z 0-9 + / is an error, and so is misplaced or excess "=" padding. Two leniencies,
 * both common in real inputs: ASCII whitespace (space, tab, CR, LF) is skipped, so line-wrapped
 * Base64 is accepted, and the final "=" padding may be left out. Non-zero bits in the last
 * character's unused low bits are not checked.
 */

export class Base64DecodeError extends Error {
  override name = 'Base64DecodeError';
}

export function decodeBase64Strict(text: string): Uint8Array {
  const { dataChars, padding } = checkBase64(text);
  if (padding > 0 && (dataChars + padding) % 4 !== 0) {
    throw new Base64DecodeError('invalid Base64: the "=" padding does not fit the length');
  }
  if (dataChars % 4 === 1)
    throw new Base64DecodeError('invalid Base64: truncated (one character too many or too few)');
  const bytes = Buffer.from(text, 'base64');
  const expected = Math.floor((dataChars * 3) / 4);
  if (bytes.length !== expected) throw new Base64DecodeError('invalid Base64: could not be decoded');
  return bytes;
}

/** True when every character is in the Base64 alphabet, "=" or whitespace. */
export function hasOnlyBase64Characters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isAlphabet(c) && c !== EQUALS && !isWhitespace(c)) return false;
  }
  return true;
}

/** Characters other than whitespace; cheap length estimate for a Base64 candidate. */
export function countNonWhitespace(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (!isWhitespace(text.charCodeAt(i))) count++;
  return count;
}

export interface DataUri {
  /** Lower-cased media type as declared, '' when none was given. */
  mediaType: string;
  /** The Base64 payload after the comma. */
  base64: string;
}

/** Splits `data:<type>[;param...];base64,<payload>`. Only Base64 payloads are accepted. */
export function parseDataUri(value: string): DataUri {
  if (!/^data:/i.test(value)) throw new Base64DecodeError('not a data URI');
  const comma = value.indexOf(',');
  if (comma < 0) throw new Base64DecodeError('data URI has no comma before its data');
  const params = value.slice(5, comma).split(';');
  if (params.length < 2 || params.at(-1)?.trim().toLowerCase() !== 'base64') {
    throw new Base64DecodeError('data URI is not Base64-encoded (";base64," missing)');
  }
  return { mediaType: (params[0] ?? '').trim().toLowerCase(), base64: value.slice(comma + 1) };
}

const EQUALS = 0x3d;

function checkBase64(text: string): { dataChars: number; padding: number } {
  let dataChars = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) continue;
    if (c === EQUALS) {
      padding++;
      if (padding > 2) throw new Base64DecodeError(`invalid Base64: too much "=" padding at position ${i}`);
      continue;
    }
    if (!isAlphabet(c)) {
      throw new Base64DecodeError(
        `invalid Base64: unexpected character ${quoteChar(text, i)} at position ${i}`,
      );
    }
    if (padding > 0)
      throw new Base64DecodeError(`invalid Base64: data after the "=" padding, at position ${i}`);
    dataChars++;
  }
  return { dataChars, padding };
}

function quoteChar(text: string, at: number): string {
  const char = String.fromCodePoint(text.codePointAt(at) ?? 0);
  return JSON.stringify(char);
}

function isAlphabet(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2b ||
    c === 0x2f
  );
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
