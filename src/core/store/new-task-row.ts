/**
 * NewTask → the parameters of the INSERTs that create it, written through the column tables. The
 * request and inputs are checked with the same rules they are read back with, so what goes in
 * always comes back out.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  catalogEntry,
  entryById,
  familyOf,
  INPUT_SOURCES,
  OUTPUT_KINDS,
  TASK_FAMILIES,
} from '../../shared/index.ts';
import { checkedInput } from './checked-input.ts';
import type { Params } from './column-table.ts';
import { INPUT_TABLE, OUTPUT_TABLE } from './input-output-columns.ts';
import { LibraryStoreError } from './store-errors.ts';
import type { NewOutput, NewTask } from './store-types.ts';
import { type InsertedTaskFields, RequestSchema, TASK_TABLE } from './task-columns.ts';

const count = z.number().int().nonnegative().nullable();

const InputSchema = z.strictObject({
  field: z.string().min(1),
  source: z.enum(INPUT_SOURCES),
  value: z.string(),
  mime: z.string().nullable(),
  size: count,
  sha256: z.string().nullable(),
  width: count,
  height: count,
  name: z.string().max(255).nullable().optional(),
});

const NewTaskSchema = z.strictObject({
  id: z.string().min(1).optional(),
  model: z.string().min(1),
  taskType: z.string().min(1),
  entryId: z.string().min(1).nullable().optional(),
  family: z.enum(TASK_FAMILIES).optional(),
  title: z.string(),
  request: RequestSchema,
  inputs: z.array(InputSchema).optional(),
  estimateMicros: z.number().int().nonnegative().nullable().optional(),
  expectedMs: z.number().int().nonnegative().nullable().optional(),
  parentId: z.string().min(1).nullable().optional(),
  parentOutput: z.number().int().nonnegative().nullable().optional(),
  batchId: z.string().min(1).nullable().optional(),
  batchPlace: z
    .strictObject({ index: z.number().int().positive(), count: z.number().int().positive() })
    .refine((p) => p.index <= p.count, 'batchPlace: index must be at most count')
    .optional(),
  queuedDetail: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  favorite: z.boolean().optional(),
});

const NewOutputSchema = z.object({
  kind: z.enum(OUTPUT_KINDS),
  url: z.string(),
  field: z.string(),
});

export interface NewTaskRows {
  id: string;
  parentId: string | null;
  /** The detail of the first event. */
  queuedDetail: string | null;
  /** The values of INSERT_TASK_SQL but `seq` (given when the order of the insert is known). */
  task: Params;
  inputs: Params[];
}

export function newTaskRows(task: NewTask, nowIso: string): NewTaskRows {
  const t = checkedInput(NewTaskSchema, task, 'new task');
  const entry = t.entryId === undefined ? catalogEntry(t.model, t.taskType) : entryById(t.entryId);
  if (t.entryId && (!entry || entry.taskType !== t.taskType)) {
    throw new LibraryStoreError(
      `Invalid new task: entry ${t.entryId} is not a catalog entry of task type ${t.taskType}`,
    );
  }
  const family = familyOf(entry);
  if (t.family !== undefined && t.family !== family) {
    throw new LibraryStoreError(
      `Invalid new task: family ${t.family} does not match task type ${t.taskType} (${family})`,
    );
  }
  const id = t.id ?? randomUUID();
  const fields: InsertedTaskFields = {
    id,
    model: t.model,
    taskType: t.taskType,
    entryId: entry?.id ?? null,
    family,
    title: t.title,
    state: 'queued',
    request: t.request,
    favorite: t.favorite ?? false,
    estimateMicros: t.estimateMicros ?? null,
    createdAt: t.createdAt ?? nowIso,
    updatedAt: nowIso,
    expectedMs: t.expectedMs ?? null,
    parentId: t.parentId ?? null,
    parentOutput: t.parentOutput ?? null,
    batchId: t.batchId ?? null,
    ...(t.batchPlace ? { batchPlace: t.batchPlace } : {}),
  };
  if (fields.parentId === null && fields.parentOutput !== null) {
    throw new LibraryStoreError('Invalid new task: parentOutput is given without parentId');
  }
  const inputs = (t.inputs ?? []).map((input, idx) => ({
    task_id: id,
    idx,
    ...INPUT_TABLE.write({ ...input, name: input.name ?? null }),
  }));
  return {
    id,
    parentId: fields.parentId,
    queuedDetail: t.queuedDetail ?? null,
    task: TASK_TABLE.write(fields),
    inputs,
  };
}

export function newOutputRows(taskId: string, outputs: readonly NewOutput[]): Params[] {
  const list = checkedInput(z.array(NewOutputSchema), outputs, 'outputs');
  return list.map((o, index) => ({
    task_id: taskId,
    ...OUTPUT_TABLE.write({ index, kind: o.kind, url: o.url, field: o.field, state: 'pending' }),
  }));
}
