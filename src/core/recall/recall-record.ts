/**
 * The parameters an exported result carries inside its file (issue 22, item 2): one JSON text,
 * the same in every kind of file, shaped like the export's `task.json` (library-export.ts's
 * sidecarOf) so an import reads it with the same checks (task-file-import.ts): the task's id and
 * title, its request (model, task type, input), its inputs (field and source; not the names of the
 * user's files, nor their checksums), which output the file is, and the app's version. Never the API key, never a webhook: the request goes without its `config`, so
 * neither a webhook's secret nor its address travels with a picture someone shares.
 *
 * Read back, the text is untrusted: at most MAX_RECORD_BYTES, JSON, and checked field by field
 * (RecallRecordSchema); anything else is a RecallReadError in words.
 */
import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { Task } from '../../shared/index.ts';

/** The keyword (PNG), description (ID3 TXXX), free-form name (MP4) and glTF extras key. */
export const RECALL_KEY = 'media-task-studio';
/** The record's own `format`: what the text is and its version. */
export const RECALL_FORMAT = 'media-task-studio/1';
/** Most bytes of the JSON text, written or read (a task.json is at most 2 MB too). */
export const MAX_RECORD_BYTES = 2_000_000;

/** A problem reading a file's embedded parameters, in words (the file may be hostile or broken). */
export class RecallReadError extends Error {
  override name = 'RecallReadError';
}

const text = (max: number) => z.string().max(max);

export const RecallRecordSchema = z.looseObject({
  format: z.literal(RECALL_FORMAT),
  app_version: text(50).optional(),
  id: text(100).min(1),
  remote_task_id: text(200).nullish(),
  title: text(200).optional(),
  model: text(200).min(1),
  task_type: text(100).min(1),
  output_index: z.number().int().min(0).max(100).nullish(),
  request: z.looseObject({
    model: text(200).min(1),
    task_type: text(100).min(1),
    input: z.record(z.string().max(100), z.unknown()),
  }),
  inputs: z
    .array(
      z.looseObject({
        field: text(100),
        source: text(20),
        sha256: text(64).nullish(),
      }),
    )
    .max(100)
    .optional(),
});
export type RecallRecord = z.infer<typeof RecallRecordSchema>;

/**
 * The name an export gives a task's input file: `input-<field>` (letters, digits, dashes and
 * underscores of the field, a stored value) with the stored file's extension.
 */
export function inputCopyName(field: string, storedPath: string): string {
  const safe = field.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return `input-${safe}${extname(basename(storedPath))}`;
}

/**
 * The request's input as a shared file may carry it: a library file named as the export's copy
 * (`{ "$file": "input-image.png" }`, which is what an import reads), never as the library names
 * it (`inputs/<sha256>.png`): the checksum of the user's own photo would let anyone holding that
 * photo tell it was the input (third security review of issue 22).
 */
function sharedInput(task: Task): Record<string, unknown> {
  const input = { ...task.request.input };
  for (const i of task.inputs) {
    if (i.source === 'file' && Object.hasOwn(input, i.field))
      input[i.field] = { $file: inputCopyName(i.field, i.value) };
  }
  return input;
}

/** The record of output `outputIndex` of `task`, as JSON text (no webhook, no key, no checksum of an input: see the top). */
export function recallRecordText(task: Task, outputIndex: number, appVersion: string): string {
  const { model, task_type } = task.request;
  const input = sharedInput(task);
  const record: RecallRecord = {
    format: RECALL_FORMAT,
    app_version: appVersion,
    id: task.id,
    remote_task_id: task.remoteId,
    title: task.title,
    model: task.model,
    task_type: task.taskType,
    output_index: outputIndex,
    request: { model, task_type, input },
    inputs: task.inputs.map((i) => ({ field: i.field, source: i.source })),
  };
  return JSON.stringify(record);
}

/** Most levels of arrays and objects in a record (the app writes 4; a GLB's whole JSON is checked at 64). */
export const MAX_RECORD_DEPTH = 32;

/**
 * How deep `json`'s arrays and objects go, stopping once past `max` (a scan of the text, strings
 * skipped). JSON.parse takes any depth, but writing or copying the value again (JSON.stringify, a
 * call's answer to the window) overflows the stack at a few thousand levels.
 */
export function jsonDepthOver(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The record in a file's embedded text; throws RecallReadError naming what is wrong. */
export function parseRecallRecord(json: string, where: string): RecallRecord {
  if (Buffer.byteLength(json, 'utf8') > MAX_RECORD_BYTES) {
    throw new RecallReadError(`its ${where} is larger than ${MAX_RECORD_BYTES} bytes`);
  }
  if (jsonDepthOver(json, MAX_RECORD_DEPTH)) {
    throw new RecallReadError(`its ${where} nests more than ${MAX_RECORD_DEPTH} levels deep`);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new RecallReadError(`its ${where} is not JSON (${(err as Error).message})`);
  }
  const parsed = RecallRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue && issue.path.length > 0 ? issue.path.join('.') : 'the record';
    throw new RecallReadError(
      `its ${where} is not a task this app wrote (${path}: ${issue?.message ?? 'unreadable'})`,
    );
  }
  return parsed.data;
}

/** UTF-8 bytes of the record's text; throws when it is over the cap (nothing is embedded then). */
export function recordBytes(json: string): Uint8Array {
  const bytes = Buffer.from(json, 'utf8');
  if (bytes.length > MAX_RECORD_BYTES) throw new RecallReadError('the parameters are too large to embed');
  return bytes;
}
