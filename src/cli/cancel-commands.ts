/**
 * `media-task cancel ID [ID...]`: cancels tasks still queued on this computer (the engine's
 * `cancel`, the window's Cancel); `media-task cancel --batch BATCH_ID`: cancels the rest of a
 * batch (the engine's `cancelBatch`, the window's "Cancel the rest"); `media-task batches`: the
 * batches with their progress (the engine's `batches`, as Activity shows them).
 *
 * The engine cancels only tasks the service never saw: a task already sent goes on and is billed
 * (the service has no cancel call). These commands open the library without a service, so no
 * queued task is sent while they run; `batches` only reads, so it answers while the app has it open.
 */
import { TaskActionError, type TaskEngine } from '../core/engine/index.ts';
import {
  type BatchSummary,
  batchCancelText,
  batchCostWords,
  RUNNING_STATES,
  type Task,
  type TaskState,
} from '../shared/index.ts';
import { noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { openSession, openToRead } from './task-session.ts';
import { printErr, printOut } from './terminal-output.ts';

/** What `cancel` found for one id. */
export type CancelOutcome =
  /** It was still queued on this computer: cancelled now, never sent, nothing billed. */
  | 'cancelled'
  /** The service has it (or has done it): it goes on and is billed. */
  | 'sent'
  /** Its create may have reached the service: the user decides (submit again or discard). */
  | 'uncertain'
  /** It had ended before (saved, failed, cancelled, expired). */
  | 'ended'
  | 'not-found';

export interface CancelResult {
  /** The id as given (local or the service's). */
  id: string;
  /** The task's local id; null when not found. */
  taskId: string | null;
  outcome: CancelOutcome;
  /** The task's state after the command; null when not found. */
  state: TaskState | null;
  message: string;
}

/** Why the engine's cancel left a task as it is, by its state. */
function refusalOf(task: Task): { outcome: CancelOutcome; message: string } {
  const s = task.state;
  if (s === 'completed' || s === 'downloading') {
    return {
      outcome: 'sent',
      message: `not cancelled: the service has already done it (${s}) and bills it; its result is being saved`,
    };
  }
  if (RUNNING_STATES.includes(s)) {
    return {
      outcome: 'sent',
      message: `not cancelled: the service already has it (${s}); it goes on and is billed (the service has no cancel call)`,
    };
  }
  if (s === 'uncertain') {
    return {
      outcome: 'uncertain',
      message:
        'not cancelled: its create may have reached the service (and been billed); only queued tasks can be cancelled. Submit it again or discard it in the app',
    };
  }
  if (s === 'cancelled') return { outcome: 'ended', message: 'already cancelled; nothing to cancel' };
  return { outcome: 'ended', message: `already ended (${s}); nothing to cancel` };
}

/** Cancels one task by the engine's rule, and says what happened. */
function cancelOne(engine: TaskEngine, id: string): CancelResult {
  const found = engine.store.getTask(id) ?? engine.store.getTaskByRemoteId(id);
  if (!found) {
    return { id, taskId: null, outcome: 'not-found', state: null, message: `no task "${id}" in the library` };
  }
  try {
    const task = engine.cancel(found.id);
    // a task once uncertain was queued again on the user's word: its first create may have
    // reached the service, so only the new sending is called off
    const wasUncertain = engine.store.events(task.id).some((e) => e.to === 'uncertain');
    return {
      id,
      taskId: task.id,
      outcome: 'cancelled',
      state: task.state,
      message: wasUncertain
        ? 'cancelled before it was sent again; its earlier create may have reached the service (and been billed)'
        : 'cancelled: it was still queued on this computer and never sent; nothing was billed',
    };
  } catch (err) {
    if (!(err instanceof TaskActionError)) throw err;
    const now = engine.store.getTask(found.id) ?? found;
    return { id, taskId: now.id, state: now.state, ...refusalOf(now) };
  }
}

/** Cancelled now, or already cancelled: the task will not be sent. */
function isCancelled(r: CancelResult): boolean {
  return r.state === 'cancelled';
}

export async function runCancel(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, { batch: VALUE });
  const batchId = values.batch;
  if (batchId !== undefined) {
    if (batchId.trim() === '') throw new UsageError('--batch needs a batch id');
    if (positionals.length) throw new UsageError('give task ids or --batch BATCH_ID, not both');
  } else if (positionals.length === 0) {
    throw new UsageError('usage: media-task cancel ID [ID...] | media-task cancel --batch BATCH_ID');
  }
  const session = await openSession(g, env, { libraryOnly: true });
  try {
    const { engine } = session;
    if (batchId !== undefined) {
      // throws TaskActionError (exit 2) when no task has this batch id
      const view = engine.cancelBatch(batchId);
      const batch = engine.batches(batchId)[0] ?? null;
      if (g.json) printJson({ result: view, batch });
      else printOut(`batch ${view.batchId}: ${batchCancelText(view)}\n`);
      return EXIT.ok;
    }
    const results = positionals.map((id) => cancelOne(engine, id));
    if (g.json) printJson({ results });
    else for (const r of results) printOut(`${r.taskId ?? r.id}  ${r.message}\n`);
    return results.every(isCancelled) ? EXIT.ok : EXIT.badInput;
  } finally {
    await session.close();
  }
}

/** "2 done, 1 failed, 3 left of 6 (1 at the service, 2 queued here, 1 cancelled)". */
function batchProgressText(b: BatchSummary): string {
  const left = b.queued + b.active + b.uncertain;
  const parts = [
    b.active > 0 ? `${b.active} at the service` : '',
    b.queued > 0 ? `${b.queued} queued here` : '',
    b.uncertain > 0 ? `${b.uncertain} uncertain` : '',
    b.cancelled > 0 ? `${b.cancelled} cancelled` : '',
  ].filter((p) => p !== '');
  const detail = parts.length ? ` (${parts.join(', ')})` : '';
  return `${b.done} done, ${b.failed} failed, ${left} left of ${b.total}${detail}`;
}

function batchLine(b: BatchSummary): string {
  const more = b.total > 1 ? ` and ${b.total - 1} more` : '';
  // its cost in its tasks' own figures: charged, pending, not billed
  return `${b.batchId}  ${b.taskType.padEnd(10)} ${b.title}${more} ${batchCostWords(b.cost)}\n    ${batchProgressText(b)}`;
}

export async function runBatches(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, { limit: VALUE });
  const [batchId, ...extra] = positionals;
  noPositionals(extra);
  const limit = numberValue('limit', values.limit) ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit must be 1 to 200');
  // only reads: it answers while the app has the library open
  const session = await openToRead(g, env);
  try {
    // without an id: the batches with a task not ended yet, newest first (Activity's groups)
    const batches = session.reader.batches(batchId).slice(0, limit);
    if (batchId !== undefined && batches.length === 0)
      throw new UsageError(`no batch "${batchId}" in the library`);
    if (g.json) printJson({ batches });
    else {
      for (const b of batches) printOut(`${batchLine(b)}\n`);
      if (batches.length === 0) printErr('no batch has a task left to do\n');
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
