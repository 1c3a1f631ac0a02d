/**
 * Base64 media values as the service reads them (an image or audio sent inside a request, or an
 * upload's file): a data URI or raw Base64, in the standard or the URL-safe alphabet, padding
 * optional, whitespace skipped; any other character, bad padding or an impossible length makes
 * the value unreadable (null), not an error. The app checks its own inputs by a stricter rule
 * (the standard alphabet only, each problem named).
 */

const DATA_URI = /^data:([^,]*),/i;
const ALPHABET = /^[A-Za-z0-9+/_-]*$/;

/**
 * Decodes a data URI (`data:image/png;base64,...`) or a raw Base64 string. Returns null when the
 * text is not valid Base64 (a character outside the alphabet, bad padding, an impossible length)
 * or decodes to nothing.
 */
export function decodeMediaBase64(value: string): Buffer | null {
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
