/**
 * The account's task lists as the real service documents them (catalog-families.md, "task list
 * info and user task history"): `GET /api/open/tasks/histories` pages through every task the
 * key created, newest first, by family (`model`: `llm` for ace-step, `image_toolkit`…) and
 * creation time (`start_time` / `end_time`, unix seconds, inclusive); `GET /account/active_tasks`
 * counts the running ones per family. Records in camelCase, `status` "finished" when completed,
 * `usage`/`usageType` in the units the profile's task records report (hosted: `llm` units of
 * 1e-6 USD for songs, `point`s of 1e-7 USD otherwise; spec: points of 1e-6 USD). Faults never
 * apply to them.
 */
import { badRequest } from './error-body.ts';
import { usageOf } from './hosted-record.ts';
import type { AnswerProfile } from './options.ts';
import type { SandboxTask } from './task-record.ts';
import { statusOf } from './task-record.ts';

/** Largest page the service gives. */
export const HISTORY_MAX_PAGE_SIZE = 100;

/** The family a task is listed under: its entry's history family, else its model's name. */
export function historyFamilyOf(task: SandboxTask): string {
  return task.entry.historyFamily ?? task.entry.modelName;
}

function wholeParam(query: URLSearchParams, name: string, fallback: number | null): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest(`${name}: must be a whole number, got '${raw.slice(0, 40)}'`);
  return Number(raw);
}

function historyStatus(task: SandboxTask): string {
  return task.phase === 'completed' ? 'finished' : statusOf(task);
}

/** A task as a history page lists it; `usage` in the profile's units, as its task record says. */
function historyRecord(task: SandboxTask, profile: AnswerProfile) {
  const family = historyFamilyOf(task);
  const usage = usageOf(task, profile);
  return {
    taskId: task.id,
    taskModel: task.model,
    model: family,
    action: task.taskType,
    status: historyStatus(task),
    usage: task.phase === 'completed' ? usage.consume : usage.frozen,
    usageType: usage.type,
    createdAt: new Date(task.createdAt).toISOString(),
    updatedAt: new Date(task.updatedAt).toISOString(),
    endedAt: task.endedAt === null ? null : new Date(task.endedAt).toISOString(),
  };
}

/** The answer of a history page over `tasks` (the key's, moved up to now). */
export function historyAnswer(
  tasks: readonly SandboxTask[],
  query: URLSearchParams,
  profile: AnswerProfile,
): unknown {
  const page = wholeParam(query, 'page', 1) as number;
  const size = wholeParam(query, 'page_size', 20) as number;
  if (page < 1) throw badRequest('page: pages are counted from 1');
  if (size < 1 || size > HISTORY_MAX_PAGE_SIZE)
    throw badRequest(`page_size: must be from 1 to ${HISTORY_MAX_PAGE_SIZE}, got ${size}`);
  const start = wholeParam(query, 'start_time', null);
  const end = wholeParam(query, 'end_time', null);
  const family = query.get('model') ?? '';
  const listed = tasks
    .filter((t) => family === '' || historyFamilyOf(t) === family)
    .filter((t) => start === null || t.createdAt >= start * 1000)
    .filter((t) => end === null || t.createdAt < (end + 1) * 1000)
    .sort((a, b) => b.seq - a.seq);
  const data = listed.slice((page - 1) * size, page * size).map((t) => historyRecord(t, profile));
  return { code: 200, data: { data, page, size, total: listed.length }, message: 'success' };
}

/** The answer of `GET /account/active_tasks`: per family, its staged, pending and processing tasks. */
export function activeTasksAnswer(tasks: readonly SandboxTask[]): unknown {
  const counts = new Map<string, { staged_count: number; pending_count: number; processing_count: number }>();
  for (const task of tasks) {
    const status = statusOf(task);
    if (status !== 'staged' && status !== 'pending' && status !== 'processing') continue;
    const family = historyFamilyOf(task);
    const row = counts.get(family) ?? { staged_count: 0, pending_count: 0, processing_count: 0 };
    row[`${status}_count`] += 1;
    counts.set(family, row);
  }
  const data = [...counts].map(([model, row]) => ({ model, ...row }));
  return { code: 200, data, message: 'success' };
}
