/** Which URL shows a task's output or input in the renderer. Pure. */
import type { TaskInput, TaskOutput } from '../../../../shared/index.ts';
import { mediaUrl } from '../../model/media-url.ts';
import type { TaskSummary } from '../../model/task-status.ts';

/** The output a card shows: the first saved one, else the first. */
export function mainOutput(task: Pick<TaskSummary, 'outputs'>): TaskOutput | null {
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

/** The input image to compare a face swap or an edit against: target_image or image1. */
export function beforeImageUrl(
  inputs: readonly TaskInput[] | undefined,
  family: string,
  mediaBaseUrl: string | undefined,
): string | null {
  const field = family === 'face-swap' ? 'target_image' : family === 'image-edit' ? 'image1' : null;
  if (!field || !inputs) return null;
  const input = inputs.find((i) => i.field === field);
  if (!input) return null;
  if (input.source === 'file') return mediaBaseUrl ? mediaUrl(mediaBaseUrl, input.value) : null;
  if (input.source === 'base64') {
    return input.value.startsWith('data:')
      ? input.value
      : `data:${input.mime ?? 'image/png'};base64,${input.value}`;
  }
  return input.value;
}
