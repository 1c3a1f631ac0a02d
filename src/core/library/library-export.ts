/**
 * Export of chosen tasks to a folder: for each task a sub-folder with its output files (each a
 * copy carrying the task's parameters inside, src/core/recall; the library's file is never
 * changed), its local input files, and `task.json`, a sidecar of every parameter.
 *
 * The destination may be chosen by the page, and the library may have been written by someone
 * else, so: a network, device or special-file destination is refused (local-path-rules.ts) and
 * the real path of the destination folder is used; each task gets a new sub-folder (`name (2)`
 * when the name is taken) and every file is created new (`name (2).ext`): nothing is ever
 * overwritten and no planted link is written through. Every source is a stored path resolved
 * inside the library (library-paths.ts) and opened only as a regular file; all of a task's
 * sources are checked before anything of it is written.
 */
import { mkdir, realpath, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { type ExportResult, SAVED_INLINE_OUTPUT_URL, type Task } from '../../shared/index.ts';
import { withoutWebhookSecret } from '../../shared/task/webhook-config.ts';
import { withoutDirectionControls } from '../../shared/text/control-characters.ts';
import { assertLocalPath, specialTreeProblem, UnsafePathError } from '../inputs/index.ts';
import { copyWithRecord } from '../recall/embedded-params.ts';
import { inputCopyName, recallRecordText } from '../recall/recall-record.ts';
import { libraryFileOf } from './library-paths.ts';
import { copyOpenFile, createUniqueFile, createUniqueFolder, openRegularFile } from './safe-files.ts';

/**
 * A folder name from a title: letters, digits, dashes; never `..`, never empty. Direction controls
 * go first, as the command line drops them (`photo\u202egnp.exe` is `photognp-exe`, read as it is).
 */
export function safeFolderName(title: string, id: string): string {
  const cleaned = withoutDirectionControls(title)
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${cleaned || 'task'}-${id.slice(0, 8)}`;
}

/** One file to copy: the checked real path in the library and the name it gets in the export. */
interface ExportSource {
  file: string;
  name: string;
  /** The input field it is the file of (inputs only). */
  field?: string;
  /** The output it is (outputs only): its copy carries the task's parameters (src/core/recall). */
  output?: number;
}

/** Refuses a destination under /proc, /sys or /dev (Linux), naming the field. */
function refuseSpecialTree(path: string): void {
  const problem = specialTreeProblem(path);
  if (problem !== null) throw new UnsafePathError(`destDir: ${JSON.stringify(path)} ${problem}`, 'destDir');
}

/**
 * The real path of the destination folder, made when missing: refuses a network or device
 * path, a special-file tree, and anything that exists but is not a folder (a file, FIFO, device).
 */
export async function prepareExportFolder(destDir: string): Promise<string> {
  assertLocalPath(destDir, 'destDir');
  const wanted = resolve(destDir);
  refuseSpecialTree(wanted);
  const existing = await stat(wanted).catch(() => null);
  if (existing && !existing.isDirectory()) {
    throw new UnsafePathError(`destDir: ${JSON.stringify(wanted)} exists and is not a folder`, 'destDir');
  }
  await mkdir(wanted, { recursive: true });
  const real = await realpath(wanted);
  refuseSpecialTree(real);
  if (!(await stat(real)).isDirectory()) {
    throw new UnsafePathError(`destDir: ${JSON.stringify(wanted)} is not a folder`, 'destDir');
  }
  return real;
}

/** A task's files to export, each resolved inside the library; throws LibraryPathError for a bad one. */
function sourcesOf(libraryDir: string, task: Task): ExportSource[] {
  const sources: ExportSource[] = [];
  for (const o of task.outputs) {
    if (!o.path) continue;
    const file = libraryFileOf(libraryDir, o.path, `output ${o.index} of task ${JSON.stringify(task.title)}`);
    sources.push({ file, name: basename(o.path), output: o.index });
  }
  for (const i of task.inputs) {
    if (i.source !== 'file') continue;
    const file = libraryFileOf(
      libraryDir,
      i.value,
      `input ${JSON.stringify(i.field)} of task ${JSON.stringify(task.title)}`,
    );
    // named by its field (the library names input files by their content); the field is a
    // stored value too, so only its letters, digits, dashes and underscores are kept
    sources.push({ file, name: inputCopyName(i.field, i.value), field: i.field });
  }
  return sources;
}

/**
 * Copies a regular file into a new file in `folder`, with `record` (a task's parameters) embedded
 * when the file's kind takes it; returns the name it got. The library's file is only read.
 */
async function copyIntoNewFile(
  source: string,
  folder: string,
  name: string,
  record: { json: string; appVersion: string } | null,
): Promise<string> {
  const from = await openRegularFile(source);
  try {
    const to = await createUniqueFile(folder, name, 0o666);
    try {
      if (record === null) await copyOpenFile(from, to.handle);
      else await copyWithRecord(from, (await from.stat()).size, to.handle, record.json, record.appVersion);
    } finally {
      await to.handle.close();
    }
    return to.name;
  } finally {
    await from.close();
  }
}

/** Writes text into a new file in `folder`; returns the name it got. */
async function writeIntoNewFile(folder: string, name: string, text: string): Promise<string> {
  const to = await createUniqueFile(folder, name, 0o666);
  try {
    await to.handle.writeFile(text);
  } finally {
    await to.handle.close();
  }
  return to.name;
}

/**
 * The sidecar of a task: every parameter, the names of its boards, its lineage (`parent_id`, `parent_output`, `batch_id`,
 * and `parent_gone`: the title of the task it was made from once that task was deleted) and,
 * for each input file, the name of its copy in the export folder (`file`), which
 * `readTaskFile` reads back (task-file-import.ts).
 */
export function sidecarOf(
  task: Task,
  inputFiles: ReadonlyMap<string, string> = new Map(),
  boards: readonly string[] = [],
): Record<string, unknown> {
  return {
    id: task.id,
    remote_task_id: task.remoteId,
    title: task.title,
    model: task.model,
    task_type: task.taskType,
    state: task.state,
    remote_status: task.remoteStatus,
    // whether a webhook secret is set, never the secret (security review, issue 17, item 9)
    request: withoutWebhookSecret(task.request),
    inputs: task.inputs.map((i) => ({
      field: i.field,
      source: i.source,
      ...(i.source === 'file' ? { file: inputFiles.get(i.field) ?? null } : {}),
      mime: i.mime,
      size: i.size,
      sha256: i.sha256,
    })),
    outputs: task.outputs.map((o) => ({
      index: o.index,
      kind: o.kind,
      // an output the service sent inline has no address: its bytes are the exported file
      url: o.url === SAVED_INLINE_OUTPUT_URL ? null : o.url,
      ...(o.url === SAVED_INLINE_OUTPUT_URL ? { sent_inline: true } : {}),
      state: o.state,
      file: o.path ? basename(o.path) : null,
      mime: o.mime,
      size: o.size,
      sha256: o.sha256,
      width: o.width,
      height: o.height,
    })),
    favorite: task.favorite,
    // the names of its boards: an import puts the new task on them (issue 22, item 1)
    boards: [...boards],
    estimate_usd: task.estimateMicros === null ? null : task.estimateMicros / 1_000_000,
    usage: task.usage,
    error: task.error,
    created_at: task.createdAt,
    submitted_at: task.submittedAt,
    started_at: task.startedAt,
    ended_at: task.endedAt,
    saved_at: task.savedAt,
    parent_id: task.parentId,
    parent_output: task.parentOutput,
    parent_gone: task.parentGone,
    batch_id: task.batchId,
  };
}

/**
 * Exports tasks (see the top of this file); each output's copy carries its task's parameters
 * inside (PNG, WAV, MP3, MP4, GLB), written with `appVersion`; the library's files stay as they are.
 */
export async function exportTasks(
  libraryDir: string,
  tasks: readonly Task[],
  destDir: string,
  boardsOf: (taskId: string) => string[] = () => [],
  appVersion = 'unknown',
): Promise<ExportResult> {
  // every stored path is checked before anything is written
  const planned = tasks.map((task) => ({ task, sources: sourcesOf(libraryDir, task) }));
  const folder = await prepareExportFolder(destDir);
  const result: ExportResult = { folder, tasks: [] };
  for (const { task, sources } of planned) {
    const sub = await createUniqueFolder(folder, safeFolderName(task.title, task.id));
    const files: string[] = [];
    const inputFiles = new Map<string, string>();
    for (const source of sources) {
      const record =
        source.output === undefined
          ? null
          : { json: recallRecordText(task, source.output, appVersion), appVersion };
      const name = await copyIntoNewFile(source.file, sub, source.name, record);
      files.push(name);
      if (source.field !== undefined) inputFiles.set(source.field, name);
    }
    const sidecar = `${JSON.stringify(sidecarOf(task, inputFiles, boardsOf(task.id)), null, 2)}\n`;
    files.push(await writeIntoNewFile(sub, 'task.json', sidecar));
    result.tasks.push({ id: task.id, folder: sub, files });
  }
  return result;
}
