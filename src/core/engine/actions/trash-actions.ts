/**
 * Recently deleted, the engine's side: moving a selection there (a queued task is cancelled first,
 * so it is never sent; a task the service is working on stays), bringing tasks back, deleting
 * forever (the record and its files, as deleteTask) and emptying it (the purge of what is there
 * for more than TRASH_DAYS is trash-purge.ts's). A selection is resolved page by page (its ids, or its
 * filter less its exceptions, walked by seq), so "every task that matches" never needs all ids
 * at once.
 */
import {
  RUNNING_STATES,
  type TaskSelection,
  type TrashActionOutcome,
  type TrashOutcome,
} from '../../../shared/index.ts';
import type { SelectedTask } from '../../store/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { nextTurn } from '../work-loop.ts';
import { deleteTask } from './task-actions.ts';

/** Tasks per page (and per transaction) of a bulk action. */
const PAGE = 500;
/** Tasks per page of an Undo taken back page by page (~13 ms at a million tasks). */
const RESTORE_PAGE = 200;

/** Each page of a selection's tasks; ids of the selection that are no task go to `missing`. */
function* selectionPages(
  ctx: EngineContext,
  selection: TaskSelection,
  missing: string[],
): Generator<SelectedTask[]> {
  if ('ids' in selection) {
    const ids = [...new Set(selection.ids)];
    for (let at = 0; at < ids.length; at += PAGE) {
      const chunk = ids.slice(at, at + PAGE);
      const found = ctx.store.selectedTasks(chunk);
      const present = new Set(found.map((t) => t.id));
      missing.push(...chunk.filter((id) => !present.has(id)));
      yield found;
    }
    return;
  }
  let after: number | null = null;
  for (;;) {
    const page = ctx.store.selectionPage(selection.filter, selection.except, after, PAGE);
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]?.seq ?? null;
  }
}

export function tellChanged(ctx: EngineContext, ids: readonly string[]): void {
  for (const id of ids) {
    try {
      const task = ctx.store.getTask(id);
      if (task) ctx.events.changed(task);
    } catch (err) {
      ctx.log(`task ${id} could not be read after it moved (${String(err)})`);
    }
  }
}

/**
 * Moves the selected tasks to Recently deleted, all with one deletedAt. A task still queued on
 * this computer is cancelled first (never sent, nothing billed); one the service is working on
 * is left and counted as running (it can be deleted once it has ended).
 */
export function trashTasks(ctx: EngineContext, selection: TaskSelection): TrashOutcome {
  const { store } = ctx;
  const deletedAt = new Date(ctx.clock.now()).toISOString();
  const skipped: string[] = [];
  let moved = 0;
  let running = 0;
  for (const page of selectionPages(ctx, selection, skipped)) {
    const ids = store.transaction(() => {
      const ready: string[] = [];
      for (const task of page) {
        if (task.deletedAt !== null) skipped.push(task.id);
        else if (RUNNING_STATES.includes(task.state)) running += 1;
        else if (task.state !== 'queued' || cancelQueued(ctx, task.id)) ready.push(task.id);
        else running += 1; // it left `queued` for the service in the meantime
      }
      return store.trashTasks(ready, deletedAt);
    });
    moved += ids.length;
    tellChanged(ctx, ids);
  }
  return { moved, running, skipped, deletedAt };
}

function cancelQueued(ctx: EngineContext, id: string): boolean {
  const detail = 'cancelled: moved to Recently deleted before it was sent';
  return ctx.store.transition(id, 'cancelled', { from: ['queued'], detail }) !== null;
}

/** Takes the selected tasks out of Recently deleted (those not in it are skipped). */
export function restoreTasks(ctx: EngineContext, selection: TaskSelection): TrashActionOutcome {
  const skipped: string[] = [];
  let done = 0;
  for (const page of selectionPages(ctx, selection, skipped)) {
    const inTrash = page.filter((t) => t.deletedAt !== null).map((t) => t.id);
    skipped.push(...page.filter((t) => t.deletedAt === null).map((t) => t.id));
    const ids = ctx.store.restoreTasks(inTrash);
    done += ids.length;
    tellChanged(ctx, ids);
  }
  return { done, skipped };
}

/** Takes back the tasks one delete moved (they all got its deletedAt): the window's Undo. */
export function restoreDeletedAt(ctx: EngineContext, deletedAt: string): TrashActionOutcome {
  const ids = ctx.store.restoreTasks(ctx.store.trashedAt(deletedAt));
  tellChanged(ctx, ids);
  return { done: ids.length, skipped: [] };
}

/**
 * restoreDeletedAt a page at a time, the event loop turning between pages: the Undo of a big
 * delete (a retention run of 85,000 tasks at a million held the event loop 9.4 s in one).
 */
export async function restoreDeletedAtInPages(
  ctx: EngineContext,
  deletedAt: string,
): Promise<TrashActionOutcome> {
  const ids = ctx.store.trashedAt(deletedAt);
  let done = 0;
  for (let at = 0; at < ids.length; at += RESTORE_PAGE) {
    if (at > 0) await nextTurn();
    const restored = ctx.store.restoreTasks(ids.slice(at, at + RESTORE_PAGE));
    done += restored.length;
    tellChanged(ctx, restored);
  }
  return { done, skipped: [] };
}

/**
 * Deletes the selected tasks that are in Recently deleted for good: records and files (see
 * deleteTask). Tasks not in it are skipped: nothing leaves the library in one step.
 */
export async function deleteForever(
  ctx: EngineContext,
  selection: TaskSelection,
): Promise<TrashActionOutcome> {
  const skipped: string[] = [];
  const doomed: string[] = [];
  for (const page of selectionPages(ctx, selection, skipped)) {
    for (const task of page) (task.deletedAt === null ? skipped : doomed).push(task.id);
  }
  for (const [i, id] of doomed.entries()) {
    // gone meanwhile (the purge after the opening took it): deleted either way
    if (ctx.store.getTask(id) === null) continue;
    await deleteTask(ctx, id);
    // each delete left a segment in the search index: merged a step at a time (store-core.ts)
    if (i % 4 === 3) ctx.store.mergeSearchIndex();
  }
  return { done: doomed.length, skipped };
}

/** Deletes every task in Recently deleted for good. */
export function emptyTrash(ctx: EngineContext): Promise<TrashActionOutcome> {
  return deleteForever(ctx, { filter: { trashed: true }, except: [] });
}
