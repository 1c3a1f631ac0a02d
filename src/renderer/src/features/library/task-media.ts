/** Which URL shows a task's output or input in the renderer. Pure. */
import type { TaskInput, TaskOutput } from '../../../../shared/index.ts';
import { mediaUrl } from '../../model/media-url.ts';
import type { LoadedTask } from '../../model/task-status.ts';

/** The output a card shows: the first saved one, else the first. */
export function mainOutput(task: Pick<LoadedTask, 'outputs'>): TaskOutput | null {
  return task.outputs.find((o) => o.state === 'saved' && o.path) ?? task.outputs[0] ?? null;
}

/** The thumbnail (or the file itself) of a saved output, as a URL. */
export function thumbUrl(output: TaskOutput | null, mediaBaseUrl: string | undefined): string | null {
  if (!output || !mediaBaseUrl) return null;
  const path = output.thumbPath ?? output.path;
  return path ? mediaUrl(mediaBaseUrl, path) : null;
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
