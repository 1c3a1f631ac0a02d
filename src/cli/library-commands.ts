/**
 * The commands that read the library without the service: `get` (one task), `list` (a page of
 * tasks) and `export` (files and a task.json sidecar per task, into a folder). They only read it,
 * so they answer while the app has it open (task-session.ts openToRead).
 */

import { exportTasks } from '../core/library/index.ts';
import {
  isTaskState,
  LIST_ORDERS,
  type ListOrder,
  modelNameOf,
  TASK_TYPES,
  type Task,
  type TaskState,
} from '../shared/index.ts';
import { appVersion } from './app-version.ts';
import { boardNamed } from './board-commands.ts';
import { FLAG, noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson, taskLine, tasksWord } from './task-printing.ts';
import { findTask, openToRead } from './task-session.ts';
import { printErr, printOut } from './terminal-output.ts';

export async function runGet(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { positionals } = readArgs(argv, {});
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError('usage: media-task get ID');
  const session = await openToRead(g, env);
  try {
    const { reader } = session;
    const task = findTask(reader, id);
    if (g.json) {
      // costMicros: what the service billed, in micro-dollars, once it reported it (task.cost has the detail)
      const costMicros = task.cost?.micros ?? null;
      printJson({ task, costMicros, events: reader.store.events(task.id), lineage: reader.lineage(task.id) });
    } else printOut(`${taskLine(task)}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function runList(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    state: VALUE,
    type: VALUE,
    model: VALUE,
    board: VALUE,
    search: VALUE,
    limit: VALUE,
    favorite: FLAG,
    'starred-first': FLAG,
    order: VALUE,
  });
  noPositionals(positionals);
  const states = values.state?.split(',').map((s) => s.trim());
  for (const s of states ?? []) if (!isTaskState(s)) throw new UsageError(`--state: unknown state "${s}"`);
  const order = listOrderOf(values.order, values['starred-first'] === true);
  const limit = numberValue('limit', values.limit) ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit must be 1 to 200');
  const session = await openToRead(g, env);
  try {
    const { store } = session.reader;
    const board = values.board === undefined ? undefined : boardNamed(store, values.board).id;
    const page = store.listTasks({
      states: states as TaskState[] | undefined,
      taskType: values.type,
      model: values.model === undefined ? undefined : modelFilterOf(values.model),
      board,
      search: values.search,
      favorite: values.favorite ? true : undefined,
      order,
      limit,
    });
    if (g.json) printJson(page);
    else {
      for (const t of page.items) printOut(`${taskLine(t)}\n`);
      if (page.items.length === 0) printErr('no tasks match\n');
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

/**
 * `--model`: a model name of the catalog (its vendor, when given, is left out), or the beginning
 * of one name or a family (`ace`, `flux`) when it names one model; else a usage error naming the
 * models it could be, or all of them.
 */
function modelFilterOf(raw: string): string {
  const name = modelNameOf(raw.trim()).toLowerCase();
  const names = [...new Set(TASK_TYPES.map((e) => e.modelName))].sort();
  if (names.includes(name)) return name;
  const matching = name
    ? names.filter((n) =>
        TASK_TYPES.some((e) => e.modelName === n && (n.startsWith(name) || e.historyFamily === name)),
      )
    : [];
  if (matching.length === 1) return matching[0] as string;
  if (matching.length > 1)
    throw new UsageError(
      `--model: "${raw}" could be ${matching.length} models: ${matching.join(', ')}; give one`,
    );
  throw new UsageError(`--model: no model "${raw}" (one of ${names.join(', ')})`);
}

/** `--order` (one of LIST_ORDERS) or the older `--starred-first`; newest first by default. */
function listOrderOf(value: string | undefined, starredFirst: boolean): ListOrder {
  if (value !== undefined && starredFirst)
    throw new UsageError('--order and --starred-first: give one of them');
  if (starredFirst) return 'starredFirst';
  if (value === undefined) return 'newest';
  const order = LIST_ORDERS.find((o) => o === value);
  if (!order) throw new UsageError(`--order: unknown order "${value}" (one of ${LIST_ORDERS.join(', ')})`);
  return order;
}

export async function runExport(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [dir, ...ids] = readArgs(argv, {}).positionals;
  if (!dir) throw new UsageError('usage: media-task export DIR [IDS...]');
  const session = await openToRead(g, env);
  try {
    const { reader } = session;
    const { store } = reader;
    let tasks: Task[];
    if (ids.length) tasks = ids.map((id) => findTask(reader, id));
    else {
      tasks = [];
      let cursor: string | null = null;
      do {
        const page = store.listTasks({ limit: 200, cursor });
        for (const item of page.items) {
          const full = store.getTask(item.id);
          if (full) tasks.push(full);
        }
        cursor = page.nextCursor;
      } while (cursor);
    }
    const result = await exportTasks(
      reader.libraryDir,
      tasks,
      dir,
      (id) => store.boardNamesOf(id),
      appVersion(),
    );
    if (g.json) printJson(result);
    else printOut(`exported ${tasksWord(result.tasks.length)} to ${result.folder}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
