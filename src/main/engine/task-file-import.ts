/**
 * A task exported to a folder (exportTasks, src/main/library/library-export.ts) queued again
 * from its `task.json`: the same task type, model, parameters and title, its local inputs taken
 * from the export folder's files (checked and kept like any local file), URL inputs as they were.
 * The new task is a re-run of the exported one when that task is in this library (parentId, no
 * output), else it has no parent.
 *
 * The folder may come from someone else, so: the sidecar is read only as a regular file of at
 * most 2 MB, an input file is looked up by its plain name inside the folder (never a path the
 * JSON spells, never a link), and everything that cannot be read is refused with a message that
 * says what and where, before anything is queued.
 */
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import type { TaskDraft } from '../../shared/index.ts';
import { mediaFieldsOfRules, modelNameOf, type Task, taskTypeEntry } from '../../shared/index.ts';
import { assertLocalPath, InputValidationError, UnsafePathError } from '../inputs/index.ts';
import { openRegularFile } from '../library/index.ts';
import type { EngineContext } from './engine-context.ts';
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

/** The export folder's file of input `field`: the name the sidecar gives, else `input-<field>.*`. */
async function inputFileOf(folder: string, sidecar: Sidecar, field: string, file: string): Promise<string> {
  const named = sidecar.inputs?.find((i) => i.field === field)?.file;
  let name: string | null = named ? basename(named) : null;
  if (name === null) {
    const safe = field.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
    const names = await readdir(folder).catch(() => [] as string[]);
    name = names.filter((n) => n.startsWith(`input-${safe}.`)).sort()[0] ?? null;
  }
  if (name === null) {
    throw refused(
      file,
      `input ${JSON.stringify(field)} was a file of the library, and the export folder has no input-${field} file`,
    );
  }
  const path = join(folder, name);
  const stats = await lstat(path).catch(() => null);
  if (!stats)
    throw refused(file, `input ${JSON.stringify(field)} is the file ${name}, which is not in ${folder}`);
  if (!stats.isFile()) {
    throw refused(
      file,
      `input ${JSON.stringify(field)} is ${name}, which is not a plain file (a link or folder); copy the file itself there`,
    );
  }
  return path;
}

/** The model a draft names: the catalog's model name (the profile adds the vendor), or the id as sent when it was another. */
function draftModel(sent: string, taskType: string): string {
  const entry = taskTypeEntry(taskType);
  return entry && modelNameOf(sent) === entry.modelName ? entry.modelName : sent;
}

/** Queues the task an exported `task.json` describes again (see the top of this file). */
export async function importTaskFile(
  ctx: EngineContext,
  taskFile: string,
  options: { acceptUnknownPrice?: boolean } = {},
): Promise<Task> {
  assertLocalPath(taskFile, 'file');
  const file = resolve(taskFile);
  const sidecar = await readSidecar(file);
  const { request } = sidecar;
  const entry = taskTypeEntry(request.task_type);
  if (!entry) throw refused(file, `task type ${JSON.stringify(request.task_type)} is not one the app knows`);
  const input: Record<string, unknown> = { ...request.input };
  for (const rule of mediaFieldsOfRules(entry.input)) {
    const value = input[rule.field];
    if (typeof value === 'object' && value !== null && '$file' in value) {
      input[rule.field] = await inputFileOf(dirname(file), sidecar, rule.field, file);
    }
  }
  const hook = (request.config as { webhook_config?: { endpoint?: unknown; secret?: unknown } } | undefined)
    ?.webhook_config;
  const parent = sidecar.id ? ctx.store.getTask(sidecar.id) : null;
  const draft: TaskDraft = {
    model: draftModel(request.model, request.task_type),
    taskType: request.task_type,
    input,
    webhook:
      typeof hook?.endpoint === 'string' && hook.endpoint !== ''
        ? { endpoint: hook.endpoint, secret: typeof hook.secret === 'string' ? hook.secret : '' }
        : null,
    ...(sidecar.title ? { title: sidecar.title } : {}),
    parentId: parent ? parent.id : null,
    parentOutput: null,
    ...(options.acceptUnknownPrice ? { acceptUnknownPrice: true } : {}),
  };
  try {
    return await queueTask(ctx, draft);
  } catch (err) {
    if (err instanceof InputValidationError)
      throw new InputValidationError(err.field, `${basename(file)}: ${err.message}`);
    throw err;
  }
}
