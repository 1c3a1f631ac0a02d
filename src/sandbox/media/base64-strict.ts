/** Strict Base64 decoding: standard or URL-safe alphabet, optional padding, whitespace tolerated. */

const DATA_URI = /^data:([^,]*),/i;
const ALPHABET = /^[A-Za-z0-9+/_-]*$/;

/**
 * Decodes a data URI (`data:image/png;base64,...`) or a raw Base64 string. Returns null when the
 * text is not valid Base64 (a character outside the alphabet, bad padding, an impossible length)
 * or decodes to nothing.
 */
export function decodeBase64Strict(value: string): Buffer | null {
  let text = value.trim();
  const dataUri = DATA_URI.exec(text);
  if (dataUri) {
    if (!/;base64$/i.test(dataUri[1]!.trim())) return null;
    text = text.slice(dataUri[0].length);
  }
  text = text.replace(/\s+/g, '');
  const padding = /=*$/.exec(text)![0].length;
  const body = text.slice(0, text.length - padding);
  if (body.length === 0 || padding > 2 || !ALPHABET.test(body)) return null;
  if (padding > 0 && text.length % 4 !== 0) return null;
  if (body.length % 4 === 1) return null;
  return Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Whether a text is a `data:` URI (any media type). */
export function isDataUri(value: string): boolean {
  return /^\s*data:/i.test(value);
}
