/**
 * Inputs across tasks: how many tasks refer to a library input file (a file is shared by every
 * task that uses the same bytes, and removed with the last of them), the record of one such file,
 * and the inputs older libraries still hold as Base64 text, with their move into a file.
 */
import type { TaskInput } from '../../shared/index.ts';
import { INPUT_TABLE } from './input-output-columns.ts';
import { positiveLimit, type StoreCore } from './store-core.ts';
import { LibraryStoreError } from './store-errors.ts';
import type { Base64InputPlace, StoredBase64Input } from './store-types.ts';
import { parseRequestJson, TASK_TABLE } from './task-columns.ts';
import { inputFromRow } from './task-row.ts';

export class InputRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  /** How many inputs (of any task) are the library file at `value`. */
  fileUses(value: string): number {
    return Number(this.#core.sql.fileInputUses.get(value)?.n ?? 0);
  }

  /** One input that is the library file at `value` (its type, size, hash, dimensions); null when none is. */
  fileRecord(value: string): TaskInput | null {
    const row = this.#core.sql.fileInputByValue.get(value);
    return row ? inputFromRow(row, String(row.task_id)) : null;
  }

  /**
   * Up to `limit` inputs still stored as Base64 text, after `after` in (task, position) order;
   * unreadable rows are skipped and reported.
   */
  base64Inputs(after: Base64InputPlace | null, limit: number): StoredBase64Input[] {
    const core = this.#core;
    const from = {
      task_id: after?.taskId ?? '',
      idx: after?.idx ?? -1,
      limit: positiveLimit(limit, 'limit'),
    };
    return core.readableRows(core.sql.base64Inputs.all(from), (row) => {
      const taskId = String(row.task_id);
      return { taskId, idx: Number(row.idx), input: inputFromRow(row, taskId) };
    });
  }

  /**
   * Makes a Base64 input of task `taskId` the library file `input` describes (`source` 'file'):
   * its row, and the request, whose field then names the file (`{ $file: <path> }`), in one
   * transaction. False when the task has no Base64 input of that field (any more).
   */
  moveToFile(taskId: string, input: TaskInput): boolean {
    if (input.source !== 'file')
      throw new LibraryStoreError('an input moved into a file must be a file input');
    const core = this.#core;
    return core.transaction(() => {
      const moved = core.sql.moveInputToFile.run({
        task_id: taskId,
        ...INPUT_TABLE.write({
          field: input.field,
          value: input.value,
          mime: input.mime,
          size: input.size,
          sha256: input.sha256,
          width: input.width,
          height: input.height,
        }),
      });
      if (Number(moved.changes) === 0) return false;
      const row = core.sql.requestOf.get(taskId);
      if (!row) return false;
      const request = parseRequestJson(String(row.request_json), taskId);
      request.input[input.field] = { $file: input.value };
      core.sql.setRequest.run({ id: taskId, ...TASK_TABLE.write({ request }) });
      return true;
    });
  }
}
