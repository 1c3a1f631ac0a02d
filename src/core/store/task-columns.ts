/**
 * The columns of `tasks`: every Task field (but inputs and outputs, kept in their own tables) and
 * the engine's poll bookkeeping (PollSchedule, no part of a Task), each with the column(s) holding
 * it, the check each stored value passes when read back, how it is written, and what a TaskPatch
 * may set it to. A new task field is an entry here (plus its migration, and
 * its line in TaskPatch or NewTask when a patch or a new task sets it).
 */
import { z } from 'zod';
import { TASK_FAMILIES, TASK_STATES, type Task } from '../../shared/index.ts';
import { withoutWebhookSecret } from '../../shared/task/webhook-config.ts';
import { ColumnTable, columnsOf, insertSql, parseJsonColumn } from './column-table.ts';
import type { StoredTask } from './store-types.ts';
import { toStoredIso, toStoredIsoOrNull } from './stored-time.ts';

export const RequestSchema = z.looseObject({
  model: z.string(),
  task_type: z.string(),
  input: z.record(z.string(), z.unknown()),
  config: z.record(z.string(), z.unknown()).optional(),
});

const text = z.string();
const textOrNull = z.string().nullable();
const numberOrNull = z.number().nullable();

const UsageSchema = z.object({ type: textOrNull, frozen: numberOrNull, consume: numberOrNull });

const CostSchema = z.strictObject({
  micros: z.number().nonnegative(),
  reportedMicros: z.number().nonnegative(),
  publishedMicros: z.number().nonnegative().nullable(),
  microsPerPoint: z.number().positive(),
  pointValueFrom: z.enum(['account', 'usage type']),
  flagged: z.boolean(),
});

const SettlementSchema = z.strictObject({
  outcome: z.enum(['looking', 'not-created', 'choose', 'unreachable']),
  checkedAt: z.string(),
  candidates: z.array(z.strictObject({ remoteId: z.string().min(1), createdAt: textOrNull })),
  note: z.string(),
});

export function parseRequestJson(raw: string, taskId: string): Task['request'] {
  return parseJsonColumn(RequestSchema, raw, taskId, 'request_json');
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

const { plain, mapped } = columnsOf<StoredTask>();

/** A time column: ISO text, stored normalised to UTC so text order is time order. */
function time<K extends 'submittedAt' | 'remoteCreatedAt' | 'startedAt' | 'endedAt' | 'savedAt'>(
  field: K,
  column: string,
) {
  return plain(field, column, textOrNull, {
    patch: z.string().nullable(),
    write: (value) => toStoredIsoOrNull(value, field),
  });
}

/** The fields a task row holds; inputs and outputs live in task_inputs and task_outputs. */
export type TaskRowField = Exclude<keyof StoredTask, 'inputs' | 'outputs'>;

/** The engine's bookkeeping fields of a row, left out of the Task it is read into. */
export const POLL_SCHEDULE_FIELDS = ['nextPollAt', 'pollCount'] as const satisfies readonly TaskRowField[];

export const TASK_TABLE: ColumnTable<StoredTask, TaskRowField> = new ColumnTable(
  [
    plain('id', 'id', text),
    plain('remoteId', 'remote_id', textOrNull, { patch: z.string().min(1).nullable() }),
    plain('model', 'model', text),
    plain('taskType', 'task_type', text),
    plain('entryId', 'entry_id', textOrNull),
    plain('family', 'family', z.enum(TASK_FAMILIES)),
    plain('title', 'title', text, { patch: z.string() }),
    plain('state', 'state', z.enum(TASK_STATES)),
    plain('remoteStatus', 'remote_status', textOrNull, { patch: z.string().nullable() }),
    mapped({
      field: 'request',
      columns: { request_json: text },
      // copies of the prompts and lyrics for the full-text index
      alsoWrites: ['prompt', 'lyrics'],
      // a Task never carries the webhook secret, only whether one is set (webhook-config.ts)
      read: (stored, id) => withoutWebhookSecret(parseRequestJson(stored.request_json, id)),
      write: (request) => ({ request_json: JSON.stringify(request), ...searchTextOf(request) }),
    }),
    mapped({
      field: 'favorite',
      columns: { favorite: z.union([z.literal(0), z.literal(1)]) },
      read: (stored) => stored.favorite === 1,
      write: (on) => ({ favorite: on ? 1 : 0 }),
    }),
    plain('estimateMicros', 'estimate_micros', numberOrNull),
    mapped({
      field: 'usage',
      columns: { usage_json: textOrNull },
      // the reported consume as a number, summed by the task_totals triggers
      alsoWrites: ['usage_consume'],
      read: (stored, id) =>
        stored.usage_json === null ? null : parseJsonColumn(UsageSchema, stored.usage_json, id, 'usage_json'),
      write: (usage) => ({
        usage_json: usage === null ? null : JSON.stringify(usage),
        usage_consume: usage?.consume ?? null,
      }),
      patch: z
        .strictObject({
          type: z.string().nullable(),
          frozen: z.number().nullable(),
          consume: z.number().nullable(),
        })
        .nullable(),
    }),
    mapped({
      field: 'error',
      columns: { error_kind: textOrNull, error_message: textOrNull, error_code: numberOrNull },
      read: (stored) =>
        stored.error_kind === null
          ? null
          : { kind: stored.error_kind, message: stored.error_message ?? '', code: stored.error_code },
      write: (error) => ({
        error_kind: error?.kind ?? null,
        error_message: error?.message ?? null,
        error_code: error?.code ?? null,
      }),
      patch: z
        .strictObject({ kind: z.string().min(1), message: z.string(), code: z.number().int().nullable() })
        .nullable(),
    }),
    plain('createdAt', 'created_at', text, { write: (value) => toStoredIso(value, 'createdAt') }),
    plain('updatedAt', 'updated_at', text),
    time('submittedAt', 'submitted_at'),
    time('remoteCreatedAt', 'remote_created_at'),
    time('startedAt', 'started_at'),
    time('endedAt', 'ended_at'),
    time('savedAt', 'saved_at'),
    plain('expectedMs', 'expected_ms', numberOrNull),
    plain('parentId', 'parent_id', textOrNull),
    plain('parentOutput', 'parent_output', z.number().int().nonnegative().nullable()),
    // set by migration 6 (its delete trigger, and once for tasks unlinked before it), never by a
    // write of the store
    plain('parentGone', 'parent_gone', textOrNull),
    plain('batchId', 'batch_id', textOrNull),
    // migration 16: the place in the batch, written with the task (absent before it: read as none)
    mapped({
      field: 'batchPlace',
      columns: {
        batch_index: z.number().int().positive().nullable(),
        batch_count: z.number().int().positive().nullable(),
      },
      read: (stored) =>
        stored.batch_index === null || stored.batch_count === null
          ? undefined
          : { index: stored.batch_index, count: stored.batch_count },
      write: (place) => ({ batch_index: place?.index ?? null, batch_count: place?.count ?? null }),
    }),
    // set and cleared by moving to and from Recently deleted (trash-records.ts), never by a patch
    plain('deletedAt', 'deleted_at', textOrNull),
    mapped({
      field: 'settlement',
      columns: { settlement_json: textOrNull },
      read: (stored, id) =>
        stored.settlement_json === null
          ? null
          : parseJsonColumn(SettlementSchema, stored.settlement_json, id, 'settlement_json'),
      write: (settlement) => ({
        settlement_json: settlement === null || settlement === undefined ? null : JSON.stringify(settlement),
      }),
      patch: SettlementSchema.nullable(),
    }),
    mapped({
      field: 'cost',
      // billed_micros is what the task_totals triggers sum as spent (migration 12)
      columns: { cost_json: textOrNull, billed_micros: numberOrNull },
      read: (stored, id) =>
        stored.cost_json === null ? null : parseJsonColumn(CostSchema, stored.cost_json, id, 'cost_json'),
      write: (cost) => ({
        cost_json: cost === null || cost === undefined ? null : JSON.stringify(cost),
        billed_micros: cost?.micros ?? null,
      }),
      patch: CostSchema.nullable(),
    }),
    plain('nextPollAt', 'next_poll_at', numberOrNull, { patch: z.number().int().nullable() }),
    plain('pollCount', 'poll_count', z.number().int(), { patch: z.number().int().nonnegative() }),
  ],
  // the ordering key (sort-key.ts): read for list cursors, never part of a Task
  { seq: z.number().int() },
);

/** The fields a new task row is inserted with; the others start NULL (or 0) in the schema. */
export const INSERTED_TASK_FIELDS = [
  'id',
  'model',
  'taskType',
  'entryId',
  'family',
  'title',
  'state',
  'request',
  'favorite',
  'estimateMicros',
  'createdAt',
  'updatedAt',
  'expectedMs',
  'parentId',
  'parentOutput',
  'batchId',
  'batchPlace',
] as const satisfies readonly TaskRowField[];

export type InsertedTaskFields = Pick<Task, (typeof INSERTED_TASK_FIELDS)[number]>;

export const INSERT_TASK_SQL = insertSql('tasks', [
  'seq',
  ...TASK_TABLE.columnsWrittenBy(INSERTED_TASK_FIELDS),
]);
