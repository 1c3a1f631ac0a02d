/**
 * Recently deleted's purge: the tasks in it for more than TRASH_DAYS are deleted for good, their
 * records and their files. At a million tasks (issue 22, item 6) it never holds the opening: it
 * goes on after it, a batch at a time (one short transaction each, the event loop free between
 * them, so page reads and state changes go between).
 *
 * Nothing is lost and nothing is left behind, whenever the app quits or the disk fails: a batch's
 * rows are deleted in one transaction that also keeps the list of their files
 * ('trash.purging'); the files are removed only once it has committed, then the list is dropped.
 * So no row ever names a folder already removed, and a batch the app quit in the middle of (or
 * whose files could not be removed) has its files removed at the next opening, before anything
 * else is purged. Files are the task's own folders and input files no other task uses (as
 * deleteTask removes them).
 */
import { TRASH_DAYS } from '../../../shared/index.ts';
import { removeTaskFolders } from '../../library/task-folders.ts';
import type { EngineContext } from '../engine-context.ts';
import type { TrashPurgeTuning } from '../engine-options.ts';
import { nextTurn } from './retention-actions.ts';
import { tellChanged } from './trash-actions.ts';

/** The files of the batch whose rows were deleted last, until they are removed. */
const PURGING_SETTING = 'trash.purging';
const DAY_MS = 86_400_000;

export const DEFAULT_TRASH_PURGE_TUNING: Readonly<TrashPurgeTuning> = Object.freeze({ batchTasks: 25 });

/** A purged task's files, as kept until they are removed. */
interface PurgedFiles {
  id: string;
  createdAt: string;
  outputs: { index: number; path: string | null; thumbPath: string | null }[];
  /** Its input files (library paths named by content), removed unless another task uses them. */
  inputFiles: string[];
}

/**
 * After the opening: removes the files a purge the app quit in left, then purges what is due, a
 * batch at a time, until none is left or the engine closes (the next opening goes on). What it
 * did, or why it stopped, goes to the engine's log.
 */
export function startTrashPurge(ctx: EngineContext, tuning: Partial<TrashPurgeTuning> = {}): void {
  const { batchTasks } = { ...DEFAULT_TRASH_PURGE_TUNING, ...tuning };
  const done = purgeBatches(ctx, batchTasks).then(
    (purged) => {
      if (purged > 0)
        ctx.log(`deleted for good ${purged} task(s) in Recently deleted for over ${TRASH_DAYS} days`);
    },
    (err: unknown) => ctx.log(`could not empty the old part of Recently deleted: ${String(err)}`),
  );
  ctx.loop.track(done); // idle and closing wait for its batch
}

async function purgeBatches(ctx: EngineContext, batchTasks: number): Promise<number> {
  const { store } = ctx;
  const left = store.getSetting<PurgedFiles[]>(PURGING_SETTING);
  if (left !== null) await removeFiles(ctx, left);
  const before = new Date(ctx.clock.now() - TRASH_DAYS * DAY_MS).toISOString();
  let purged = 0;
  for (;;) {
    await nextTurn();
    if (ctx.loop.closed) return purged;
    const batch = store.transaction(() => {
      const files: (PurgedFiles & { children: string[] })[] = [];
      for (const id of store.trashedBefore(before, batchTasks)) {
        const task = store.getTask(id);
        if (!task) continue;
        const children = store.childIds(id);
        const removed = store.deleteTask(id); // the tasks made from it keep its title (a trigger)
        files.push({
          id,
          createdAt: task.createdAt,
          outputs: removed.outputs.map((o) => ({ index: o.index, path: o.path, thumbPath: o.thumbPath })),
          inputFiles: removed.inputs.filter((i) => i.source === 'file').map((i) => i.value),
          children,
        });
      }
      if (files.length > 0)
        store.setSetting(
          PURGING_SETTING,
          files.map(({ children: _, ...f }) => f),
        );
      return files;
    });
    if (batch.length === 0) return purged;
    for (const t of batch) ctx.events.removed(t.id);
    tellChanged(
      ctx,
      batch.flatMap((t) => t.children),
    );
    await removeFiles(ctx, batch);
    purged += batch.length;
  }
}

/** Removes the files of tasks whose rows are gone, then forgets them. Throws when one cannot be. */
async function removeFiles(ctx: EngineContext, batch: readonly PurgedFiles[]): Promise<void> {
  for (const task of batch) {
    // only the task's own folders, named from its id: never a folder a stored path names
    const notes = await removeTaskFolders(ctx.libraryDir, task);
    notes.push(...(await ctx.inputFiles.removeUnused(task.inputFiles)));
    for (const note of notes) ctx.log(`deleting task ${task.id}: ${note}`);
  }
  ctx.store.deleteSetting(PURGING_SETTING);
}
