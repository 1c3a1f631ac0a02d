/**
 * A video result's poster: the window draws the video's first frame (a hidden <video> seeked a
 * little in, drawn to a canvas) once and sends it as a small PNG; main checks it is a PNG (by its
 * bytes) of bounded size, writes it beside the video and records it as the output's thumbnail,
 * so a card shows a still picture and never a live player. The app has no video decoder of its
 * own (no ffmpeg; H.264 cannot be decoded in plain Node), so the window's is used, once per video.
 * Also the saved video's facts (size and length) read from its MP4 boxes.
 */
import { open } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { mediaKind, sniffFileType, type Task } from '../../../shared/index.ts';
import { writeNewFile } from '../../downloads/index.ts';
import { InputValidationError, readAt, readImageHeaderFromBytes, readMp4Facts } from '../../inputs/index.ts';
import { libraryFileOf } from '../../library/index.ts';
import type { LibraryStore } from '../../store/index.ts';
import { TaskActionError } from '../engine-errors.ts';

/** The largest poster accepted, in bytes, and its longest side in pixels. */
export const POSTER_MAX_BYTES = 512 * 1024;
export const POSTER_MAX_SIDE = 640;

/**
 * Records `png` as the poster of a saved video output and returns the task as it is now; a poster
 * already there is kept (the window makes one once; another window's would be the same frame).
 */
export async function savePoster(
  ctx: { libraryDir: string; store: LibraryStore },
  id: string,
  index: number,
  png: Uint8Array,
): Promise<Task> {
  const task = ctx.store.getTask(id);
  if (!task) throw new TaskActionError(`no task ${id}`);
  const output = task.outputs.find((o) => o.index === index);
  if (output?.state !== 'saved' || !output.path) {
    throw new InputValidationError('index', `output ${index} of this task is not saved in the library`);
  }
  const { show, label } = mediaKind(output.kind);
  if (show.thumbnail !== 'poster') {
    throw new InputValidationError('index', `output ${index} is a ${label}: only a video has a poster`);
  }
  if (output.thumbPath) return task;
  checkPoster(png);
  const video = libraryFileOf(ctx.libraryDir, output.path, 'the video');
  const name = `poster-${index + 1}.png`;
  await writeNewFile(join(dirname(video), name), png);
  const stored = posix.join(posix.dirname(output.path), name);
  ctx.store.updateOutput(id, index, { thumbPath: stored });
  const updated = ctx.store.getTask(id);
  if (!updated) throw new TaskActionError(`no task ${id}`);
  return updated;
}

function checkPoster(png: Uint8Array): void {
  if (png.length > POSTER_MAX_BYTES) {
    const kb = Math.ceil(png.length / 1024);
    throw new InputValidationError('png', `the poster is ${kb} KB; at most ${POSTER_MAX_BYTES / 1024} KB`);
  }
  if (sniffFileType(png)?.ext !== 'png')
    throw new InputValidationError('png', 'the poster is not a PNG image');
  let size: { width: number; height: number };
  try {
    size = readImageHeaderFromBytes(png);
  } catch {
    throw new InputValidationError('png', 'the poster is a PNG whose header cannot be read');
  }
  if (size.width < 1 || size.height < 1 || Math.max(size.width, size.height) > POSTER_MAX_SIDE) {
    throw new InputValidationError(
      'png',
      `the poster is ${size.width} × ${size.height} px; its longest side must be 1 to ${POSTER_MAX_SIDE} px`,
    );
  }
}

/** A saved video's width, height and length from its MP4 boxes, or nulls when they cannot be read. */
export async function readVideoFacts(
  file: string,
): Promise<{ width: number | null; height: number | null; durationSeconds: number | null }> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const facts = await readMp4Facts((position, length) => readAt(handle, position, length), size);
      return { width: facts.width, height: facts.height, durationSeconds: facts.durationSeconds };
    } finally {
      await handle.close();
    }
  } catch {
    return { width: null, height: null, durationSeconds: null };
  }
}
