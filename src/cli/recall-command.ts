/**
 * `media-task recall FILE [--json]`: the task a file the app made came from (issue 22, item 2):
 * the parameters an export embedded in it, else its checksum among the library's results. Prints
 * the task's parameters; exits 2 with a sentence when the file holds none and the library does not
 * know it. Nothing is queued: `import-file FILE` queues it again on the user's word.
 */

import { asOneLine } from '../shared/index.ts';
import { readArgs, UsageError } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { openSession } from './task-session.ts';
import { printOut } from './terminal-output.ts';

export async function runRecall(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { positionals } = readArgs(argv, {});
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('usage: media-task recall FILE [--json]');
  const session = await openSession(g, env, { libraryOnly: true });
  try {
    const { preview } = await session.engine.readTaskFile(file);
    const recall = preview.recall;
    if (!recall) {
      throw new UsageError(
        `${file} is a task.json, not a result file: media-task import-file reads it (recall takes a picture, sound, video or 3D model the app made)`,
      );
    }
    if (g.json) {
      printJson({ recall });
      return EXIT.ok;
    }
    const lines = [
      `${recall.fileName}: ${recall.taskLabel} “${recall.title}”`,
      `  from: ${recall.source}`,
      `  model: ${recall.model} (task type ${recall.taskType})`,
    ];
    if (recall.task)
      lines.push(
        `  task: ${recall.task.id}${recall.outputIndex === null ? '' : `, output ${recall.outputIndex + 1}`}`,
      );
    if (recall.appVersion) lines.push(`  written by: Media Task Studio ${recall.appVersion}`);
    for (const [field, value] of Object.entries(recall.parameters)) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      lines.push(`  ${field}: ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`);
    }
    if (recall.missingMedia.length > 0) {
      lines.push(
        `  not in this library: ${recall.missingMedia.join(', ')} (give them with import-file FILE FIELD=FILE)`,
      );
    }
    // each on one line: a title or a value from the file cannot add lines of its own
    printOut(`${lines.map(asOneLine).join('\n')}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
