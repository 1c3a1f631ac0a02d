/**
 * "Made from" for a file given as an input (issue 22, item 2): when the file is a result of this
 * library (by its checksum, or by the parameters an export embedded in it naming a task here),
 * the new task records that task and output as its parent, as a result used from the library does.
 */
import type { FileHandle } from 'node:fs/promises';
import type { TaskInput } from '../../../shared/index.ts';
import type { ValidatedInput } from '../../inputs/index.ts';
import { openRegularFile } from '../../library/index.ts';
import { readEmbeddedParams } from '../../recall/embedded-params.ts';
import { fileSource } from '../../recall/file-edits.ts';
import type { EngineContext } from '../engine-context.ts';

/** The parent of a task whose inputs are `inputs` (kept from `validated`, in the same order), or null. */
export async function madeFromFiles(
  ctx: EngineContext,
  validated: readonly (ValidatedInput | null)[],
  inputs: readonly TaskInput[],
): Promise<{ parentId: string; parentOutput: number } | null> {
  for (const [i, value] of validated.entries()) {
    if (value?.source !== 'file') continue;
    const hit = await resultOfFile(ctx, value.path, inputs[i]?.sha256 ?? null);
    if (hit) return { parentId: hit.taskId, parentOutput: hit.index };
  }
  return null;
}

/**
 * The library result a file is, when it is one (by embedded parameters naming a task here, or by
 * checksum): what "made from" records when the file becomes an input. Never throws: a file that
 * cannot be read is no result.
 */
async function resultOfFile(
  ctx: EngineContext,
  path: string,
  sha256: string | null,
): Promise<{ taskId: string; index: number } | null> {
  if (sha256) {
    const [hit] = ctx.store.outputsWithChecksum(sha256, 1);
    if (hit) return hit;
  }
  try {
    const handle: FileHandle = await openRegularFile(path);
    try {
      const embedded = await readEmbeddedParams(fileSource(handle), (await handle.stat()).size);
      const record = embedded.found;
      if (!record || record.output_index === null || record.output_index === undefined) return null;
      const task = ctx.store.getTask(record.id);
      if (!task?.outputs.some((o) => o.index === record.output_index)) return null;
      return { taskId: task.id, index: record.output_index };
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}
