/**
 * NewTask → the parameters of the INSERTs that create it. The request and inputs are checked
 * with the same rules they are read back with, so what goes in always comes back out.
 */
import { randomUUID } from 'node:crypto';
import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { familyOf } from '../../shared/index.ts';
import { checkedInput } from './checked-input.ts';
import { LibraryStoreError } from './store-errors.ts';
import type { NewOutput, NewTask } from './store-types.ts';
import { toStoredIso } from './stored-time.ts';
import { FAMILIES, RequestSchema, searchTextOf } from './task-row.ts';

type Params = Record<string, SQLInputValue>;

const count = z.number().int().nonnegative().nullable();

const InputSchema = z.strictObject({
  field: z.string().min(1),
  source: z.enum(['url', 'base64', 'file']),
  value: z.string(),
  mime: z.string().nullable(),
  size: count,
  sha256: z.string().nullable(),
  width: count,
  height: count,
});

const NewTaskSchema = z.strictObject({
  id: z.string().min(1).optional(),
  model: z.string().min(1),
  taskType: z.string().min(1),
  family: z.enum(FAMILIES).optional(),
  title: z.string(),
  request: RequestSchema,
  inputs: z.array(InputSchema).optional(),
  estimateMicros: z.number().int().nonnegative().nullable().optional(),
  expectedMs: z.number().int().nonnegative().nullable().optional(),
  rerunOf: z.string().min(1).nullable().optional(),
  createdAt: z.string().optional(),
  favorite: z.boolean().optional(),
});

const NewOutputSchema = z.object({
  kind: z.enum(['audio', 'image', 'video', 'file']),
  url: z.string(),
  field: z.string(),
});

export interface NewTaskRows {
  id: string;
  rerunOf: string | null;
  task: Params;
  inputs: Params[];
}

export function newTaskRows(task: NewTask, nowIso: string): NewTaskRows {
  const t = checkedInput(NewTaskSchema, task, 'new task');
  const family = familyOf(t.taskType);
  if (t.family !== undefined && t.family !== family) {
    throw new LibraryStoreError(
      `Invalid new task: family ${t.family} does not match task type ${t.taskType} (${family})`,
    );
  }
  const id = t.id ?? randomUUID();
  const { prompt, lyrics } = searchTextOf(t.request);
  const row: Params = {
    id,
    model: t.model,
    task_type: t.taskType,
    family,
    title: t.title,
    request_json: JSON.stringify(t.request),
    prompt,
    lyrics,
    favorite: t.favorite ? 1 : 0,
    estimate_micros: t.estimateMicros ?? null,
    created_at: t.createdAt === undefined ? nowIso : toStoredIso(t.createdAt, 'createdAt'),
    updated_at: nowIso,
    expected_ms: t.expectedMs ?? null,
    rerun_of: t.rerunOf ?? null,
  };
  const inputs = (t.inputs ?? []).map((input, idx) => ({ task_id: id, idx, ...input }));
  return { id, rerunOf: t.rerunOf ?? null, task: row, inputs };
}

export function newOutputRows(taskId: string, outputs: readonly NewOutput[]): Params[] {
  const list = checkedInput(z.array(NewOutputSchema), outputs, 'outputs');
  return list.map((o, idx) => ({ task_id: taskId, idx, kind: o.kind, url: o.url, field: o.field }));
}
