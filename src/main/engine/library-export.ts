/**
 * Export of chosen tasks to a folder: for each task a sub-folder with its original output
 * files, its local input files, and `task.json`, a sidecar of every parameter.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { Task } from '../../shared/index.ts';

export interface ExportResult {
  folder: string;
  tasks: { id: string; folder: string; files: string[] }[];
}

/** A folder name from a title: letters, digits, dashes; never `..`, never empty. */
export function safeFolderName(title: string, id: string): string {
  const cleaned = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${cleaned || 'task'}-${id.slice(0, 8)}`;
}

function inside(root: string, relativePath: string): string {
  const abs = resolve(root, relativePath);
  if (!abs.startsWith(resolve(root) + sep)) throw new Error(`path escapes the library: ${relativePath}`);
  return abs;
}

export function sidecarOf(task: Task): Record<string, unknown> {
  return {
    id: task.id,
    remote_task_id: task.remoteId,
    title: task.title,
    model: task.model,
    task_type: task.taskType,
    state: task.state,
    remote_status: task.remoteStatus,
    request: task.request,
    inputs: task.inputs.map((i) => ({
      field: i.field,
      source: i.source,
      mime: i.mime,
      size: i.size,
      sha256: i.sha256,
    })),
    outputs: task.outputs.map((o) => ({
      index: o.index,
      kind: o.kind,
      url: o.url,
      state: o.state,
      file: o.path ? basename(o.path) : null,
      mime: o.mime,
      size: o.size,
      sha256: o.sha256,
      width: o.width,
      height: o.height,
    })),
    favorite: task.favorite,
    estimate_usd: task.estimateMicros === null ? null : task.estimateMicros / 1_000_000,
    usage: task.usage,
    error: task.error,
    created_at: task.createdAt,
    submitted_at: task.submittedAt,
    started_at: task.startedAt,
    ended_at: task.endedAt,
    saved_at: task.savedAt,
    rerun_of: task.rerunOf,
  };
}

export async function exportTasks(
  libraryDir: string,
  tasks: readonly Task[],
  destDir: string,
): Promise<ExportResult> {
  const folder = resolve(destDir);
  await mkdir(folder, { recursive: true });
  const result: ExportResult = { folder, tasks: [] };
  for (const task of tasks) {
    const sub = join(folder, safeFolderName(task.title, task.id));
    await mkdir(sub, { recursive: true });
    const files: string[] = [];
    for (const o of task.outputs) {
      if (!o.path) continue;
      const name = basename(o.path);
      await copyFile(inside(libraryDir, o.path), join(sub, name));
      files.push(name);
    }
    for (const i of task.inputs) {
      if (i.source !== 'file') continue;
      const name = `input-${basename(i.value)}`;
      await copyFile(inside(libraryDir, i.value), join(sub, name));
      files.push(name);
    }
    await writeFile(join(sub, 'task.json'), `${JSON.stringify(sidecarOf(task), null, 2)}\n`);
    files.push('task.json');
    result.tasks.push({ id: task.id, folder: sub, files });
  }
  return result;
}
