/**
 * The account's task lists (catalog-families.md): the user task history
 * (`GET /api/open/tasks/histories`, `{code, data: {data: [...], page, size, total}, message}`,
 * records in camelCase) and the running-task counts per family (`GET /account/active_tasks`).
 * Record shapes are known from few sources, so each field is read on its own and the other
 * spelling (snake_case, a `list` for `data`, counts keyed by family) is taken too.
 */
import { z } from 'zod';

const idish = z.union([z.string(), z.number()]).nullish();
const timeish = z.union([z.string(), z.number()]).nullish();
const countish = z.union([z.number(), z.string()]).nullish();

const HistoryRecordSchema = z.looseObject({
  taskId: idish,
  task_id: idish,
  taskModel: z.string().nullish(),
  task_model: z.string().nullish(),
  model: z.string().nullish(),
  action: z.string().nullish(),
  task_type: z.string().nullish(),
  status: z.string().nullish(),
  createdAt: timeish,
  created_at: timeish,
});

export const HistoryAnswerSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  data: z.looseObject({
    data: z.array(HistoryRecordSchema).nullish(),
    list: z.array(HistoryRecordSchema).nullish(),
    page: countish,
    size: countish,
    total: countish,
  }),
});

/** One task of the account's history, as far as the record says. */
export interface HistoryRecord {
  taskId: string;
  /** The model id (vendor/model, as the service wrote it) or, failing that, its family. */
  model: string | null;
  /** The task type. */
  action: string | null;
  /** As the service wrote it, lower-cased (`finished` when done). */
  status: string | null;
  /** Epoch ms; null when the record has no time that reads as one. */
  createdAtMs: number | null;
}

export interface HistoryPage {
  records: HistoryRecord[];
  /** How many tasks match over all pages; null when not said. */
  total: number | null;
}

function countOf(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Epoch ms of a time given as ISO text, unix seconds or unix ms. */
export function historyTimeMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isFinite(n)) return n < 1e11 ? Math.round(n * 1000) : Math.round(n);
  const parsed = Date.parse(String(value));
  return Number.isFinite(parsed) ? parsed : null;
}

export function historyPageOf(parsed: z.infer<typeof HistoryAnswerSchema>): HistoryPage {
  const rows = parsed.data.data ?? parsed.data.list ?? [];
  const records: HistoryRecord[] = [];
  for (const r of rows) {
    const id = r.taskId ?? r.task_id;
    if (id === null || id === undefined || String(id) === '') continue;
    records.push({
      taskId: String(id),
      model: r.taskModel ?? r.task_model ?? r.model ?? null,
      action: r.action ?? r.task_type ?? null,
      status: r.status ? r.status.toLowerCase() : null,
      createdAtMs: historyTimeMs(r.createdAt ?? r.created_at),
    });
  }
  return { records, total: countOf(parsed.data.total) };
}

const CountsSchema = z.looseObject({
  model: z.string().nullish(),
  family: z.string().nullish(),
  staged_count: countish,
  pending_count: countish,
  processing_count: countish,
  stagedCount: countish,
  pendingCount: countish,
  processingCount: countish,
});

export const ActiveTasksAnswerSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  data: z.union([z.array(CountsSchema), z.record(z.string(), CountsSchema)]).nullish(),
});

/** The tasks of one family the service has not finished. */
export interface ActiveTaskCounts {
  /** The family (`llm`, `image_toolkit`…); '' when the answer names none. */
  family: string;
  staged: number;
  pending: number;
  processing: number;
}

export function activeTaskCountsOf(parsed: z.infer<typeof ActiveTasksAnswerSchema>): ActiveTaskCounts[] {
  const data = parsed.data ?? [];
  const rows = Array.isArray(data)
    ? data.map((row) => [row.model ?? row.family ?? '', row] as const)
    : Object.entries(data);
  return rows.map(([family, row]) => ({
    family,
    staged: countOf(row.staged_count ?? row.stagedCount) ?? 0,
    pending: countOf(row.pending_count ?? row.pendingCount) ?? 0,
    processing: countOf(row.processing_count ?? row.processingCount) ?? 0,
  }));
}
