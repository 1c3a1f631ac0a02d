/** How a task's request parameters are shown in the detail view. Pure. */
import type { FieldRule } from '../../../shared/index.ts';

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

/** One parameter as the detail shows it: its input name, its words, and its value as text. */
export interface ParameterRow {
  name: string;
  /** The catalog field's label (`Flow shift`), or the name when the catalog does not know it. */
  label: string;
  value: string;
}

/** Parameter rows in a stable order (as given), named by the entry's field words when it has them. */
export function parameterRows(
  input: Record<string, unknown>,
  fields: Readonly<Record<string, Pick<FieldRule, 'label'>>> = {},
): ParameterRow[] {
  return Object.entries(input).map(([name, value]) => ({
    name,
    label: fields[name]?.label ?? name,
    value: displayParameter(value),
  }));
}
