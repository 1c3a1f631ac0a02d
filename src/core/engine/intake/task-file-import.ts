/**
 * A task exported to a folder (exportTasks, src/core/library/library-export.ts) queued again
 * from its `task.json`, in two steps: `readTaskFile` reads and describes it (the task type,
 * the model id as it would be sent, the inputs, the price, the webhook it names) and queues
 * nothing; `queueTaskFile` queues that reading on the user's word, with the files the user
 * picked. The new task is a re-run of the exported one when that task is in this library
 * (parentId, no output), else it has no parent.
 *
 * The task.json may come from someone else (security review, issue 17, item 2), so: it is read
 * only as a regular file of at most 2 MB; a picture or sound is taken only from the export's own
 * folder (the file a `{ $file }` input names, or a path the JSON spells, each resolved with its
 * links and refused when it leads out of that folder; a path outside is never touched), else
 * the user picks a file for it; URLs and Base64 go as written; its webhook is sent only when the
 * user keeps it; and everything that cannot be read is refused with a message that says what
 * and where. A result file's own parameters (a task not in this library) are stricter, as the
 * window's recall is: a media field only as a web address or the export's own input copy (`{ $file }`),
 * never a name, a path or Base64 (anyone can write a PNG's text chunk).
 */
import { randomUUID } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type {
  MediaFieldRule,
  TaskDraft,
  TaskFileChoices,
  TaskFileInput,
  TaskFilePreview,
} from '../../../shared/index.ts';
import {
  boardNameProblem,
  formatUsd,
  isHttpUrl,
  mediaFieldsOfRules,
  modelNameOf,
  type Task,
  type TaskTypeEntry,
} from '../../../shared/index.ts';
import {
  assertLocalPath,
  InputValidationError,
  isInlineMedia,
  localPathProblem,
  UnsafePathError,
} from '../../inputs/index.ts';
import { isInsideFolder, LibraryPathError, libraryFileOf, openRegularFile } from '../../library/index.ts';
import type { EngineContext, ReadingContext } from '../engine-context.ts';
import { recallFile } from './file-recall.ts';
import { givenFileKind } from './given-file-kind.ts';
import { requestForProfile } from './profile-request.ts';
import { entryOfDraft, estimateDraftCost } from './task-drafts.ts';
import { queueTask } from './task-intake.ts';

const MAX_SIDECAR_BYTES = 2_000_000;

const SidecarSchema = z.looseObject({
  id: z.string().optional(),
  title: z.string().optional(),
  request: z.looseObject({
    model: z.string().min(1),
    task_type: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
    config: z.record(z.string(), z.unknown()).optional(),
  }),
  inputs: z
    .array(z.looseObject({ field: z.string(), source: z.string(), file: z.string().nullish() }))
    .optional(),
  boards: z.unknown().optional(),
});
type Sidecar = z.infer<typeof SidecarSchema>;

/** A refusal about the task file, naming it. */
function refused(file: string, message: string): InputValidationError {
  return new InputValidationError('file', `${basename(file)}: ${message}`);
}

const REASONS: Record<string, string> = {
  ENOENT: 'the file is not there',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

async function readSidecar(file: string): Promise<Sidecar> {
  let text: string;
  try {
    const handle = await openRegularFile(file);
    try {
      const size = (await handle.stat()).size;
      if (size > MAX_SIDECAR_BYTES)
        throw refused(file, `is ${size} bytes; a task.json is at most ${MAX_SIDECAR_BYTES}`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err instanceof InputValidationError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const why = err instanceof UnsafePathError ? err.message : (REASONS[code] ?? (code || String(err)));
    throw refused(file, `cannot be read (${why})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw refused(file, `is not JSON (${(err as Error).message})`);
  }
  const parsed = SidecarSchema.safeParse(json);
  if (!parsed.success) {
    throw refused(
      file,
      'is not a task exported by this app (it needs request.model, request.task_type and request.input)',
    );
  }
  return parsed.data;
}

/** The model a draft names: the catalog's model name (the profile adds the vendor), or the id as sent when it was another. */
function draftModel(sent: string, entry: TaskTypeEntry): string {
  return modelNameOf(sent) === entry.modelName ? entry.modelName : sent;
}

/** At most this many boards are taken from a task.json. */
const MAX_SIDECAR_BOARDS = 50;

/**
 * The boards a task.json names, trimmed, without repeats (any case), at most MAX_SIDECAR_BOARDS;
 * what is not a board name is left out (the file may come from anywhere).
 */
function sidecarBoards(boards: unknown): string[] {
  if (!Array.isArray(boards)) return [];
  const names = new Map<string, string>();
  for (const name of boards) {
    if (typeof name !== 'string' || boardNameProblem(name) !== null) continue;
    const trimmed = name.trim();
    if (!names.has(trimmed.toLowerCase())) names.set(trimmed.toLowerCase(), trimmed);
  }
  return [...names.values()].slice(0, MAX_SIDECAR_BOARDS);
}

/** Puts a task on boards by name, making each that is missing. */
function putOnBoards(ctx: EngineContext, taskId: string, names: readonly string[]): void {
  if (names.length === 0) return;
  ctx.store.transaction(() => {
    for (const name of names) {
      const board = ctx.store.boardNamedOrMade(name);
      ctx.store.addToBoard(board.id, [taskId]);
    }
  });
}

/** A task.json read and described: what the user is shown, and what is queued on their word. */
export interface TaskFileReading {
  preview: TaskFilePreview;
  /** The draft as read: inputs from the export folder as their real paths, no webhook, no picked file. */
  draft: TaskDraft;
  /** The webhook the task.json names, with its secret. */
  webhook: { endpoint: string; secret: string } | null;
}

/** One media field as read: how it is described, and the value it is sent as (none for `needs-file`). */
interface ReadInput {
  described: TaskFileInput;
  value?: string;
}

/** `path` when it is a regular file inside `folder` (links resolved), else why not. */
async function fileInFolder(
  folder: string,
  path: string,
): Promise<{ path: string; size: number } | { problem: string }> {
  // a path that leads out of the folder is never touched
  if (!isInsideFolder(folder, path)) return { problem: 'outside' };
  const real = await realpath(path).catch(() => null);
  if (real === null) return { problem: 'missing' };
  if (!isInsideFolder(folder, real)) return { problem: 'outside' };
  const stats = await stat(real).catch(() => null);
  if (!stats?.isFile()) return { problem: 'not-a-file' };
  return { path: real, size: stats.size };
}

/** The export folder's file a `{ $file }` input names: the name the sidecar gives, else `input-<field>.*`. */
async function exportFileName(folder: string, sidecar: Sidecar, field: string): Promise<string | null> {
  const named = sidecar.inputs?.find((i) => i.field === field)?.file;
  if (named) return basename(named);
  const safe = field.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith(`input-${safe}.`)).sort()[0] ?? null;
}

const OUTSIDE = 'an import reads files only from the task.json’s own folder';
const FROM_RESULT = 'a result file gives a file only as its export’s own input copy or a web address';

/** How one media field of the task.json is taken (see the top of this file). */
async function readInput(
  folders: { shown: string; real: string },
  sidecar: Sidecar,
  rule: MediaFieldRule,
  value: unknown,
  library: { dir: string; file: Task } | 'result-file' | null,
): Promise<ReadInput> {
  const base = { field: rule.field, kind: rule.kind, required: rule.required };
  const needs = (why: string): ReadInput => ({ described: { ...base, source: 'needs-file', why } });
  const task = typeof library === 'object' ? library : null;
  const own = task?.file.inputs.find((i) => i.field === rule.field && i.source === 'file');
  if (task && own) {
    // the library's own copy, as a re-run takes it; gone from the library, the user picks one
    const name = own.name || basename(own.value);
    try {
      const path = libraryFileOf(task.dir, own.value, `input ${JSON.stringify(rule.field)}`);
      return { described: { ...base, source: 'library-file', name, size: own.size ?? 0 }, value: path };
    } catch (err) {
      if (!(err instanceof LibraryPathError)) throw err;
      return needs(`was ${name} of this library, which ${err.reason}`);
    }
  }
  const exportFile = async (path: string, spelled: string): Promise<ReadInput> => {
    const found = await fileInFolder(folders.real, path);
    if ('path' in found) {
      return {
        described: { ...base, source: 'export-file', name: basename(found.path), size: found.size },
        value: found.path,
      };
    }
    if (found.problem === 'missing') return needs(`is the file ${spelled}, which is not in ${folders.shown}`);
    if (found.problem === 'not-a-file') return needs(`is ${spelled}, which is not a plain file`);
    return needs(`names ${spelled}, outside the export folder; ${OUTSIDE}`);
  };
  if (typeof value === 'object' && value !== null && '$file' in value) {
    const name = await exportFileName(folders.real, sidecar, rule.field);
    if (name === null)
      return needs(`was a file of the library, and the export folder has no input-${rule.field} file`);
    return exportFile(join(folders.real, name), name);
  }
  if (typeof value !== 'string') {
    return needs('is not a file name, an address or Base64');
  }
  const text = value.trim();
  if (isHttpUrl(text)) return { described: { ...base, source: 'url', url: text }, value: text };
  if (library === 'result-file') {
    // an export writes a result's inputs as `{ $file }` (its own input copy); a name, a path or
    // Base64 in a file from anywhere would have a file beside it, or a picture the user never saw, sent
    const what = isInlineMedia(text) ? 'is Base64' : `names ${JSON.stringify(text.slice(0, 100))}`;
    return needs(`${what}; ${FROM_RESULT}`);
  }
  if (isInlineMedia(text))
    return { described: { ...base, source: 'inline', chars: text.length }, value: text };
  if (localPathProblem(text) !== null) return needs(`names ${JSON.stringify(text)}; ${OUTSIDE}`);
  let path = text;
  if (/^file:/i.test(text)) {
    try {
      path = fileURLToPath(text);
    } catch {
      return needs(`names ${JSON.stringify(text)}, which is not a usable file address`);
    }
  }
  return exportFile(resolve(folders.real, path), JSON.stringify(text));
}

/** The price in words: `$0.0025 (5 s x $0.0005/s)`, or why there is none. */
function priceTextOf(estimate: { micros: number | null; explanation: string }): string {
  return estimate.micros === null
    ? estimate.explanation
    : `${formatUsd(estimate.micros)} (${estimate.explanation})`;
}

/**
 * Reads and describes the task an exported `task.json` names, or the task a result file came from
 * (its embedded parameters, else its checksum in this library: file-recall.ts); queues nothing
 * (see the top of this file).
 */
export async function readTaskFile(ctx: ReadingContext, taskFile: string): Promise<TaskFileReading> {
  assertLocalPath(taskFile, 'file');
  const file = resolve(taskFile);
  if ((await givenFileKind(file)) === 'task-json') return readingOf(ctx, file, await readSidecar(file), null);
  const recall = await recallFile(ctx, file);
  const task = recall.task ? ctx.store.getTask(recall.task.id) : null;
  const request = task
    ? { model: task.model, task_type: task.taskType, input: task.request.input }
    : { model: recall.model, task_type: recall.taskType, input: recall.parameters };
  const sidecar: Sidecar = { ...(task ? { id: task.id } : {}), title: recall.title, request };
  const reading = await readingOf(
    ctx,
    file,
    sidecar,
    task ? { dir: ctx.libraryDir, file: task } : 'result-file',
  );
  return { ...reading, preview: { ...reading.preview, recall } };
}

async function readingOf(
  ctx: ReadingContext,
  file: string,
  sidecar: Sidecar,
  /** The library's task the file names, `result-file` for a result file's own parameters, null for a task.json. */
  library: { dir: string; file: Task } | 'result-file' | null,
): Promise<TaskFileReading> {
  const { request } = sidecar;
  const entry = entryOfDraft({ model: request.model, taskType: request.task_type }, ctx.connection.profile);
  if (!entry) {
    throw refused(
      file,
      `task type ${JSON.stringify(request.task_type)} of ${JSON.stringify(request.model)} is not one the app knows`,
    );
  }
  const shown = dirname(file);
  const folders = { shown, real: await realpath(shown) };
  const input: Record<string, unknown> = { ...request.input };
  const inputs: TaskFileInput[] = [];
  const media = new Set<string>();
  for (const rule of mediaFieldsOfRules(entry.input)) {
    media.add(rule.field);
    const value = input[rule.field];
    delete input[rule.field];
    if (value === undefined || value === null || value === '') continue;
    const read = await readInput(folders, sidecar, rule, value, library);
    inputs.push(read.described);
    if (read.value !== undefined) input[rule.field] = read.value;
  }
  const hook = (request.config as { webhook_config?: { endpoint?: unknown; secret?: unknown } } | undefined)
    ?.webhook_config;
  const webhook =
    typeof hook?.endpoint === 'string' && hook.endpoint !== ''
      ? { endpoint: hook.endpoint, secret: typeof hook.secret === 'string' ? hook.secret : '' }
      : null;
  const parent = sidecar.id ? ctx.store.getTask(sidecar.id) : null;
  const draft: TaskDraft = {
    model: draftModel(request.model, entry),
    taskType: request.task_type,
    input,
    webhook: null,
    ...(sidecar.title ? { title: sidecar.title } : {}),
    parentId: parent ? parent.id : null,
    parentOutput: null,
  };
  const estimate = estimateDraftCost(
    { model: request.model, taskType: request.task_type, input: request.input },
    ctx.connection.profile,
  );
  const sent = requestForProfile(draft, ctx.connection.profile, entry);
  const preview: TaskFilePreview = {
    importId: randomUUID(),
    file,
    folder: shown,
    title: sidecar.title || entry.label,
    model: sent.model,
    taskType: request.task_type,
    taskLabel: entry.label,
    inputs,
    parameters: Object.fromEntries(Object.entries(sent.input).filter(([field]) => !media.has(field))),
    priceMicros: estimate.micros,
    priceText: priceTextOf(estimate),
    rerunOf: parent ? { id: parent.id, title: parent.title } : null,
    webhook: webhook ? { endpoint: webhook.endpoint, hasSecret: webhook.secret !== '' } : null,
    boards: sidecarBoards(sidecar.boards),
  };
  return { preview, draft, webhook };
}

/**
 * Queues a task.json's reading on the user's word: a picked file for each input the import could
 * not take (an optional one may be left out), the webhook only when kept.
 */
export async function queueTaskFile(
  ctx: EngineContext,
  reading: TaskFileReading,
  choices: TaskFileChoices,
): Promise<Task> {
  const name = basename(reading.preview.file);
  const needing = new Map(
    reading.preview.inputs.flatMap((i) => (i.source === 'needs-file' ? [[i.field, i] as const] : [])),
  );
  for (const field of Object.keys(choices.files)) {
    if (!needing.has(field)) {
      const has = reading.preview.inputs.some((i) => i.field === field);
      throw new InputValidationError(
        field,
        `${name}: a file was picked for ${JSON.stringify(field)}, which ${has ? 'the import already takes from the task.json' : 'is not an input of this task'}`,
      );
    }
  }
  const input = { ...reading.draft.input };
  for (const [field, wanted] of needing) {
    const picked = choices.files[field];
    if (picked !== undefined && picked !== '') input[field] = picked;
    else if (wanted.required) {
      throw new InputValidationError(
        field,
        `${name}: input ${JSON.stringify(field)} ${wanted.why}; pick a file for it`,
      );
    }
  }
  const draft: TaskDraft = {
    ...reading.draft,
    input,
    webhook: choices.keepWebhook ? reading.webhook : null,
    ...(choices.acceptUnknownPrice ? { acceptUnknownPrice: true } : {}),
  };
  try {
    const task = await queueTask(ctx, draft);
    putOnBoards(ctx, task.id, reading.preview.boards);
    return task;
  } catch (err) {
    if (err instanceof InputValidationError)
      throw new InputValidationError(err.field, `${name}: ${err.message}`);
    throw err;
  }
}
