/**
 * `media-task settle ID --remote REMOTE_ID`: an uncertain task whose create the service's history
 * may hold more than once (the engine lists them on the task: `get ID` shows its settlement) is
 * taken to be the service's task REMOTE_ID, as the window's "This one" does. Nothing is sent
 * again; the task is fetched, and polled and saved like any other (now or at the next run).
 */
import { readArgs, UsageError, VALUE } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { findTask, openSession } from './task-session.ts';
import { printOut } from './terminal-output.ts';

const USAGE = 'usage: media-task settle ID --remote REMOTE_ID';

export async function runSettle(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, { remote: VALUE });
  const remote = typeof values.remote === 'string' ? values.remote.trim() : '';
  if (positionals.length !== 1 || remote === '') throw new UsageError(USAGE);
  const session = await openSession(g, env);
  try {
    const { engine } = session;
    const task = findTask(engine, positionals[0] as string);
    const settled = await engine.settle(task.id, remote);
    // the task is the service's now: let it be fetched (and saved when done) before closing, but
    // not Recently deleted's purge or retention's run the opening started (minutes in a big library)
    await engine.idle({ background: false });
    const now = engine.store.getTask(settled.id) ?? settled;
    if (g.json) printJson(now);
    else printOut(`${now.id}: taken as the service's task ${remote}, nothing sent again; now ${now.state}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
