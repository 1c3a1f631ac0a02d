/**
 * Libraries written before inputs became files hold Base64 inputs as text, in the input's row and
 * again in the request, and every list page and task change carried them. When the engine opens
 * such a library it moves each into the library file of its content (input-files.ts), in the row
 * and the request at once, so an old queued task is sent, re-run and exported like a new one.
 * The store's migration 4 indexes these rows; SQL cannot write files, so the engine does it.
 *
 * Nothing here stops the library from opening: an input that cannot be decoded, or written (a
 * full disk), stays Base64 text, which is sent, shown and exported as before, and is tried again
 * at the next open. Each is reported to the log.
 */
import type { Base64InputPlace, StoredBase64Input } from '../../store/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { storageProblemOf } from '../storage-guard.ts';

/** Moves every Base64 input of the library into its file; returns how many were moved. */
export async function moveBase64Inputs(
  ctx: Pick<EngineContext, 'inputFiles' | 'log' | 'store'>,
): Promise<number> {
  const { inputFiles, log, store } = ctx;
  let after: Base64InputPlace | null = null;
  let moved = 0;
  for (;;) {
    // one at a time: each row may hold tens of megabytes of text
    const next: StoredBase64Input | undefined = store.base64Inputs(after, 1)[0];
    if (!next) return moved;
    after = next;
    const { taskId, input } = next;
    const hold = inputFiles.hold();
    let done = false;
    try {
      const kept = await inputFiles.keepBase64(input.value, input.mime, hold);
      done = store.moveInputToFile(taskId, {
        ...input,
        source: 'file',
        value: kept.path,
        mime: kept.mime,
        size: kept.hash.size,
        sha256: kept.hash.sha256,
      });
      if (done) moved += 1;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      log(`task ${taskId}: input ${JSON.stringify(input.field)} stays Base64 text in the library: ${why}`);
      // no room for files or rows: the others would fail the same way
      if (storageProblemOf(err) !== null) return moved;
    } finally {
      hold.release();
      // a file written for a row that was not moved goes, unless another task uses it
      if (!done) await inputFiles.removeUnused(hold.paths).catch(() => []);
    }
  }
}
