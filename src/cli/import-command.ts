/**
 * `media-task import TASK_ID... [--wait]`: adds tasks created elsewhere (by their ids at the service,
 * as `history` lists them) to the library, with their outputs; an id already there is skipped and
 * said, one that fails is said on stderr (exit 2) and the others go on; with --wait, followed
 * until they end.
 * `media-task import-file task.json [FIELD=FILE ...] [--yes] [--keep-webhook] [--wait]`: shows what
 * a task exported by `export` (or the app, or anyone) would queue, and queues it only with
 * --yes: inputs from the export folder's files or files picked as FIELD=FILE, its webhook only
 * with --keep-webhook (task-file-import.ts). A result file the app made (a picture, sound, video
 * or 3D model) stands for its task.json: the task its embedded parameters or its checksum name.
 */
import { resolve } from 'node:path';
import { FINAL_STATES, type Task } from '../shared/index.ts';
import { FLAG, readArgs, UsageError } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { fieldsNeedingFiles, taskFileSummary } from './task-file-summary.ts';
import { printJson } from './task-printing.ts';
import { openSession } from './task-session.ts';
import { outcomeCode, report, waitForStates } from './task-waiting.ts';
import { printErr, printOut } from './terminal-output.ts';

export async function runImport(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, { wait: FLAG });
  if (positionals.length === 0) throw new UsageError('usage: media-task import TASK_ID... [--wait]');
  const session = await openSession(g, env);
  try {
    if (!session.engine.status().serviceConfigured) {
      throw new UsageError('import needs a service: set MEDIA_TASK_API_KEY and --base-url');
    }
    const outcomes = await session.engine.importRemoteTasks(positionals);
    const ids = outcomes.flatMap((o) => (o.taskId === null ? [] : [o.taskId]));
    const tasks = values.wait
      ? await waitForStates(session.engine, ids, [...FINAL_STATES, 'uncertain'], false)
      : ids.map((id) => session.engine.store.getTask(id)).filter((t): t is Task => t !== null);
    const status = session.engine.status();
    const failed = outcomes.filter((o) => o.outcome === 'failed');
    if (g.json) printJson({ imports: outcomes, tasks, status });
    else {
      for (const o of outcomes) {
        if (o.outcome !== 'failed') printOut(`${o.remoteId}: ${o.message}\n`);
      }
      report(g, tasks, status);
    }
    for (const o of failed) printErr(`media-task: ${o.remoteId}: ${o.message}\n`);
    // an id the service does not know (or could not give) is the input that was wrong
    return failed.length > 0 ? EXIT.badInput : outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}

/** The files picked on the command line, `FIELD=FILE` each, by field (paths resolved against the working folder). */
function pickedFiles(words: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at < 1 || at === word.length - 1) {
      throw new UsageError(
        `"${word}" is not FIELD=FILE (a file you pick for an input, e.g. target_image=./me.png)`,
      );
    }
    files[word.slice(0, at)] = resolve(word.slice(at + 1));
  }
  return files;
}

const IMPORT_FILE_USAGE =
  'usage: media-task import-file TASK_JSON|FILE [FIELD=FILE ...] [--yes] [--keep-webhook] [--wait] [--accept-unknown-price]';

export async function runImportFile(
  g: GlobalOptions,
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    yes: FLAG,
    'keep-webhook': FLAG,
    wait: FLAG,
    'accept-unknown-price': FLAG,
  });
  const [file, ...picks] = positionals;
  if (!file) throw new UsageError(IMPORT_FILE_USAGE);
  const files = pickedFiles(picks);
  const keepWebhook = values['keep-webhook'] === true;
  const session = await openSession(g, env);
  try {
    const { engine } = session;
    if (values.wait && !engine.status().serviceConfigured) {
      throw new UsageError(
        '--wait needs a service: set MEDIA_TASK_API_KEY and --base-url, or pass --sandbox',
      );
    }
    const reading = await engine.readTaskFile(file);
    const { preview } = reading;
    if (g.json) {
      if (values.yes !== true) printJson({ preview });
    } else printOut(`${taskFileSummary(preview, keepWebhook).join('\n')}\n`);
    if (values.yes !== true) {
      throw new UsageError(
        'nothing was queued: read the summary above, then run the same command with --yes to queue it (and FIELD=FILE for an input that needs a file you pick)',
      );
    }
    const missing = fieldsNeedingFiles(preview, files);
    if (missing.length > 0) {
      throw new UsageError(
        `nothing was queued: ${missing.join(', ')} need${missing.length === 1 ? 's' : ''} a file you pick; give it as ${missing.map((f) => `${f}=FILE`).join(' ')}`,
      );
    }
    const task = await engine.queueTaskFile(reading, {
      files,
      keepWebhook,
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
