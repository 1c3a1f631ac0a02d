/**
 * A task's parameters in a binary glTF (GLB): the JSON chunk's `asset.extras["media-task-studio"]`,
 * the place glTF keeps for an application's own data. The JSON chunk is rewritten (padded with
 * spaces to 4 bytes, as the format asks) and the file's length updated; the binary chunk after it
 * is copied as it is. Only a JSON chunk of at most MAX_GLB_JSON_BYTES is read.
 */
import { asciiAt, uint32le } from '../../shared/media/byte-fields.ts';
import { asciiBytes, type ByteEdit, type ReadBytesAt, uint32leBytes } from './file-edits.ts';
import { jsonDepthOver, RECALL_KEY, RecallReadError } from './recall-record.ts';

const MAX_GLB_JSON_BYTES = 16_000_000;
/** Most levels of arrays and objects in a GLB's JSON (a glTF has under 10, the record adds 5). */
const MAX_GLB_DEPTH = 64;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON chunk of a GLB: where it is and what it says; throws RecallReadError for a broken one. */
async function jsonChunk(read: ReadBytesAt, size: number): Promise<{ length: number; json: Json }> {
  const head = await read(0, 20);
  if (asciiAt(head, 0, 4) !== 'glTF' || asciiAt(head, 16, 4) !== 'JSON') {
    throw new RecallReadError('it is not a binary glTF with its JSON chunk first');
  }
  const length = uint32le(head, 12);
  if (length > MAX_GLB_JSON_BYTES) {
    throw new RecallReadError(`its glTF JSON is ${length} bytes, over the ${MAX_GLB_JSON_BYTES} read`);
  }
  if (20 + length > size) throw new RecallReadError('its glTF JSON chunk runs past the end of the file');
  const text = Buffer.from(await read(20, length)).toString('utf8');
  // deeper than any glTF: writing it again (the record, an export) would overflow the stack
  if (jsonDepthOver(text, MAX_GLB_DEPTH)) {
    throw new RecallReadError(`its glTF JSON nests more than ${MAX_GLB_DEPTH} levels deep`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RecallReadError(`its glTF JSON is not JSON (${(err as Error).message})`);
  }
  if (!isObject(json)) throw new RecallReadError('its glTF JSON is not an object');
  return { length, json };
}

/** The edits that put the record `text` (JSON) into a GLB, or null when it cannot be read. */
export async function glbEdits(read: ReadBytesAt, size: number, text: string): Promise<ByteEdit[] | null> {
  let chunk: { length: number; json: Json };
  try {
    chunk = await jsonChunk(read, size);
  } catch (err) {
    if (err instanceof RecallReadError) return null;
    throw err;
  }
  const { json } = chunk;
  const asset = isObject(json.asset) ? json.asset : {};
  const extras = isObject(asset.extras) ? asset.extras : {};
  json.asset = { ...asset, extras: { ...extras, [RECALL_KEY]: JSON.parse(text) } };
  const body = Buffer.from(JSON.stringify(json), 'utf8');
  const padded = Buffer.concat([body, asciiBytes(' '.repeat((4 - (body.length % 4)) % 4))]);
  const total = size - chunk.length + padded.length;
  if (total > 0xffffffff) return null;
  return [
    { at: 8, remove: 4, insert: uint32leBytes(total) },
    {
      at: 12,
      remove: 8 + chunk.length,
      insert: Buffer.concat([uint32leBytes(padded.length), asciiBytes('JSON'), padded]),
    },
  ];
}

/** The embedded text of a GLB (the record as JSON text), or null when it has none. */
export async function readGlbText(read: ReadBytesAt, size: number): Promise<string | null> {
  const { json } = await jsonChunk(read, size);
  const asset = isObject(json.asset) ? json.asset : null;
  const extras = asset && isObject(asset.extras) ? asset.extras : null;
  const record = extras?.[RECALL_KEY];
  return record === undefined ? null : JSON.stringify(record);
}
