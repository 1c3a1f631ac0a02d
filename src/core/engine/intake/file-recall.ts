/**
 * Recall from any file the app made (issue 22, item 2): the parameters embedded in an exported
 * result (src/core/recall), or else the file's SHA-256 among the library's saved results, give
 * the task it came from and the draft that opens that task's form filled in.
 *
 * The embedded parameters are untrusted (anyone can write a PNG text chunk): read with bounded
 * reads and checked as a task.json is (task-file-import.ts): a known catalog pair, only the
 * entry's own input fields, the draft input's size cap, no webhook ever, and a media field only
 * as a web address; a file of another library is named as missing, never looked for. A task the
 * record names that is in this library is taken from the library instead, as a re-run would.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import {
  type DraftView,
  draftInputSizeProblem,
  type FileRecall,
  isHttpUrl,
  mediaFieldsOfRules,
  mediaKind,
  modelNameOf,
  type Task,
} from '../../../shared/index.ts';
import { assertLocalPath, InputValidationError, readAt, UnsafePathError } from '../../inputs/index.ts';
import { openRegularFile, resolveLibraryFile } from '../../library/index.ts';
import { readEmbeddedParams } from '../../recall/embedded-params.ts';
import { fileSource } from '../../recall/file-edits.ts';
import type { RecallRecord } from '../../recall/recall-record.ts';
import { draftViewOf } from '../actions/task-actions.ts';
import type { ReadingContext } from '../engine-context.ts';
import { entryOfDraft } from './task-drafts.ts';

const HASH_CHUNK_BYTES = 1024 * 1024;

/** A refusal about the file, naming it (exit 2 in the CLI, beside the drop in the window). */
function refused(file: string, message: string): InputValidationError {
  return new InputValidationError('file', `${basename(file)}: ${message}`);
}

async function sha256Of(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < size; ) {
    const chunk = await readAt(handle, at, HASH_CHUNK_BYTES);
    if (chunk.length === 0) break;
    hash.update(chunk);
    at += chunk.length;
  }
  return hash.digest('hex');
}

function fromLibrary(
  ctx: ReadingContext,
  file: string,
  task: Task,
  outputIndex: number | null,
  source: string,
  origin: FileRecall['origin'],
  appVersion: string | null,
): FileRecall {
  const entry = entryOfDraft({ model: task.model, taskType: task.taskType }, ctx.connection.profile);
  // an input whose library copy is gone is left out of the form and named as missing
  const gone = task.inputs.filter(
    (i) => i.source === 'file' && resolveLibraryFile(ctx.libraryDir, i.value) === null,
  );
  const input = { ...task.request.input };
  for (const i of gone) delete input[i.field];
  const usable = {
    ...task,
    inputs: task.inputs.filter((i) => !gone.includes(i)),
    request: { ...task.request, input },
  };
  return {
    fileName: basename(file),
    origin,
    source,
    task: { id: task.id, title: task.title },
    outputIndex,
    model: task.model,
    taskType: task.taskType,
    taskLabel: entry?.label ?? task.taskType,
    title: task.title,
    appVersion,
    parameters: task.request.input,
    draft: draftViewOf(ctx.libraryDir, usable),
    missingMedia: gone.map((i) => i.field),
  };
}

/** A record of a task that is not in this library: checked as a task.json import checks its file. */
function fromRecord(ctx: ReadingContext, file: string, record: RecallRecord, place: string): FileRecall {
  const { request } = record;
  const entry = entryOfDraft({ model: request.model, taskType: request.task_type }, ctx.connection.profile);
  if (!entry) {
    throw refused(
      file,
      `its ${place} names task type ${JSON.stringify(request.task_type)} of ${JSON.stringify(request.model)}, which is not one the app knows`,
    );
  }
  const media = new Set(mediaFieldsOfRules(entry.input).map((m) => m.field));
  const input: Record<string, unknown> = {};
  const missingMedia: string[] = [];
  for (const [field, value] of Object.entries(request.input)) {
    if (!Object.hasOwn(entry.input.fields, field)) continue;
    if (!media.has(field)) input[field] = value;
    else if (typeof value === 'string' && isHttpUrl(value.trim())) input[field] = value.trim();
    else missingMedia.push(field);
  }
  const model = modelNameOf(request.model) === entry.modelName ? entry.modelName : request.model;
  const title = record.title || entry.label;
  const draft: DraftView = { model, taskType: request.task_type, input, webhook: null, title };
  const tooLarge = draftInputSizeProblem(input, draft);
  if (tooLarge) throw refused(file, `its ${place}: ${tooLarge}`);
  return {
    fileName: basename(file),
    origin: 'embedded',
    source: `the ${place} of ${basename(file)}`,
    task: null,
    outputIndex: record.output_index ?? null,
    model: request.model,
    taskType: request.task_type,
    taskLabel: entry.label,
    title,
    appVersion: record.app_version ?? null,
    parameters: request.input,
    draft,
    missingMedia,
  };
}

/** What a file says of the task it came from; refuses (in words) a file that says nothing the library knows. */
export async function recallFile(ctx: ReadingContext, path: string): Promise<FileRecall> {
  assertLocalPath(path, 'file');
  const file = resolve(path);
  let handle: FileHandle;
  try {
    handle = await openRegularFile(file);
  } catch (err) {
    const why =
      err instanceof UnsafePathError ? err.message : ((err as NodeJS.ErrnoException).code ?? String(err));
    throw refused(file, `cannot be read (${why === 'ENOENT' ? 'the file is not there' : why})`);
  }
  try {
    const size = (await handle.stat()).size;
    const embedded = await readEmbeddedParams(fileSource(handle), size);
    if (embedded.found) {
      const { found: record, place } = embedded;
      const task = ctx.store.getTask(record.id);
      if (task && task.model === record.model && task.taskType === record.task_type) {
        const source = `the ${place} of ${basename(file)} (task “${task.title}” in this library)`;
        return fromLibrary(
          ctx,
          file,
          task,
          record.output_index ?? null,
          source,
          'embedded',
          record.app_version ?? null,
        );
      }
      return fromRecord(ctx, file, record, place);
    }
    const sha256 = await sha256Of(handle, size);
    for (const { taskId, index } of ctx.store.outputsWithChecksum(sha256, 5)) {
      const task = ctx.store.getTask(taskId);
      if (!task) continue;
      const source = `output ${index + 1} of “${task.title}” in this library (same checksum)`;
      return fromLibrary(ctx, file, task, index, source, 'library', null);
    }
    // a file the app did not make (or one whose parameters cannot be read): why, in words
    const kind = mediaKind(embedded.found === null && embedded.type ? embedded.type.kind : 'file').label;
    const problem = embedded.problem ? `; ${embedded.problem}` : '';
    throw refused(
      file,
      `this ${kind} has no Media Task Studio parameters in it and no result in this library has its checksum, so it cannot be recalled or queued again: only a file the app exported or saved can${problem}`,
    );
  } finally {
    await handle.close();
  }
}
