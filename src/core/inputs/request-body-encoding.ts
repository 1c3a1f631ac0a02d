/**
 * Streams the JSON body of a create-task request whose file inputs are sent inline as Base64,
 * reading each file in fixed-size chunks, so memory stays flat however large the file is.
 *
 * Encoding choice: a file input's value is RAW Base64 (RFC 4648 standard alphabet, with "="
 * padding, no line breaks) and carries NO `data:<mime>;base64,` prefix. The spec (2.2, 2.4)
 * asks for "a URL or a Base64 string"; a bare Base64 string is what that says, and the service
 * sniffs the type from the bytes. Everything else in the request is serialised by
 * JSON.stringify, so the concatenated output is byte for byte
 * `JSON.stringify({ ...request, input: { ...request.input, [field]: base64(file) } })`.
 */

import { randomUUID } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { base64Chunks } from './base64-stream.ts';

export interface CreateRequestBody {
  model: string;
  task_type: string;
  input: Record<string, unknown>;
  config?: unknown;
}

/** Input field name -> local file path whose bytes become that field's Base64 value. */
export type FileInputPaths = Record<string, string>;

export interface EncodeOptions {
  /** Bytes read per chunk. Any size works; a multiple of 3 means no bytes are carried between chunks. Default 65,535. */
  chunkBytes?: number;
}

/** 64 KiB rounded down to a multiple of 3, so every chunk but the last encodes without padding. */
const DEFAULT_CHUNK_BYTES = 65_535;

export function encodeCreateRequestBody(
  request: CreateRequestBody,
  fileInputs: FileInputPaths,
  options: EncodeOptions = {},
): AsyncIterable<Uint8Array> {
  const template = bodyTemplate(request, Object.keys(fileInputs));
  const chunkBytes = Math.max(1, Math.floor(options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
  return streamBody(template, fileInputs, chunkBytes);
}

/** Exact byte length of what encodeCreateRequestBody yields, from the files' sizes (stat, no read). */
export async function encodedBodyLength(
  request: CreateRequestBody,
  fileInputs: FileInputPaths,
): Promise<number> {
  const entries = Object.entries(fileInputs);
  const sizes = await Promise.all(
    entries.map(async ([field, path]) => [field, (await stat(path)).size] as const),
  );
  return encodedBodyLengthFromSizes(request, Object.fromEntries(sizes));
}

/** As encodedBodyLength, with the file sizes in bytes given by field. */
export function encodedBodyLengthFromSizes(
  request: CreateRequestBody,
  fileSizes: Record<string, number>,
): number {
  const template = bodyTemplate(request, Object.keys(fileSizes));
  let length = 0;
  for (const text of template.texts) length += Buffer.byteLength(text, 'utf8');
  for (const field of template.fields) length += base64Length(fileSizes[field] ?? 0);
  return length;
}

export function base64Length(byteCount: number): number {
  return Math.ceil(byteCount / 3) * 4;
}

/** The JSON text split around the file values: texts[0] fields[0] texts[1] ... texts[n]. */
interface BodyTemplate {
  texts: string[];
  fields: string[];
}

/**
 * Serialises the request with a unique placeholder string in each file field, then splits the
 * text at the placeholders (which JSON.stringify writes unescaped, being plain ASCII).
 */
function bodyTemplate(request: CreateRequestBody, fields: string[]): BodyTemplate {
  const nonce = randomUUID();
  const placeholders = new Map(fields.map((field, i) => [`@@file-${nonce}-${i}@@`, field]));
  const json = JSON.stringify({
    ...request,
    input: {
      ...request.input,
      ...Object.fromEntries([...placeholders].map(([token, field]) => [field, token])),
    },
  });
  const found = [...placeholders.keys()].map((token) => ({ token, at: uniqueIndexOf(json, `"${token}"`) }));
  found.sort((a, b) => a.at - b.at);
  const texts: string[] = [];
  const ordered: string[] = [];
  let from = 0;
  for (const { token, at } of found) {
    texts.push(json.slice(from, at + 1)); // through the opening quote
    ordered.push(placeholders.get(token)!);
    from = at + token.length + 1; // the closing quote starts the next text
  }
  texts.push(json.slice(from));
  return { texts, fields: ordered };
}

function uniqueIndexOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0 || text.indexOf(needle, at + 1) >= 0)
    throw new Error('request body placeholder not found exactly once');
  return at;
}

async function* streamBody(
  template: BodyTemplate,
  fileInputs: FileInputPaths,
  chunkBytes: number,
): AsyncGenerator<Uint8Array> {
  for (const [i, field] of template.fields.entries()) {
    yield Buffer.from(template.texts[i]!, 'utf8');
    yield* base64Chunks(readFileChunks(fileInputs[field]!, chunkBytes));
  }
  yield Buffer.from(template.texts.at(-1)!, 'utf8');
}

/**
 * The bytes of a file in chunks of `chunkBytes`, each in a fresh buffer. Fails if the file's
 * size changes while it is read.
 */
async function* readFileChunks(path: string, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    let position = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
    if (position !== size) throw new Error(`file changed while it was being sent: ${path}`);
  } finally {
    await handle.close();
  }
}
