/**
 * Turns a TaskPatch (or OutputPatch) into the SET part of an UPDATE. Only the fields present in the
 * patch are written, so an UPDATE touches only the indexes of the columns that change, and the
 * same set of fields always yields the same SQL text (the statement is prepared once and reused).
 */
import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { checkedInput } from './checked-input.ts';
import type { OutputPatch, TaskPatch } from './store-types.ts';
import { toStoredIsoOrNull } from './stored-time.ts';

export interface SetClause {
  /** `col = $col` items, in a fixed order. */
  assignments: string[];
  params: Record<string, SQLInputValue>;
}

const isoOrNull = z.string().nullable();
const countLike = z.number().int().nonnegative();

const TaskPatchSchema = z.strictObject({
  remoteId: z.string().min(1).nullable().optional(),
  remoteStatus: z.string().nullable().optional(),
  usage: z
    .strictObject({
      type: z.string().nullable(),
      frozen: z.number().nullable(),
      consume: z.number().nullable(),
    })
    .nullable()
    .optional(),
  error: z
    .strictObject({ kind: z.string().min(1), message: z.string(), code: z.number().int().nullable() })
    .nullable()
    .optional(),
  submittedAt: isoOrNull.optional(),
  remoteCreatedAt: isoOrNull.optional(),
  startedAt: isoOrNull.optional(),
  endedAt: isoOrNull.optional(),
  savedAt: isoOrNull.optional(),
  nextPollAt: z.number().int().nullable().optional(),
  pollCount: countLike.optional(),
  title: z.string().optional(),
});

const OutputPatchSchema = z.strictObject({
  state: z.enum(['pending', 'saved', 'expired', 'failed']).optional(),
  path: z.string().nullable().optional(),
  thumbPath: z.string().nullable().optional(),
  mime: z.string().nullable().optional(),
  size: countLike.nullable().optional(),
  sha256: z.string().nullable().optional(),
  width: countLike.nullable().optional(),
  height: countLike.nullable().optional(),
  durationSeconds: z.number().nonnegative().nullable().optional(),
  error: z.string().nullable().optional(),
});

const TIMESTAMP_COLUMNS = [
  ['submittedAt', 'submitted_at'],
  ['remoteCreatedAt', 'remote_created_at'],
  ['startedAt', 'started_at'],
  ['endedAt', 'ended_at'],
  ['savedAt', 'saved_at'],
] as const;

function add(clause: SetClause, column: string, value: SQLInputValue): void {
  clause.assignments.push(`${column} = $${column}`);
  clause.params[column] = value;
}

export function taskPatchClause(patch: TaskPatch): SetClause {
  const p = checkedInput(TaskPatchSchema, patch, 'task patch');
  const clause: SetClause = { assignments: [], params: {} };
  if (p.remoteId !== undefined) add(clause, 'remote_id', p.remoteId);
  if (p.remoteStatus !== undefined) add(clause, 'remote_status', p.remoteStatus);
  if (p.usage !== undefined) {
    add(clause, 'usage_json', p.usage === null ? null : JSON.stringify(p.usage));
    add(clause, 'usage_consume', p.usage?.consume ?? null);
  }
  if (p.error !== undefined) {
    add(clause, 'error_kind', p.error?.kind ?? null);
    add(clause, 'error_message', p.error?.message ?? null);
    add(clause, 'error_code', p.error?.code ?? null);
  }
  for (const [key, column] of TIMESTAMP_COLUMNS) {
    const value = p[key];
    if (value !== undefined) add(clause, column, toStoredIsoOrNull(value, key));
  }
  if (p.nextPollAt !== undefined) add(clause, 'next_poll_at', p.nextPollAt);
  if (p.pollCount !== undefined) add(clause, 'poll_count', p.pollCount);
  if (p.title !== undefined) add(clause, 'title', p.title);
  return clause;
}

const OUTPUT_COLUMNS = [
  ['state', 'state'],
  ['path', 'path'],
  ['thumbPath', 'thumb_path'],
  ['mime', 'mime'],
  ['size', 'size'],
  ['sha256', 'sha256'],
  ['width', 'width'],
  ['height', 'height'],
  ['durationSeconds', 'duration_seconds'],
  ['error', 'error'],
] as const;

export function outputPatchClause(patch: OutputPatch): SetClause {
  const p = checkedInput(OutputPatchSchema, patch, 'output patch');
  const clause: SetClause = { assignments: [], params: {} };
  for (const [key, column] of OUTPUT_COLUMNS) {
    const value = p[key];
    if (value !== undefined) add(clause, column, value);
  }
  return clause;
}
