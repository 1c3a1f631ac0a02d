/**
 * Saving a completed task's outputs into the library: each pending output downloaded (or, sent
 * inline as a `data:` URL, decoded), checked and thumbnailed; then the state the task ends in
 * (saved, expired or failed) with its message. A saved inline output keeps a short marker in
 * its `url`, not its data; a plain `file` output whose bytes are a medium is recorded as that kind.
 */
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { ImageCodecUnavailableError, ImageTooLargeError } from '../../../image-codec/index.ts';
import {
  MEDIA_KIND_TABLE,
  SAVED_INLINE_OUTPUT_URL,
  type Task,
  type TaskError,
  type TaskOutput,
  type TaskState,
} from '../../../shared/index.ts';
import {
  DOWNLOAD_FAILED,
  type DownloadTimes,
  downloadOutput,
  makeThumbnail,
  OutputExpiredError,
  type Thumbnail,
} from '../../downloads/index.ts';
import { readAudioDuration, readImageHeader } from '../../inputs/index.ts';
import type { LibraryStore } from '../../store/index.ts';
import { storageProblemOf } from '../storage-guard.ts';
import { readVideoFacts } from './poster-saving.ts';

export interface SaveOutputsContext {
  store: LibraryStore;
  libraryDir: string;
  maxOutputBytes: number;
  /** Most bytes all of the task's results may take together (output-downloads.ts). */
  maxTaskBytes: number;
  /** The agent that checks where downloads connect (output-downloads.ts). */
  dispatcher?: Dispatcher;
  times?: DownloadTimes;
  /** Stops the downloads under way (the engine is closing). */
  signal?: AbortSignal;
}

/**
 * Downloads every output still pending. Returns the message of a failure worth retrying later
 * (network trouble, 5xx), or null when every output reached an end (saved, expired, failed).
 */
export async function saveOutputs(ctx: SaveOutputsContext, task: Task): Promise<string | null> {
  let retryable: string | null = null;
  // results saved before (an earlier try) count toward the task's cap
  let taskBytesUsed = task.outputs.reduce((sum, o) => sum + (o.state === 'saved' ? (o.size ?? 0) : 0), 0);
  for (const output of task.outputs) {
    if (output.state !== 'pending') continue;
    try {
      const saved = await downloadOutput(output.url, {
        libraryDir: ctx.libraryDir,
        taskId: task.id,
        createdAt: task.createdAt,
        index: output.index,
        kind: output.kind,
        maxBytes: ctx.maxOutputBytes,
        taskBytes: { left: ctx.maxTaskBytes - taskBytesUsed, cap: ctx.maxTaskBytes },
        ...(ctx.dispatcher ? { dispatcher: ctx.dispatcher } : {}),
        ...(ctx.times ? { times: ctx.times } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      taskBytesUsed += saved.size;
      // a plain file's bytes may show a medium (an address the last pass found, with no extension)
      const kind = output.kind === 'file' ? saved.kind : output.kind;
      const { onSave } = MEDIA_KIND_TABLE[kind];
      const { thumb, pictureSize, note } =
        onSave === 'thumbnail' ? await thumbnailOrNote(ctx.libraryDir, saved.path, output.index) : NO_THUMB;
      // a song's length, from its own headers (the service does not say it); a video's size and length
      const video = onSave === 'videoFacts' ? await readVideoFacts(join(ctx.libraryDir, saved.path)) : null;
      const durationSeconds =
        onSave === 'duration'
          ? await readAudioDuration(join(ctx.libraryDir, saved.path))
          : (video?.durationSeconds ?? null);
      ctx.store.updateOutput(task.id, output.index, {
        state: 'saved',
        ...(kind !== output.kind ? { kind } : {}),
        // an output the service sent inline is in its file now: the record keeps a marker, not the data
        ...(isDataUrl(output.url) ? { url: SAVED_INLINE_OUTPUT_URL } : {}),
        path: saved.path,
        mime: saved.mime,
        size: saved.size,
        sha256: saved.sha256,
        thumbPath: thumb?.path ?? null,
        width: thumb?.sourceWidth ?? pictureSize?.width ?? video?.width ?? null,
        height: thumb?.sourceHeight ?? pictureSize?.height ?? video?.height ?? null,
        durationSeconds,
        error: note,
      });
    } catch (err) {
      // the library's disk, not the output: it stays pending, and the engine waits for room
      if (storageProblemOf(err) !== null) throw err;
      if (err instanceof OutputExpiredError) {
        ctx.store.updateOutput(task.id, output.index, { state: 'expired', error: err.message });
      } else if (err instanceof Error && 'retryable' in err && err.retryable === true) {
        retryable = err.message;
      } else {
        ctx.store.updateOutput(task.id, output.index, {
          state: 'failed',
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }
  return retryable;
}

const NO_THUMB = { thumb: null, pictureSize: null, note: null };

function isDataUrl(url: string): boolean {
  return /^data:/i.test(url);
}

/**
 * The thumbnail of a saved image, or none: the gallery then falls back to the image. When the
 * image library itself could not load, or the picture's header claims a size too large to decode,
 * the saved output carries a note saying so (its `error`; the output stays `saved`); the size read
 * from the header is kept (read by the app's own header reader when the image library is missing).
 */
async function thumbnailOrNote(
  libraryDir: string,
  path: string,
  index: number,
): Promise<{
  thumb: Thumbnail | null;
  pictureSize: { width: number; height: number } | null;
  note: string | null;
}> {
  try {
    return { thumb: await makeThumbnail(libraryDir, path, index), pictureSize: null, note: null };
  } catch (err) {
    if (err instanceof ImageTooLargeError) {
      return {
        thumb: null,
        pictureSize: { width: err.width, height: err.height },
        note: `no thumbnail: ${err.message}`,
      };
    }
    if (err instanceof ImageCodecUnavailableError) {
      // the size from the header, decoding nothing: the window decides by it whether to show the file
      const pictureSize = await readImageHeader(join(libraryDir, path)).then(
        ({ width, height }) => ({ width, height }),
        () => null,
      );
      return { thumb: null, pictureSize, note: `no thumbnail: ${err.message}` };
    }
    return NO_THUMB;
  }
}

/** Where a task ends once none of its outputs is pending. */
export function settledState(outputs: readonly TaskOutput[]): { state: TaskState; error: TaskError | null } {
  const saved = outputs.filter((o) => o.state === 'saved').length;
  const expired = outputs.filter((o) => o.state === 'expired').length;
  const failed = outputs.filter((o) => o.state === 'failed');
  if (outputs.length === 0) {
    return {
      state: 'failed',
      error: {
        kind: 'no-output',
        message: 'the service reported the task complete but gave no output',
        code: null,
      },
    };
  }
  if (saved > 0) {
    return {
      state: 'saved',
      error:
        saved < outputs.length
          ? {
              kind: 'partial',
              message: `${outputs.length - saved} of ${outputs.length} outputs could not be saved`,
              code: null,
            }
          : null,
    };
  }
  if (expired > 0 && failed.length === 0) {
    return {
      state: 'expired',
      error: {
        kind: 'output-expired',
        message: 'output expired: the service no longer keeps this result; its URL and the record are kept',
        code: null,
      },
    };
  }
  return {
    state: 'failed',
    error: {
      kind: 'download',
      message: failed[0]?.error ?? `${DOWNLOAD_FAILED}.`,
      code: null,
    },
  };
}
