/**
 * `media-task import TASK_ID [--wait]`: adds a task created elsewhere (by its id at the service)
 * to the library, with its outputs; with --wait, followed until it ends.
 */
import { FINAL_STATES } from '../shared/index.ts';
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
