/**
 * The columns of `task_inputs` and `task_outputs` (see column-table.ts): each field of TaskInput
 * and TaskOutput with its column, the check its stored value passes when read back, and, for an
 * output, what an OutputPatch may set it to. Both tables are keyed by (task_id, idx).
 */
import { z } from 'zod';
import {
  INPUT_SOURCES,
  OUTPUT_KINDS,
  OUTPUT_STATES,
  type TaskInput,
  type TaskOutput,
} from '../../shared/index.ts';
import { ColumnTable, columnsOf, insertSql } from './column-table.ts';

const text = z.string();
const textOrNull = z.string().nullable();
const numberOrNull = z.number().nullable();
const countLike = z.number().int().nonnegative();

const input = columnsOf<TaskInput>();

export const INPUT_TABLE: ColumnTable<TaskInput, keyof TaskInput> = new ColumnTable([
  input.plain('field', 'field', text),
  input.plain('source', 'source', z.enum(INPUT_SOURCES)),
  input.plain('value', 'value', text),
  input.plain('mime', 'mime', textOrNull),
  input.plain('size', 'size', numberOrNull),
  input.plain('sha256', 'sha256', textOrNull),
  input.plain('width', 'width', numberOrNull),
  input.plain('height', 'height', numberOrNull),
  // migration 15: absent in rows recorded before it (read as null)
  input.plain('name', 'name', textOrNull),
]);

export const INSERT_INPUT_SQL = insertSql('task_inputs', [
  'task_id',
  'idx',
  ...INPUT_TABLE.columnsWrittenBy([
    'field',
    'source',
    'value',
    'mime',
    'size',
    'sha256',
    'width',
    'height',
    'name',
  ]),
]);

const output = columnsOf<TaskOutput>();

export const OUTPUT_TABLE: ColumnTable<TaskOutput, keyof TaskOutput> = new ColumnTable([
  output.plain('index', 'idx', z.number().int()),
  output.plain('kind', 'kind', z.enum(OUTPUT_KINDS), { patch: z.enum(OUTPUT_KINDS) }),
  output.plain('url', 'url', text, { patch: z.string().min(1) }),
  output.plain('field', 'field', text),
  output.plain('state', 'state', z.enum(OUTPUT_STATES), { patch: z.enum(OUTPUT_STATES) }),
  output.plain('path', 'path', textOrNull, { patch: z.string().nullable() }),
  output.plain('thumbPath', 'thumb_path', textOrNull, { patch: z.string().nullable() }),
  output.plain('mime', 'mime', textOrNull, { patch: z.string().nullable() }),
  output.plain('size', 'size', numberOrNull, { patch: countLike.nullable() }),
  output.plain('sha256', 'sha256', textOrNull, { patch: z.string().nullable() }),
  output.plain('width', 'width', numberOrNull, { patch: countLike.nullable() }),
  output.plain('height', 'height', numberOrNull, { patch: countLike.nullable() }),
  output.plain('durationSeconds', 'duration_seconds', numberOrNull, {
    patch: z.number().nonnegative().nullable(),
  }),
  output.plain('error', 'error', textOrNull, { patch: z.string().nullable() }),
]);

/** The fields a new output is inserted with (state `pending`); the others start NULL. */
export const INSERTED_OUTPUT_FIELDS = ['index', 'kind', 'url', 'field', 'state'] as const;

export const INSERT_OUTPUT_SQL = insertSql('task_outputs', [
  'task_id',
  ...OUTPUT_TABLE.columnsWrittenBy(INSERTED_OUTPUT_FIELDS),
]);
