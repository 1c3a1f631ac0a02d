/**
 * What files a completed task yields and how each is made, by task type. Files made from
 * parameters alone (audio, video, text-to-image) get a key derived from those parameters, so
 * identical requests share bytes and evicted bytes can be made again.
 */
import { createHash } from 'node:crypto';
import type { GenerationJob } from './generation-jobs.ts';
import type { CheckedImage } from './image-input-check.ts';
import { hashText } from './media/index.ts';
import { audioSecondsOf } from './task-timing.ts';

/** Runs a generation job (on a worker thread or the main thread). */
export type RunJob = (job: GenerationJob) => Promise<Buffer>;

export interface PlannedOutput {
  /** File name under `/files/<task_id>/`. */
  name: string;
  contentType: string;
  /** Output store key. */
  key: string;
  regenerable: boolean;
  produce: () => Promise<Buffer>;
  /** Media length in seconds for audio and video. */
  seconds: number | null;
}

export interface OutputSource {
  id: string;
  taskType: string;
  input: Record<string, unknown>;
  images: CheckedImage[];
  run: RunJob;
}

const PNG = 'image/png';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function paramsKey(kind: string, params: unknown): string {
  return `${kind}:${createHash('sha1').update(JSON.stringify(params)).digest('hex')}`;
}

function imageOf(source: OutputSource, name: string): CheckedImage {
  const found = source.images.find((i) => i.name === name);
  if (!found) throw new Error(`input image ${name} is missing`);
  return found;
}

function pinned(source: OutputSource, name: string, produce: () => Promise<Buffer>): PlannedOutput {
  return {
    name,
    contentType: PNG,
    key: `task:${source.id}/${name}`,
    regenerable: false,
    produce,
    seconds: null,
  };
}

function planAudio(source: OutputSource): PlannedOutput {
  const { input, taskType } = source;
  const seconds = audioSecondsOf(taskType, input);
  const params = {
    stylePrompt: str(input.edit_style_prompt) || str(input.style_prompt) || 'reference audio',
    lyrics: str(input.edit_lyrics) || str(input.lyrics),
    negativePrompt: str(input.negative_prompt),
    durationSeconds: seconds,
    seedText: `${taskType}|${str(input.style_prompt)}|${str(input.lyrics)}|${str(input.style_audio)}${str(input.audio).slice(0, 256)}`,
  };
  return {
    name: 'audio.wav',
    contentType: 'audio/wav',
    key: paramsKey('wav', params),
    regenerable: true,
    produce: () => source.run({ kind: 'song', params }),
    seconds,
  };
}

function planTextImage(source: OutputSource): PlannedOutput {
  const prompt = str(source.input.prompt);
  const seed = num(source.input.seed, hashText(prompt));
  const width = num(source.input.width, 512);
  const height = num(source.input.height, 512);
  return {
    name: 'image.png',
    contentType: PNG,
    key: paramsKey('txt2img', [prompt, seed, width, height]),
    regenerable: true,
    produce: () => source.run({ kind: 'textImage', prompt, seed, width, height }),
    seconds: null,
  };
}

function planVideo(source: OutputSource): PlannedOutput {
  const prompt = str(source.input.prompt);
  const seconds = num(source.input.duration, 5);
  return {
    name: 'video.mp4',
    contentType: 'video/mp4',
    key: paramsKey('mp4', [prompt, seconds]),
    regenerable: true,
    produce: () => source.run({ kind: 'video', params: { prompt, seconds } }),
    seconds,
  };
}

/** The output files of a task about to complete. */
export function planOutputs(source: OutputSource): PlannedOutput[] {
  const { input } = source;
  switch (source.taskType) {
    case 'txt2audio':
    case 'audio2audio':
    case 'edit':
    case 'extend':
      return [planAudio(source)];
    case 'txt2img':
      return [planTextImage(source)];
    case 'txt2video':
      return [planVideo(source)];
    case 'face-swap':
    case 'multi-face-swap':
      return [
        pinned(source, 'image.png', () =>
          source.run({
            kind: 'faceSwap',
            target: imageOf(source, 'target_image'),
            swap: imageOf(source, 'swap_image'),
          }),
        ),
      ];
    case 'image-edit': {
      const images = ['image1', 'image2', 'image3'].flatMap((n) => source.images.filter((i) => i.name === n));
      const prompt = str(input.prompt);
      const seed = num(input.seed, hashText(prompt));
      return [pinned(source, 'image-1.png', () => source.run({ kind: 'imageEdit', images, prompt, seed }))];
    }
    case 'upscale':
      return [
        pinned(source, 'image.png', () =>
          source.run({ kind: 'upscale', image: imageOf(source, 'image'), scale: num(input.scale, 2) }),
        ),
      ];
    case 'background-remove':
      return [
        pinned(source, 'image.png', () =>
          source.run({ kind: 'backgroundRemove', image: imageOf(source, 'image') }),
        ),
      ];
    case 'segment':
      return [
        pinned(source, 'image.png', () =>
          source.run({
            kind: 'segment',
            image: imageOf(source, 'image'),
            factor: num(input.segment_factor, 0),
          }),
        ),
      ];
    default:
      return [];
  }
}
