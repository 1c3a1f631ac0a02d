/**
 * Rows ↔ Task. Every value read back passes a zod schema; a row that does not becomes a
 * CorruptTaskRowError naming the task, never an untyped crash.
 */
import { z } from 'zod';
import {
  type InputSource,
  type OutputKind,
  type OutputState,
  TASK_STATES,
  type Task,
  type TaskFamily,
  type TaskInput,
  type TaskOutput,
} from '../../shared/index.ts';
import { CorruptTaskRowError } from './store-errors.ts';
import type { TaskSummary } from './store-types.ts';

export type SqlRow = Record<string, unknown>;

export const FAMILIES = ['song', 'face-swap', 'image-edit', 'other'] as const satisfies readonly TaskFamily[];
const INPUT_SOURCES = ['url', 'base64', 'file'] as const satisfies readonly InputSource[];
const OUTPUT_KINDS = ['audio', 'image', 'video', 'file'] as const satisfies readonly OutputKind[];
const OUTPUT_STATES = ['pending', 'saved', 'expired', 'failed'] as const satisfies readonly OutputState[];

/** The task columns read back (prompt/lyrics/usage_consume are search and sum copies, not read). */
export const TASK_COLUMNS =
  'id, seq, remote_id, model, task_type, family, title, state, remote_status, request_json, favorite, ' +
  'estimate_micros, usage_json, error_kind, error_message, error_code, created_at, updated_at, submitted_at, ' +
  'remote_created_at, started_at, ended_at, saved_at, expected_ms, rerun_of, next_poll_at, poll_count';

const text = z.string();
const textOrNull = z.string().nullable();
const numberOrNull = z.number().nullable();

const TaskRowSchema = z.object({
  id: text,
  seq: z.number().int(),
  remote_id: textOrNull,
  model: text,
  task_type: text,
  family: z.enum(FAMILIES),
  title: text,
  state: z.enum(TASK_STATES),
  remote_status: textOrNull,
  request_json: text,
  favorite: z.union([z.literal(0), z.literal(1)]),
  estimate_micros: numberOrNull,
  usage_json: textOrNull,
  error_kind: textOrNull,
  error_message: textOrNull,
  error_code: numberOrNull,
  created_at: text,
  updated_at: text,
  submitted_at: textOrNull,
  remote_created_at: textOrNull,
  started_at: textOrNull,
  ended_at: textOrNull,
  saved_at: textOrNull,
  expected_ms: numberOrNull,
  rerun_of: textOrNull,
  next_poll_at: numberOrNull,
  poll_count: z.number().int(),
});
export type TaskRow = z.infer<typeof TaskRowSchema>;

export const RequestSchema = z.looseObject({
  model: z.string(),
  task_type: z.string(),
  input: z.record(z.string(), z.unknown()),
  config: z.record(z.string(), z.unknown()).optional(),
});

const UsageSchema = z.object({ type: textOrNull, frozen: numberOrNull, consume: numberOrNull });

const InputRowSchema = z.object({
  field: text,
  source: z.enum(INPUT_SOURCES),
  value: text,
  mime: textOrNull,
  size: numberOrNull,
  sha256: textOrNull,
  width: numberOrNull,
  height: numberOrNull,
});

const OutputRowSchema = z.object({
  idx: z.number().int(),
  kind: z.enum(OUTPUT_KINDS),
  url: text,
  field: text,
  state: z.enum(OUTPUT_STATES),
  path: textOrNull,
  thumb_path: textOrNull,
  mime: textOrNull,
  size: numberOrNull,
  sha256: textOrNull,
  width: numberOrNull,
  height: numberOrNull,
  duration_seconds: numberOrNull,
  error: textOrNull,
});

function issueText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, taskId: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new CorruptTaskRowError(taskId, `${what}: ${issueText(parsed.error)}`);
  return parsed.data;
}

function parseJsonColumn<T>(schema: z.ZodType<T>, raw: string, taskId: string, column: string): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new CorruptTaskRowError(taskId, `${column} is not valid JSON (${(error as Error).message})`);
  }
  return parseWith(schema, value, taskId, column);
}

export function rowTaskId(row: SqlRow): string {
  return typeof row.id === 'string' ? row.id : String(row.id);
}

export function parseTaskRow(row: SqlRow): TaskRow {
  return parseWith(TaskRowSchema, row, rowTaskId(row), 'row');
}

export function parseRequestJson(raw: string, taskId: string): Task['request'] {
  return parseJsonColumn(RequestSchema, raw, taskId, 'request_json');
}

export function summaryFromRow(raw: SqlRow, outputs: TaskOutput[]): TaskSummary {
  const row = parseTaskRow(raw);
  return {
    id: row.id,
    remoteId: row.remote_id,
    model: row.model,
    taskType: row.task_type,
    family: row.family,
    title: row.title,
    state: row.state,
    remoteStatus: row.remote_status,
    request: parseRequestJson(row.request_json, row.id),
    outputs,
    favorite: row.favorite === 1,
    estimateMicros: row.estimate_micros,
    usage:
      row.usage_json === null ? null : parseJsonColumn(UsageSchema, row.usage_json, row.id, 'usage_json'),
    error:
      row.error_kind === null
        ? null
        : { kind: row.error_kind, message: row.error_message ?? '', code: row.error_code },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    submittedAt: row.submitted_at,
    remoteCreatedAt: row.remote_created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    savedAt: row.saved_at,
    expectedMs: row.expected_ms,
    rerunOf: row.rerun_of,
    nextPollAt: row.next_poll_at,
    pollCount: row.poll_count,
  };
}

export function taskFromRows(raw: SqlRow, inputs: readonly SqlRow[], outputs: readonly SqlRow[]): Task {
  const id = rowTaskId(raw);
  const summary = summaryFromRow(
    raw,
    outputs.map((o) => outputFromRow(o, id)),
  );
  return { ...summary, inputs: inputs.map((i) => inputFromRow(i, id)) };
}

export function inputFromRow(raw: SqlRow, taskId: string): TaskInput {
  const row = parseWith(InputRowSchema, raw, taskId, 'input');
  return { ...row };
}

export function outputFromRow(raw: SqlRow, taskId: string): TaskOutput {
  const row = parseWith(OutputRowSchema, raw, taskId, `output ${String(raw.idx)}`);
  return {
    index: row.idx,
    kind: row.kind,
    url: row.url,
    field: row.field,
    state: row.state,
    path: row.path,
    thumbPath: row.thumb_path,
    mime: row.mime,
    size: row.size,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    durationSeconds: row.duration_seconds,
    error: row.error,
  };
}

/** The text the full-text index sees for a request: the prompts joined, and the lyrics. */
export function searchTextOf(request: Task['request']): { prompt: string | null; lyrics: string | null } {
  const input = request.input;
  const pick = (key: string): string | null => {
    const value = input[key];
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  };
  const prompts = ['style_prompt', 'prompt', 'negative_prompt']
    .map(pick)
    .filter((v): v is string => v !== null);
  return { prompt: prompts.length > 0 ? prompts.join('\n') : null, lyrics: pick('lyrics') };
}
