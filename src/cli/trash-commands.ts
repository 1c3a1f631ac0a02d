/**
 * Recently deleted from the command line, as in the window: `delete ID...` moves tasks there
 * (kept with their files for 30 days; a task still queued here is cancelled first, one the
 * service is working on is left), `delete --forever --yes ID...` deletes tasks in Recently
 * deleted for good, `trash` lists it (`trash --empty --yes` empties it), `restore ID...` takes
 * tasks back. These open the library without a service, so nothing is sent while they run; `trash`
 * (the list) only reads, so it answers while the app has the library open.
 */
import type { TaskEngine } from '../core/engine/index.ts';
import { type TaskListItem, TRASH_DAYS } from '../shared/index.ts';
import { FLAG, noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson, taskLine, tasksWord } from './task-printing.ts';
import { openSession, openToRead } from './task-session.ts';
import { printErr, printOut } from './terminal-output.ts';

const DAY_MS = 86_400_000;

/** The local ids of these ids (local or the service's); the ones no task has go to `missing`. */
function localIds(engine: TaskEngine, ids: readonly string[], missing: string[]): string[] {
  const found: string[] = [];
  for (const id of ids) {
    const task = engine.store.getTask(id) ?? engine.store.getTaskByRemoteId(id);
    if (task) found.push(task.id);
    else missing.push(id);
  }
  return found;
}

function sayMissing(missing: readonly string[]): void {
  for (const id of missing) printErr(`no task "${id}" in the library\n`);
}

export async function runDelete(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals: ids } = readArgs(argv, { forever: FLAG, yes: FLAG });
  if (ids.length === 0)
    throw new UsageError('usage: media-task delete ID [ID...] (or --forever --yes ID...)');
  if (values.forever && !values.yes) {
    throw new UsageError(
      'delete --forever removes the tasks and their files for good: add --yes to confirm (only tasks in Recently deleted are deleted forever)',
    );
  }
  const session = await openSession(g, env, { libraryOnly: true });
  try {
    const { engine } = session;
    const missing: string[] = [];
    const found = localIds(engine, ids, missing);
    if (values.forever) {
      const outcome = found.length ? await engine.deleteForever({ ids: found }) : { done: 0, skipped: [] };
      if (g.json)
        printJson({ deletedForever: outcome.done, notInRecentlyDeleted: outcome.skipped, notFound: missing });
      else {
        printOut(`deleted forever ${tasksWord(outcome.done)}, with their files\n`);
        for (const id of outcome.skipped)
          printErr(`${id}: not in Recently deleted (delete it first: media-task delete ${id})\n`);
        sayMissing(missing);
      }
      return missing.length + outcome.skipped.length > 0 ? EXIT.badInput : EXIT.ok;
    }
    const outcome = found.length
      ? engine.trash({ ids: found })
      : { moved: 0, running: 0, skipped: [], deletedAt: null };
    if (g.json) printJson({ ...outcome, notFound: missing });
    else {
      printOut(
        `moved ${tasksWord(outcome.moved)} to Recently deleted (kept with their files for ${TRASH_DAYS} days; media-task restore ID brings one back)\n`,
      );
      if (outcome.running > 0)
        printErr(
          `${tasksWord(outcome.running)} left: the service is working on them; delete them once they have ended\n`,
        );
      for (const id of outcome.skipped) printErr(`${id}: already in Recently deleted\n`);
      sayMissing(missing);
    }
    return missing.length + outcome.running > 0 ? EXIT.badInput : EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function runRestore(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const ids = readArgs(argv, {}).positionals;
  if (ids.length === 0) throw new UsageError('usage: media-task restore ID [ID...]');
  const session = await openSession(g, env, { libraryOnly: true });
  try {
    const { engine } = session;
    const missing: string[] = [];
    const found = localIds(engine, ids, missing);
    const outcome = found.length ? engine.restore({ ids: found }) : { done: 0, skipped: [] };
    if (g.json)
      printJson({ restored: outcome.done, notInRecentlyDeleted: outcome.skipped, notFound: missing });
    else {
      printOut(`restored ${tasksWord(outcome.done)} from Recently deleted\n`);
      for (const id of outcome.skipped) printErr(`${id}: not in Recently deleted\n`);
      sayMissing(missing);
    }
    return missing.length + outcome.skipped.length > 0 ? EXIT.badInput : EXIT.ok;
  } finally {
    await session.close();
  }
}

/** When a task in Recently deleted goes for good. */
function purgeDay(task: TaskListItem): string {
  const at = Date.parse(task.deletedAt ?? '') + TRASH_DAYS * DAY_MS;
  return Number.isFinite(at) ? new Date(at).toISOString().slice(0, 10) : '?';
}

export async function runTrash(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, { empty: FLAG, yes: FLAG, limit: VALUE, search: VALUE });
  noPositionals(positionals);
  if (values.empty && !values.yes) {
    throw new UsageError(
      'trash --empty deletes every task in Recently deleted for good, with its files: add --yes to confirm',
    );
  }
  const limit = numberValue('limit', values.limit) ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit must be 1 to 200');
  if (values.empty) {
    const session = await openSession(g, env, { libraryOnly: true });
    try {
      const outcome = await session.engine.emptyTrash();
      if (g.json) printJson({ deletedForever: outcome.done });
      else
        printOut(`emptied Recently deleted: ${tasksWord(outcome.done)} deleted forever, with their files\n`);
      return EXIT.ok;
    } finally {
      await session.close();
    }
  }
  // the list only reads: it answers while the app has the library open
  const session = await openToRead(g, env);
  try {
    const { store } = session.reader;
    const filter = { trashed: true, ...(values.search ? { search: values.search } : {}) };
    const page = store.listTasks({ ...filter, limit });
    const total = store.countTasks(filter).total;
    if (g.json) printJson({ total, ...page });
    else {
      for (const t of page.items)
        printOut(`${taskLine(t)}\n    deleted ${t.deletedAt}, goes for good on ${purgeDay(t)}\n`);
      printErr(
        total === 0
          ? 'Recently deleted is empty\n'
          : `${tasksWord(total)} in Recently deleted${total > page.items.length ? ` (the newest ${page.items.length} shown)` : ''}\n`,
      );
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
