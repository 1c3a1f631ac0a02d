/** Which URL shows a task's output or input in the renderer. Pure. */
import { entryOfTask, type OutputKind, type TaskInput, type TaskOutput } from '../../../../shared/index.ts';
import { mediaKind, pictureNotShownText } from '../../../../shared/media/index.ts';
import { mediaUrl } from '../../model/media-url.ts';
import type { LoadedTask } from '../../model/task-status.ts';

/** The output a card shows: the first saved one, else the first. */
export function mainOutput(task: Pick<LoadedTask, 'outputs'>): TaskOutput | null {
  return task.outputs.find((o) => o.state === 'saved' && o.path) ?? task.outputs[0] ?? null;
}

/** The kind of media a task shows: its output's, else what its catalog entry makes (a plain file if unknown). */
export function taskMediaKind(
  task: Pick<LoadedTask, 'outputs' | 'entryId' | 'model' | 'taskType'>,
): OutputKind {
  return mainOutput(task)?.kind ?? entryOfTask(task)?.outputKind ?? 'file';
}

/**
 * Why the window does not show a saved picture itself (its placeholder's words), or null when it
 * may: a picture too large to decode (src/shared/media/picture-decoding.ts). Null for other kinds.
 */
export function pictureNotShown(output: TaskOutput | null): string | null {
  if (output?.state !== 'saved' || mediaKind(output.kind).show.thumbnail !== 'picture') return null;
  return pictureNotShownText(output);
}

/**
 * The thumbnail of a saved output, as a URL; without one, the file itself for a kind that is its
 * own thumbnail (a picture), unless it is too large to decode (pictureNotShown).
 */
export function thumbUrl(output: TaskOutput | null, mediaBaseUrl: string | undefined): string | null {
  if (!output || !mediaBaseUrl) return null;
  if (output.thumbPath) return mediaUrl(mediaBaseUrl, output.thumbPath);
  const itself = mediaKind(output.kind).show.thumbnail === 'picture' && pictureNotShown(output) === null;
  return itself && output.path ? mediaUrl(mediaBaseUrl, output.path) : null;
}

/** The full file of a saved output, as a URL. */
export function fileUrl(output: TaskOutput | null, mediaBaseUrl: string | undefined): string | null {
  if (!output?.path || !mediaBaseUrl) return null;
  return mediaUrl(mediaBaseUrl, output.path);
}

/** The input a result is compared against: face swap's target, an edit's first image, the upscaled image. */
export function compareField(family: string, taskType: string): string | null {
  if (family === 'face-swap') return 'target_image';
  if (family === 'image-edit') return 'image1';
  if (taskType === 'upscale') return 'image';
  return null;
}

/**
 * A task's input as a URL an <img> may load: a library copy through the media base (as outputs),
 * Base64 as a data URL, a web address as given. Null for a library copy without a media base.
 */
export function inputUrl(input: TaskInput, mediaBaseUrl: string | undefined): string | null {
  if (input.source === 'file') return mediaBaseUrl ? mediaUrl(mediaBaseUrl, input.value) : null;
  if (input.source === 'base64') {
    return input.value.startsWith('data:')
      ? input.value
      : `data:${input.mime ?? 'image/png'};base64,${input.value}`;
  }
  return input.value;
}

/** The input image to compare an image result against (see compareField), as a URL. */
export function beforeImageUrl(
  task: { inputs?: readonly TaskInput[]; family: string; taskType: string },
  mediaBaseUrl: string | undefined,
): string | null {
  const field = compareField(task.family, task.taskType);
  const input = field ? task.inputs?.find((i) => i.field === field) : undefined;
  return input ? inputUrl(input, mediaBaseUrl) : null;
}
