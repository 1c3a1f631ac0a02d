/**
 * One task at a time: creating it, reading it, moving it between states with its event, patching,
 * favouriting and deleting it, its event log, and the engine's poll bookkeeping. Each change is
 * one transaction.
 */
import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { Task, TaskEvent, TaskState } from '../../shared/index.ts';
import { webhookSecretOf } from '../../shared/task/webhook-config.ts';
import { parseStored, type SetClause } from './column-table.ts';
import { newTaskRows } from './new-task-row.ts';
import { nextSeq } from './sort-key.ts';
import { assertStates, type StoreCore } from './store-core.ts';
import { LibraryStoreError } from './store-errors.ts';
import type {
  DeletedTaskFiles,
  NewTask,
  PollSchedule,
  TaskPatch,
  TransitionOptions,
  UnreadableAnswers,
} from './store-types.ts';
import { parseRequestJson, TASK_TABLE } from './task-columns.ts';
import { inputFromRow, outputFromRow } from './task-row.ts';

const NO_CLAUSE: SetClause = { assignments: [], params: {} };

const POLL_SCHEDULE_ROW = z
  .object({ next_poll_at: z.number().int().nullable(), poll_count: z.number().int() })
  .transform((r): PollSchedule => ({ nextPollAt: r.next_poll_at, pollCount: r.poll_count }));

const UNREADABLE_ROW = z
  .object({
    unreadable_answers: z.number().int().nonnegative(),
    unreadable_since: z.number().int().nullable(),
  })
  .transform((r): UnreadableAnswers => ({ count: r.unreadable_answers, since: r.unreadable_since }));

export class TaskRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  insert(task: NewTask): Task {
    const core = this.#core;
    const now = core.nowIso();
    const rows = newTaskRows(task, now);
    return core.transaction(() => {
      if (core.sql.taskExists.get(rows.id))
        throw new LibraryStoreError(`A task with id ${rows.id} already exists`);
      if (rows.parentId !== null && !core.sql.taskExists.get(rows.parentId)) {
        throw new LibraryStoreError(`parentId ${rows.parentId} is not a task of this library`);
      }
      const seq = nextSeq(String(rows.task.created_at), (lo, hi) => {
        const found = core.sql.highestSeqIn.get(lo, hi)?.seq;
        return typeof found === 'number' ? found : null;
      });
      core.sql.insertTask.run({ ...rows.task, seq });
      for (const input of rows.inputs) core.sql.insertInput.run(input);
      this.#appendEvent(rows.id, now, null, 'queued', rows.queuedDetail);
      return this.#mustGet(rows.id);
    });
  }

  get(id: string): Task | null {
    const core = this.#core;
    return core.snapshot(() => core.taskOf(core.sql.taskById.get(id)));
  }

  getByRemoteId(remoteId: string): Task | null {
    const core = this.#core;
    return core.snapshot(() => core.taskOf(core.sql.taskByRemoteId.get(remoteId)));
  }

  /** The webhook secret the task was queued with ('' when none or no such task). */
  webhookSecret(id: string): string {
    const row = this.#core.sql.requestOf.get(id);
    return row ? webhookSecretOf(parseRequestJson(String(row.request_json), id)) : '';
  }

  #mustGet(id: string): Task {
    const task = this.#core.taskOf(this.#core.sql.taskById.get(id));
    if (!task) throw new LibraryStoreError(`Task ${id} vanished inside its own transaction`);
    return task;
  }

  transition(id: string, to: TaskState, options: TransitionOptions = {}): Task | null {
    assertStates([to]);
    if (options.from) assertStates(options.from);
    const clause = options.patch ? TASK_TABLE.patchClause(options.patch, 'task patch') : NO_CLAUSE;
    const now = this.#core.nowIso();
    const move = () => {
      const current = this.#core.sql.stateById.get(id);
      if (!current) return null;
      const from = String(current.state);
      if (options.from && !(options.from as readonly string[]).includes(from)) return null;
      this.#update(id, now, clause, to);
      this.#appendEvent(id, now, from, to, options.detail ?? null);
      return this.#mustGet(id);
    };
    return this.#core.transaction(move, { durable: options.durable === true });
  }

  patch(id: string, patch: TaskPatch): Task | null {
    const clause = TASK_TABLE.patchClause(patch, 'task patch');
    const now = this.#core.nowIso();
    return this.#core.transaction(() => {
      if (!this.#core.sql.taskExists.get(id)) return null;
      if (clause.assignments.length > 0) this.#update(id, now, clause, null);
      return this.#mustGet(id);
    });
  }

  pollSchedule(id: string): PollSchedule | null {
    const row = this.#core.sql.pollScheduleById.get(id);
    if (!row) return null;
    return parseStored(POLL_SCHEDULE_ROW, row, id, 'poll schedule');
  }

  /** Writes the engine's bookkeeping only: `updatedAt` stays, nothing the window shows changes. */
  setPollSchedule(id: string, schedule: Partial<PollSchedule>): boolean {
    const clause = TASK_TABLE.patchClause(
      { nextPollAt: schedule.nextPollAt, pollCount: schedule.pollCount },
      'poll schedule',
    );
    if (clause.assignments.length === 0) return this.#core.sql.taskExists.get(id) !== undefined;
    const sql = `UPDATE tasks SET ${clause.assignments.join(', ')} WHERE id = $id`;
    return this.#core.transaction(
      () => Number(this.#core.cache.get(sql).run({ ...clause.params, id }).changes) > 0,
    );
  }

  unreadableAnswers(id: string): UnreadableAnswers | null {
    const row = this.#core.sql.unreadableById.get(id);
    if (!row) return null;
    return parseStored(UNREADABLE_ROW, row, id, 'unreadable answers');
  }

  /** Engine bookkeeping only, like setPollSchedule: `updatedAt` stays. False when there is no such task. */
  setUnreadableAnswers(id: string, answers: UnreadableAnswers): boolean {
    const params = { id, count: answers.count, since: answers.since };
    return this.#core.transaction(() => Number(this.#core.sql.setUnreadable.run(params).changes) > 0);
  }

  #update(id: string, now: string, clause: SetClause, state: TaskState | null): void {
    const sets = [...clause.assignments, 'updated_at = $updated_at'];
    const params: Record<string, SQLInputValue> = { ...clause.params, updated_at: now, id };
    if (state !== null) {
      sets.unshift('state = $state');
      params.state = state;
    }
    this.#core.cache.get(`UPDATE tasks SET ${sets.join(', ')} WHERE id = $id`).run(params);
  }

  #appendEvent(taskId: string, at: string, from: string | null, to: string, detail: string | null): void {
    this.#core.sql.insertEvent.run({ task_id: taskId, at, from_state: from, to_state: to, detail });
  }

  setFavorite(id: string, on: boolean): Task | null {
    const now = this.#core.nowIso();
    return this.#core.transaction(() => {
      const changed = this.#core.sql.setFavorite.run({ id, favorite: on ? 1 : 0, updated_at: now });
      return Number(changed.changes) === 0 ? null : this.#mustGet(id);
    });
  }

  delete(id: string): DeletedTaskFiles {
    return this.deleteMany([id])[0] as DeletedTaskFiles;
  }

  /**
   * Each task's inputs and outputs, in the order given, its last event, then the rows deleted by
   * ONE statement: the full-text index writes its pending deletes once per statement (FTS5 flushes
   * them at each statement's savepoint), so a task deleted by a statement of its own adds a
   * segment to the index, and a merge of them, each.
   */
  deleteMany(ids: readonly string[]): DeletedTaskFiles[] {
    const core = this.#core;
    const now = core.nowIso();
    return core.transaction(() => {
      const files = ids.map((id): DeletedTaskFiles => {
        const current = core.sql.stateById.get(id);
        if (!current) return { deleted: false, inputs: [], outputs: [] };
        const inputs = core.readableRows(core.sql.inputsOf.all(id), (r) => inputFromRow(r, id));
        const outputs = core.readableRows(core.sql.outputsOf.all(id), (r) => outputFromRow(r, id));
        const state = String(current.state);
        this.#appendEvent(id, now, state, state, 'deleted');
        return { deleted: true, inputs, outputs };
      });
      core.sql.deleteTasks.run(JSON.stringify(ids.filter((_, i) => files[i]?.deleted)));
      return files;
    });
  }

  events(taskId: string): TaskEvent[] {
    return this.#core.sql.eventsOf.all(taskId).map((row) => ({
      taskId: String(row.task_id),
      at: String(row.at),
      from: row.from_state === null ? null : (String(row.from_state) as TaskState),
      to: String(row.to_state) as TaskState,
      detail: row.detail === null ? null : String(row.detail),
    }));
  }
}
