/**
 * Recently deleted's purge: the tasks in it for more than TRASH_DAYS are deleted for good, their
 * records and their files. At a million tasks (issue 22, item 6) it never holds the opening: it
 * goes on after it, a batch at a time (one short transaction each, at most batchTasks tasks or
 * about batchMs, the event loop free between them, so page reads and state changes go between),
 * the search index's merging and the WAL's checkpoint in turns of their own between batches.
 *
 * Nothing is lost and nothing is left behind, whenever the app quits or the disk fails: a batch's
 * rows are deleted in one transaction that also keeps the list of their files
 * ('trash.purging'); the files are removed only once it has committed, then the list is dropped.
 * So no row ever names a folder already removed, and a batch the app quit in the middle of (or
 * whose files could not be removed) has its files removed at the next opening, before anything
 * else is purged. Files are the task's own folders and input files no other task uses (as
 * deleteTask removes them).
 */
import { z } from 'zod';
import { TRASH_DAYS } from '../../../shared/index.ts';
import { tasksWord } from '../../../shared/task/task-count-words.ts';
import { removeTaskFolders } from '../../library/task-folders.ts';
import type { EngineContext } from '../engine-context.ts';
import type { TrashPurgeTuning } from '../engine-options.ts';
import { nextTurn } from '../work-loop.ts';
import { tellChanged } from './trash-actions.ts';

/** The files of the batch whose rows were deleted last, until they are removed. */
const PURGING_SETTING = 'trash.purging';
const DAY_MS = 86_400_000;

export const DEFAULT_TRASH_PURGE_TUNING: Readonly<TrashPurgeTuning> = Object.freeze({
  batchTasks: 25,
  batchMs: 8,
});
/** The first batch's size at most, before the purge knows the library's pace. */
const FIRST_BATCH_TASKS = 5;
/** Tasks purged between two checkpoints: ~800 pages of WAL (a delete writes ~8), ~5 ms to copy. */
const CHECKPOINT_TASKS = 100;

/** A purged task's files, as kept until they are removed. */
const PurgedFilesSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  outputs: z.array(
    z.object({ index: z.number(), path: z.string().nullable(), thumbPath: z.string().nullable() }),
  ),
  /** Its input files (library paths named by content), removed unless another task uses them. */
  inputFiles: z.array(z.string()),
});
type PurgedFiles = z.infer<typeof PurgedFilesSchema>;

/**
 * After the opening: removes the files a purge the app quit in left, then purges what is due, a
 * batch at a time, until none is left or the engine closes (the next opening goes on). What it
 * did, or why it stopped, goes to the engine's log.
 */
export function startTrashPurge(ctx: EngineContext, tuning: Partial<TrashPurgeTuning> = {}): void {
  const done = purgeBatches(ctx, { ...DEFAULT_TRASH_PURGE_TUNING, ...tuning }).then(
    (purged) => {
      if (purged > 0)
        ctx.log(`deleted for good ${tasksWord(purged)} in Recently deleted for over ${TRASH_DAYS} days`);
    },
    (err: unknown) => ctx.log(`could not empty the old part of Recently deleted: ${String(err)}`),
  );
  ctx.loop.track(done, { background: true }); // closing waits for its batch, idle too unless told
}

async function purgeBatches(ctx: EngineContext, { batchTasks, batchMs }: TrashPurgeTuning): Promise<number> {
  const { store } = ctx;
  const left = leftFiles(ctx);
  if (left !== null) await removeFiles(ctx, left);
  const before = new Date(ctx.clock.now() - TRASH_DAYS * DAY_MS).toISOString();
  let purged = 0;
  let size = Math.min(batchTasks, FIRST_BATCH_TASKS);
  let sinceCheckpoint = 0;
  for (;;) {
    await nextTurn();
    if (ctx.loop.closed) return purged;
    const started = performance.now();
    const batch = store.transaction(() => {
      const due = store.trashedBefore(before, size).flatMap((id) => {
        const task = store.getTask(id);
        return task ? [{ id, createdAt: task.createdAt, children: store.childIds(id) }] : [];
      });
      // one DELETE for the batch: the tasks made from them keep their titles (a trigger)
      const removed = store.deleteTasks(due.map((t) => t.id));
      const files = due.map((t, i): PurgedFiles & { children: string[] } => ({
        ...t,
        outputs: (removed[i]?.outputs ?? []).map((o) => ({
          index: o.index,
          path: o.path,
          thumbPath: o.thumbPath,
        })),
        inputFiles: (removed[i]?.inputs ?? []).filter((x) => x.source === 'file').map((x) => x.value),
      }));
      if (files.length > 0)
        store.setSetting(
          PURGING_SETTING,
          files.map(({ children: _, ...f }) => f),
        );
      return files;
    });
    if (batch.length === 0) return purged;
    // the next batch as big as fits in batchMs at this one's pace (a delete takes ~0.3 ms of CPU
    // at a million tasks), so a page read or a state change never waits long
    const perTask = (performance.now() - started) / batch.length;
    size = Math.max(1, Math.min(batchTasks, Math.floor(batchMs / Math.max(perTask, 0.01))));
    for (const t of batch) ctx.events.removed(t.id);
    tellChanged(
      ctx,
      batch.flatMap((t) => t.children),
    );
    await removeFiles(ctx, batch);
    purged += batch.length;
    // what the batch's writes leave to do, each in a turn of its own rather than inside the next
    // batch's commit: a step of the search index's merging, and the WAL copied into the database
    // every CHECKPOINT_TASKS (SQLite's own checkpoint, at 4,000 pages, took 20-30 ms of CPU)
    await nextTurn();
    if (ctx.loop.closed) return purged;
    store.mergeSearchIndex();
    sinceCheckpoint += batch.length;
    if (sinceCheckpoint >= CHECKPOINT_TASKS) {
      await nextTurn();
      store.checkpoint();
      sinceCheckpoint = 0;
    }
  }
}

/** The files a purge the app quit in left (null: none, or a list that cannot be read, dropped). */
function leftFiles(ctx: EngineContext): PurgedFiles[] | null {
  try {
    return ctx.store.getSetting(PURGING_SETTING, z.array(PurgedFilesSchema));
  } catch (err) {
    ctx.log(`the files a purge left to remove could not be read, so they stay: ${String(err)}`);
    ctx.store.deleteSetting(PURGING_SETTING);
    return null;
  }
}

/**
 * Removes the files of tasks whose rows are gone, then forgets them; a task the library still
 * has keeps its folders (a list that names one was not written by a purge). Throws when a file
 * cannot be removed (the list stays for the next opening).
 */
async function removeFiles(ctx: EngineContext, batch: readonly PurgedFiles[]): Promise<void> {
  const present = new Set(ctx.store.selectedTasks(batch.map((t) => t.id)).map((t) => t.id));
  for (const task of batch) {
    if (present.has(task.id)) continue;
    // only the task's own folders, named from its id: never a folder a stored path names
    const notes = await removeTaskFolders(ctx.libraryDir, task);
    notes.push(...(await ctx.inputFiles.removeUnused(task.inputFiles)));
    for (const note of notes) ctx.log(`deleting task ${task.id}: ${note}`);
  }
  ctx.store.deleteSetting(PURGING_SETTING);
}
