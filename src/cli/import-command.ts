/**
 * `media-task import TASK_ID [--wait]`: adds a task created elsewhere (by its id at the service)
 * to the library, with its outputs; with --wait, followed until it ends.
 * `media-task import-file task.json [--wait]`: queues again a task exported by `export` (or the
 * app), with the export folder's input files.
 */
import { FINAL_STATES, type Task } from '../shared/index.ts';
import { FLAG, readArgs, UsageError } from './cli-args.ts';
import type { GlobalOptions } from './global-options.ts';
import { openSession } from './task-session.ts';
import { outcomeCode, report, waitForStates } from './task-waiting.ts';

export async function runImport(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, { wait: FLAG });
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError('usage: media-task import TASK_ID [--wait]');
  const session = await openSession(g, env);
  try {
    if (!session.engine.status().serviceConfigured) {
      throw new UsageError('import needs a service: set MEDIA_TASK_API_KEY and --base-url');
    }
    const task = await session.engine.importRemote(id);
    const tasks = values.wait
      ? await waitForStates(session.engine, [task.id], [...FINAL_STATES, 'uncertain'], false)
      : [task];
    const status = session.engine.status();
    report(g, tasks, status);
    return outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}

export async function runImportFile(
  g: GlobalOptions,
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { values, positionals } = readArgs(argv, { wait: FLAG, 'accept-unknown-price': FLAG });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    throw new UsageError('usage: media-task import-file TASK_JSON [--wait] [--accept-unknown-price]');
  }
  const session = await openSession(g, env);
  try {
    const { engine } = session;
    if (values.wait && !engine.status().serviceConfigured) {
      throw new UsageError(
        '--wait needs a service: set MEDIA_TASK_API_KEY and --base-url, or pass --sandbox',
      );
    }
    const task = await engine.importTaskFile(file, {
      acceptUnknownPrice: values['accept-unknown-price'] === true,
    });
    let tasks: Task[] = [task];
    let note: string | undefined;
    if (!engine.status().serviceConfigured) {
      note =
        'queued locally: no service is set up; it will be sent when the app or `media-task watch` runs with one';
    } else if (values.wait) {
      tasks = await waitForStates(engine, [task.id], [...FINAL_STATES, 'uncertain'], false);
    }
    const status = engine.status();
    report(g, tasks, status, note);
    return outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}
