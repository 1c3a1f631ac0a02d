/** How a task's request parameters are shown in the detail view. Pure. */

const LONG_TEXT = 160;
const BASE64_BODY = /^[A-Za-z0-9+/=\s]+$/;

function approxBytesOfBase64(length: number): string {
  const bytes = Math.floor((length * 3) / 4);
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Shortens Base64 and data URIs to `data:image/png;base64,iVBORw0K… (1.2 MB Base64)`. */
export function shortenValue(text: string): string {
  const dataUri = /^data:([^;,]*)(;base64)?,/.exec(text);
  if (dataUri) {
    const body = text.slice(dataUri[0].length);
    return `${dataUri[0]}${body.slice(0, 12)}… (${approxBytesOfBase64(body.length)} Base64)`;
  }
  if (text.length > LONG_TEXT && BASE64_BODY.test(text.slice(0, 4096))) {
    return `${text.slice(0, 16)}… (${approxBytesOfBase64(text.length)} Base64)`;
  }
  return text;
}

/** One parameter's value as display text: strings shortened, library files by path, others as JSON. */
export function displayParameter(value: unknown): string {
  if (typeof value === 'string') return shortenValue(value);
  if (value && typeof value === 'object' && !Array.isArray(value) && '$file' in value) {
    const file = (value as { $file: unknown }).$file;
    return `library file ${typeof file === 'string' ? file : JSON.stringify(file)}`;
  }
  if (value === undefined) return '';
  const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? shortenValue(v) : v));
  return json ?? String(value);
}

/** Parameter rows in a stable order (as given). */
export function parameterRows(input: Record<string, unknown>): { name: string; value: string }[] {
  return Object.entries(input).map(([name, value]) => ({ name, value: displayParameter(value) }));
}
