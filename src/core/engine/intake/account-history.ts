/**
 * Bringing in tasks made elsewhere (issue 20, item 2): a page of the account's task history with
 * each row marked by the library task that holds it, and the import of several of those ids at
 * once, each said in words (queued, already in the library, or why it failed). Each import is
 * remote-import.ts's: the task fetched, recorded with its entry by model and task type (none
 * for a pair the catalog does not know: its outputs are then saved as their bytes say), and its
 * outputs downloaded into the library as any task's are.
 */
import {
  type AccountHistoryPage,
  type AccountHistoryQuery,
  HISTORY_PAGE_SIZE,
  historyBoundsMs,
  type RemoteImportOutcome,
} from '../../../shared/index.ts';
import { InputValidationError } from '../../inputs/index.ts';
import { NetworkError, ServiceError, UnauthorizedError } from '../../service/index.ts';
import { assertOpen, type EngineContext } from '../engine-context.ts';
import { HistoryUnavailableError } from '../engine-errors.ts';
import { importRemote } from './remote-import.ts';

/** The sentence for a history that cannot be read, or null when `err` is not about that. */
function historyProblem(err: unknown): string | null {
  if (err instanceof ServiceError && err.status === 404) {
    return 'this service has no task history (it answered HTTP 404), so tasks made elsewhere cannot be listed; a task whose id you know can still be imported by it';
  }
  if (err instanceof NetworkError) return `the service's task history could not be reached: ${err.message}`;
  return null;
}

/** One page of the account's history, newest first; the state filter applies to the page's rows. */
export async function historyPage(
  ctx: EngineContext,
  query: AccountHistoryQuery,
): Promise<AccountHistoryPage> {
  assertOpen(ctx);
  const client = ctx.connection.requireClient();
  const bounds = historyBoundsMs(query);
  if (bounds.fromMs !== undefined && bounds.toMs !== undefined && bounds.fromMs > bounds.toMs) {
    throw new InputValidationError('since', `since: ${query.since} is after until: ${query.until}`);
  }
  let answer: Awaited<ReturnType<typeof client.history>>;
  try {
    answer = await client.history({
      page: query.page,
      pageSize: HISTORY_PAGE_SIZE,
      ...(query.family ? { family: query.family } : {}),
      ...bounds,
    });
  } catch (err) {
    const problem = historyProblem(err);
    if (problem) throw new HistoryUnavailableError(problem);
    throw err;
  }
  const rows = answer.records
    .filter((r) => !query.state || r.status === query.state)
    .map((r) => ({
      remoteId: r.taskId,
      model: r.model,
      taskType: r.action,
      status: r.status,
      createdAt: r.createdAtMs === null ? null : new Date(r.createdAtMs).toISOString(),
      inLibrary: ctx.store.getTaskByRemoteId(r.taskId)?.id ?? null,
    }));
  const hasMore =
    answer.total === null
      ? answer.records.length >= HISTORY_PAGE_SIZE
      : query.page * HISTORY_PAGE_SIZE < answer.total;
  return { page: query.page, rows, total: answer.total, hasMore };
}

/** Why an import of one id failed, in words. */
function importProblem(err: unknown): string {
  if (err instanceof ServiceError && err.status === 404) {
    return 'the service does not know this task (it may have been made with another key, or be no longer kept)';
  }
  return err instanceof Error ? err.message : String(err);
}

/** Brings in each id in turn: an id already in the library is skipped, a failure is said and the rest go on. */
export async function importRemoteTasks(
  ctx: EngineContext,
  ids: readonly string[],
): Promise<RemoteImportOutcome[]> {
  assertOpen(ctx);
  ctx.connection.requireClient();
  const outcomes: RemoteImportOutcome[] = [];
  for (const remoteId of new Set(ids.map((id) => id.trim()))) {
    const held = ctx.store.getTaskByRemoteId(remoteId);
    if (held) {
      outcomes.push({
        remoteId,
        outcome: 'skipped',
        taskId: held.id,
        message: `already in the library as “${held.title}”`,
      });
      continue;
    }
    try {
      const task = await importRemote(ctx, remoteId);
      outcomes.push({
        remoteId,
        outcome: 'queued',
        taskId: task.id,
        message: `imported as “${task.title}”; its results are being saved`,
      });
    } catch (err) {
      // a refused key fails every id alike: said once, by the caller
      if (err instanceof UnauthorizedError) throw err;
      outcomes.push({ remoteId, outcome: 'failed', taskId: null, message: importProblem(err) });
    }
  }
  return outcomes;
}
