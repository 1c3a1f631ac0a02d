/**
 * What the user does to a task already in the library: cancel it (or its batch) while only
 * queued here, send an uncertain one again or give it up, try failed downloads again, check it
 * now, run it again, favourite, rename, delete. Each refusal says which tasks the action is for.
 */

import type { DraftView, TaskDraft } from '../../../shared/index.ts';
import {
  type BatchCancelView,
  ENGINE_WORK_STATES,
  REMOTE_ACTIVE_STATES,
  type Task,
} from '../../../shared/index.ts';
import { webhookEndpointOf, webhookSecretSet } from '../../../shared/task/webhook-config.ts';
import { InputValidationError } from '../../inputs/index.ts';
import { libraryFileOf, removeTaskFolders } from '../../library/index.ts';
import { assertOpen, type EngineContext } from '../engine-context.ts';
import { TaskActionError } from '../engine-errors.ts';
import { queueTask } from '../intake/task-intake.ts';
import { reopenFailedDownloads } from '../saving/output-downloads.ts';
import type { ResultDownloads } from '../saving/result-downloads.ts';

/** Why `action` cannot be done to task `id` as it is now. */
function cannot(ctx: EngineContext, id: string, action: string, allowed: string): string {
  const t = ctx.store.getTask(id);
  if (!t) return `no task ${id} in the library`;
  return `cannot ${action} a task that is ${t.state}: ${allowed} can be`;
}

/** Refuses an action that would send a task in Recently deleted again, or download for it. */
function assertNotTrashed(ctx: EngineContext, id: string, action: string): void {
  if (ctx.store.getTask(id)?.deletedAt) {
    throw new TaskActionError(`cannot ${action} a task in Recently deleted: restore it first`);
  }
}

/** Cancels a task that is still only queued locally (the service never saw it). */
export function cancelTask(ctx: EngineContext, id: string): Task {
  const task = ctx.store.transition(id, 'cancelled', { from: ['queued'], detail: 'cancelled by the user' });
  if (!task) throw new TaskActionError(cannot(ctx, id, 'cancel', 'only tasks still queued on this computer'));
  ctx.events.changed(task);
  return task;
}

/** Sends an uncertain task again, on the user's word (it may be billed twice). */
export function resubmitTask(ctx: EngineContext, id: string): Task {
  assertNotTrashed(ctx, id, 'submit again');
  const task = ctx.store.transition(id, 'queued', {
    from: ['uncertain'],
    patch: { error: null, settlement: null },
    detail: 'submitted again by the user',
  });
  if (!task) throw new TaskActionError(cannot(ctx, id, 'submit again', 'only uncertain tasks'));
  ctx.events.changed(task);
  ctx.loop.kick();
  return task;
}

/**
 * Downloads a task's failed outputs again (after their tries were used up, or a refusal
 * such as an address inside the user's network): the task goes back to `completed`.
 */
export function retryDownloads(ctx: EngineContext, downloads: ResultDownloads, id: string): Task {
  assertOpen(ctx);
  assertNotTrashed(ctx, id, 'retry the downloads of');
  const reopened = reopenFailedDownloads(ctx.store, id);
  if (typeof reopened === 'string') throw new TaskActionError(reopened);
  downloads.forgetTries(id);
  ctx.events.changed(reopened);
  ctx.loop.kick();
  return reopened;
}

/**
 * Asks the service about a task it holds now, instead of at the next scheduled fetch (the
 * user's answer to a slow retry after unreadable answers, or impatience).
 */
export function checkNow(ctx: EngineContext, id: string): Task {
  assertOpen(ctx);
  const task = ctx.store.getTask(id);
  if (!task || !REMOTE_ACTIVE_STATES.includes(task.state)) {
    throw new TaskActionError(cannot(ctx, id, 'check now', 'tasks the service is working on'));
  }
  ctx.store.setPollSchedule(id, { nextPollAt: ctx.clock.now() });
  ctx.loop.kick();
  return task;
}

/** Gives up an uncertain task without sending it again. */
export function discardTask(ctx: EngineContext, id: string): Task {
  const task = ctx.store.transition(id, 'cancelled', {
    from: ['uncertain'],
    detail: 'discarded by the user',
  });
  if (!task) throw new TaskActionError(cannot(ctx, id, 'discard', 'only uncertain tasks'));
  ctx.events.changed(task);
  return task;
}

/** A new queued task with the same model, type and inputs. */
export async function rerunTask(ctx: EngineContext, id: string): Promise<Task> {
  const task = ctx.store.getTask(id);
  if (!task) throw new TaskActionError(`no task ${id} in the library`);
  return queueTask(ctx, { ...draftOf(ctx.libraryDir, task), parentId: task.id, parentOutput: null });
}

/**
 * Cancels the tasks of a batch that are still only queued locally, in one transaction; the
 * others go on. Says how many were cancelled, how many the service already has, how many had
 * ended, and how many wait for the user's decision (uncertain).
 */
export function cancelBatch(ctx: EngineContext, batchId: string): BatchCancelView {
  const { store } = ctx;
  const tasks = store.batchStates(batchId);
  if (tasks.length === 0) throw new TaskActionError(`no batch ${batchId} in the library`);
  const cancelled = store.transaction(() =>
    tasks
      .filter((t) => t.state === 'queued')
      .map((t) =>
        store.transition(t.id, 'cancelled', { from: ['queued'], detail: 'cancelled with its batch' }),
      )
      .filter((t): t is Task => t !== null),
  );
  for (const task of cancelled) ctx.events.changed(task);
  // queued again after an uncertain create: only the new sending is called off
  const afterUncertain = cancelled.filter((t) => store.events(t.id).some((e) => e.to === 'uncertain'));
  const now = store.batchStates(batchId);
  const sent = now.filter((t) => t.state !== 'queued' && ENGINE_WORK_STATES.includes(t.state));
  // uncertain is outside ENGINE_WORK_STATES but has not ended: it waits for the user's decision
  const uncertain = now.filter((t) => t.state === 'uncertain');
  const ended = now.filter((t) => t.state !== 'uncertain' && !ENGINE_WORK_STATES.includes(t.state));
  return {
    batchId,
    cancelled: cancelled.length,
    cancelledAfterUncertain: afterUncertain.length,
    alreadySent: sent.length,
    ended: ended.length - cancelled.length,
    uncertain: uncertain.length,
  };
}

/** The draft that would recreate a task (file inputs point at the library's copies). */
export function draftOf(libraryDir: string, task: Task): TaskDraft {
  const input: Record<string, unknown> = { ...task.request.input };
  for (const inp of task.inputs) {
    if (inp.source === 'file')
      input[inp.field] = libraryFileOf(libraryDir, inp.value, `input ${JSON.stringify(inp.field)}`);
  }
  // the secret is not shown: a re-run keeps it by naming this task (webhook-config.ts)
  const endpoint = webhookEndpointOf(task.request);
  const kept = webhookSecretSet(task.request) ? { sameSecretAs: task.id } : {};
  return {
    model: task.model,
    taskType: task.taskType,
    input,
    webhook: endpoint ? { endpoint, secret: '', ...kept } : null,
    title: task.title,
  };
}

/** The draft a re-run opens the composer with: every field filled, and the names of the files given. */
export function draftViewOf(libraryDir: string, task: Task): DraftView {
  const draft = draftOf(libraryDir, task);
  return {
    model: draft.model,
    taskType: draft.taskType,
    input: draft.input,
    webhook: draft.webhook ?? null,
    title: draft.title ?? task.title,
    fileNames: Object.fromEntries(
      task.inputs.flatMap((i) => (i.source === 'file' && i.name ? [[i.field, i.name]] : [])),
    ),
  };
}

export function setFavorite(ctx: EngineContext, id: string, favorite: boolean): Task {
  ctx.store.setFavorite(id, favorite);
  return ctx.events.changedById(id);
}

export function renameTask(ctx: EngineContext, id: string, title: string): Task {
  const clean = title.trim();
  if (clean === '') throw new InputValidationError('title', 'title: must not be empty');
  ctx.store.rename(id, clean.slice(0, 200));
  return ctx.events.changedById(id);
}

/**
 * Deletes the record and its files (its input files only when no other task uses them) for good:
 * what "Delete forever", emptying Recently deleted and its purge do (trash-actions.ts); the
 * window's and the CLI's delete moves tasks to Recently deleted instead. Refused while the
 * service is working on it.
 */
export async function deleteTask(ctx: EngineContext, id: string): Promise<void> {
  const task = ctx.store.getTask(id);
  if (!task) throw new TaskActionError(`no task ${id} in the library`);
  if (task.state !== 'queued' && ENGINE_WORK_STATES.includes(task.state)) {
    // the service has it (and bills it): deleting now would lose a result already paid for
    throw new TaskActionError(
      `this task is ${task.state} at the service; it can be deleted once its result is saved (or cancel it while it is still queued)`,
    );
  }
  // the tasks made from it lose the link and keep its title (the store's delete trigger)
  const children = ctx.store.childIds(id);
  const removed = ctx.store.deleteTask(id);
  // only the task's own folders, named from its id: never a folder a stored path names
  const notes = await removeTaskFolders(ctx.libraryDir, { ...task, outputs: removed.outputs });
  // its input files, named by their content, unless another task uses them
  const files = removed.inputs.filter((i) => i.source === 'file').map((i) => i.value);
  notes.push(...(await ctx.inputFiles.removeUnused(files)));
  for (const note of notes) ctx.log(`deleting task ${id}: ${note}`);
  ctx.events.removed(id);
  for (const child of children) {
    try {
      const task = ctx.store.getTask(child);
      if (task) ctx.events.changed(task);
    } catch (err) {
      // an unreadable row: the window learns of it when it lists it
      ctx.log(`deleting task ${id}: task ${child} made from it could not be read (${String(err)})`);
    }
  }
}
