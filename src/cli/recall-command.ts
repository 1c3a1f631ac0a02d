/**
 * `media-task recall FILE [--json]`: the task a file the app made came from (issue 22, item 2):
 * the parameters an export embedded in it, else its checksum among the library's results. Prints
 * the task's parameters; exits 2 with a sentence when the file holds none and the library does not
 * know it. Nothing is queued: `import-file FILE` queues it again on the user's word. It only reads
 * the library, so it answers while the app has it open (task-session.ts openToRead).
 */

import { asOneLine, type FileRecall, type TaskFilePreview, taskFileInputText } from '../shared/index.ts';
import { readArgs, UsageError } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { openToRead } from './task-session.ts';
import { printOut } from './terminal-output.ts';

export async function runRecall(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { positionals } = readArgs(argv, {});
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('usage: media-task recall FILE [--json]');
  // only reads: it answers while the app has the library open
  const session = await openToRead(g, env);
  try {
    const { preview } = await session.reader.readTaskFile(file);
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
    printOut(`${recallLines(preview, recall).join('\n')}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

/** Longest value printed of one parameter. */
const MAX_VALUE_CHARS = 400;

/**
 * What `recall` prints of a result file: its task, where the parameters came from, each parameter,
 * a picture, sound or video in words (`swap_image: me.jpg from this library (2.1 KB)`, the web
 * address, or that a file must be given: the same words as import-file's summary, never the
 * record's `{ "$file": … }`). Each is one line whatever the file holds: a title or a value from
 * the file cannot add lines of its own.
 */
export function recallLines(preview: TaskFilePreview, recall: FileRecall): string[] {
  const lines = [
    `${recall.fileName}: ${recall.taskLabel} “${recall.title}”`,
    `  from: ${recall.source}`,
    `  model: ${recall.model} (task type ${recall.taskType})`,
  ];
  if (recall.task) {
    const output = recall.outputIndex === null ? '' : `, output ${recall.outputIndex + 1}`;
    lines.push(`  task: ${recall.task.id}${output}`);
  }
  if (recall.appVersion) lines.push(`  written by: Media Task Studio ${recall.appVersion}`);
  const media = new Map(preview.inputs.map((input) => [input.field, input]));
  for (const [field, value] of Object.entries(recall.parameters)) {
    const input = media.get(field);
    const text = input
      ? taskFileInputText(input, preview)
      : typeof value === 'string'
        ? value
        : isFileReference(value)
          ? 'a file of the library that made it'
          : JSON.stringify(value);
    lines.push(`  ${field}: ${text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text}`);
  }
  const needing = preview.inputs.filter((input) => input.source === 'needs-file').map((i) => i.field);
  if (needing.length > 0) {
    const given = needing.map((field) => `${field}=FILE`).join(' ');
    lines.push(`  to queue it again, give ${needing.join(', ')}: media-task import-file FILE ${given}`);
  }
  return lines.map(asOneLine);
}

/** A stored request's name of a library file (`{ "$file": "inputs/…" }`). */
function isFileReference(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '$file' in value;
}
