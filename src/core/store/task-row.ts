/**
 * Rows → Task, through the column tables. Every value read back passes its column's zod schema; a
 * row that does not becomes a CorruptTaskRowError naming the task, never an untyped crash.
 */
import type { Task, TaskInput, TaskListItem, TaskOutput } from '../../shared/index.ts';
import type { SqlRow } from './column-table.ts';
import { INPUT_TABLE, OUTPUT_TABLE } from './input-output-columns.ts';
import { TASK_TABLE } from './task-columns.ts';

export type { SqlRow } from './column-table.ts';

export function rowTaskId(row: SqlRow): string {
  return typeof row.id === 'string' ? row.id : String(row.id);
}

/** The task's fields of a row, without the engine's poll bookkeeping (LibraryStore.pollSchedule). */
export function summaryFromRow(row: SqlRow, outputs: TaskOutput[]): TaskListItem {
  const {
    nextPollAt: _next,
    pollCount: _count,
    batchPlace,
    ...fields
  } = TASK_TABLE.read(row, rowTaskId(row), 'row');
  // a task queued alone (or recorded before migration 16) has no place in a batch
  return { ...fields, ...(batchPlace ? { batchPlace } : {}), outputs };
}

export function taskFromRows(raw: SqlRow, inputs: readonly SqlRow[], outputs: readonly SqlRow[]): Task {
  const id = rowTaskId(raw);
  const summary = summaryFromRow(
    raw,
    outputs.map((o) => outputFromRow(o, id)),
  );
  return { ...summary, inputs: inputs.map((i) => inputFromRow(i, id)) };
}

export function inputFromRow(row: SqlRow, taskId: string): TaskInput {
  const { name, ...input } = INPUT_TABLE.read(row, taskId, 'input');
  // a file's own name only where one was given (migration 15): a URL, Base64 or an older row has none
  return typeof name === 'string' ? { ...input, name } : input;
}

export function outputFromRow(row: SqlRow, taskId: string): TaskOutput {
  return OUTPUT_TABLE.read(row, taskId, `output ${String(row.idx)}`);
}
