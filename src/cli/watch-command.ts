/**
 * `media-task watch [--until-idle]`: runs the engine on the library and prints each task change
 * and status change until Ctrl-C, or with --until-idle until nothing is left to send or fetch.
 */
import type { EngineStatus } from '../core/engine/index.ts';
import { ENGINE_WORK_STATES, type Task } from '../shared/index.ts';
import { FLAG, readArgs } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { taskLine } from './task-printing.ts';
import { openSession } from './task-session.ts';
import { CLI_AUTH_PROBLEM } from './task-waiting.ts';
import { printErr, printOut, terminalJson } from './terminal-output.ts';

export async function runWatch(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const untilIdle = readArgs(argv, { 'until-idle': FLAG }).values['until-idle'] === true;
  const session = await openSession(g, env);
  const { engine } = session;
  const printTask = (task: Task) => {
    if (g.json) printOut(`${terminalJson({ event: 'task', task })}\n`);
    else printOut(`${taskLine(task)}\n`);
  };
  const printStatus = (status: EngineStatus) => {
    if (g.json) printOut(`${terminalJson({ event: 'status', status })}\n`);
    else {
      const problem = status.authProblem
        ? `, ${CLI_AUTH_PROBLEM}`
        : status.storageProblem
          ? `, ${status.storageProblem}`
          : '';
      printErr(`status: ${status.online ? 'online' : 'offline'}${problem}\n`);
    }
  };
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const checkIdle = () => {
    if (!untilIdle) return;
    const status = engine.status();
    if (status.authProblem || !status.serviceConfigured) stop();
    else if (engine.store.countInStates(ENGINE_WORK_STATES) === 0) stop();
  };
  // listeners stay subscribed until the engine is closed, so its last changes are printed too
  const offChanges = engine.onTaskChanges((changes) => {
    for (const change of changes) if (change.task) printTask(change.task);
    checkIdle();
  });
  const offStatus = engine.onStatus((status) => {
    printStatus(status);
    checkIdle();
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    checkIdle();
    await stopped;
    const status = engine.status();
    if (!status.serviceConfigured) {
      printErr(
        'media-task: no service is set up, so nothing can be sent (set MEDIA_TASK_API_KEY and --base-url)\n',
      );
    }
    return status.authProblem ? EXIT.auth : EXIT.ok;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await session.close();
    offChanges();
    offStatus();
  }
}
