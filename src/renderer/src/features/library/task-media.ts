/** Which URL shows a task's output or input in the renderer. Pure. */
import { entryOfTask, type OutputKind, type TaskInput, type TaskOutput } from '../../../../shared/index.ts';
import { mediaKind, mediaKindOfMime, pictureNotShownText } from '../../../../shared/media/index.ts';
import { mediaUrl, previewAllowed } from '../../model/media-url.ts';
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

/** Whether a saved output has a still a card may show: a thumbnail or poster saved beside it, or itself as a picture. */
function hasStill(output: TaskOutput): boolean {
  if (output.state !== 'saved' || !output.path) return false;
  if (output.thumbPath) return true;
  return mediaKind(output.kind).show.thumbnail === 'picture' && pictureNotShown(output) === null;
}

/**
 * The output whose still a card shows: the main output's, else another saved output's (a 3D
 * model's turntable poster or background-free picture); null when none has one (the kind's icon).
 */
export function cardStillOutput(task: Pick<LoadedTask, 'outputs'>): TaskOutput | null {
  const main = mainOutput(task);
  if (main && hasStill(main)) return main;
  return task.outputs.find((o) => o !== main && hasStill(o)) ?? null;
}

/**
 * A saved video output with no poster yet, when the card has no still without it: the window
 * draws one (poster-maker.ts). Null otherwise.
 */
export function posterWanted(task: Pick<LoadedTask, 'outputs'>): TaskOutput | null {
  if (cardStillOutput(task) !== null) return null;
  return (
    task.outputs.find(
      (o) => o.state === 'saved' && o.path && !o.thumbPath && mediaKind(o.kind).show.thumbnail === 'poster',
    ) ?? null
  );
}

/** An output's name in a picker: its number, or its kind when a task's outputs are of several kinds. */
export function outputName(output: TaskOutput, outputs: readonly TaskOutput[]): string {
  const mixed = new Set(outputs.map((o) => o.kind)).size > 1;
  const { label } = mediaKind(output.kind);
  return mixed ? `${label.charAt(0).toUpperCase()}${label.slice(1)}` : `Output ${output.index + 1}`;
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

/**
 * The video a video result is compared with (video upscale's `video`, a face swap's target), as
 * a URL the window may play: a library copy of the input, else the output of the task it was
 * made from (`parent`, when given), whose file the input was sent from. A web address (the
 * upload endpoint's) is not played: the window plays only the library's media.
 */
export function beforeVideoUrl(
  task: { inputs?: readonly TaskInput[]; parentOutput?: number | null },
  parent: Pick<LoadedTask, 'outputs'> | null,
  mediaBaseUrl: string | undefined,
): string | null {
  // by its recorded type; a web address has none: by its field's name (video, target_video)
  const input = task.inputs?.find((i) =>
    i.mime !== null ? mediaKindOfMime(i.mime) === 'video' : /(^|_)video$/.test(i.field),
  );
  if (!input) return null;
  if (input.source === 'file') return inputUrl(input, mediaBaseUrl);
  const made = parent?.outputs.find((o) => o.index === task.parentOutput);
  return made?.state === 'saved' && made.kind === 'video' ? fileUrl(made, mediaBaseUrl) : null;
}

/**
 * The saved output of the task this one was made from that `input` was sent as (by the service's
 * link, while that result was fresh: core/engine/intake/output-inputs.ts), or null. The window
 * shows the library's copy of it, never the link: the page's policy blocks other addresses.
 */
export function parentCopyOf(
  input: TaskInput,
  parent: Pick<LoadedTask, 'outputs'> | null,
): TaskOutput | null {
  if (input.source !== 'url' || !parent) return null;
  return parent.outputs.find((o) => o.url === input.value && o.state === 'saved' && o.path !== null) ?? null;
}

/**
 * An input as a URL the page may show (see inputUrl): the library's copy of the result it was
 * made from when it went as that result's link, else its own URL when the page's policy lets an
 * <img> load it (library media, data); null otherwise.
 */
export function shownInputUrl(
  input: TaskInput,
  parent: Pick<LoadedTask, 'outputs'> | null,
  mediaBaseUrl: string | undefined,
  pageOrigin: string,
): string | null {
  const copy = parentCopyOf(input, parent);
  if (copy) return fileUrl(copy, mediaBaseUrl);
  const url = inputUrl(input, mediaBaseUrl);
  return url && previewAllowed(url, pageOrigin) ? url : null;
}

/** The input image to compare an image result against (see compareField), as a URL the page may show. */
export function beforeImageUrl(
  task: { inputs?: readonly TaskInput[]; family: string; taskType: string },
  parent: Pick<LoadedTask, 'outputs'> | null,
  mediaBaseUrl: string | undefined,
  pageOrigin: string,
): string | null {
  const field = compareField(task.family, task.taskType);
  const input = field ? task.inputs?.find((i) => i.field === field) : undefined;
  return input ? shownInputUrl(input, parent, mediaBaseUrl, pageOrigin) : null;
}
