/**
 * What files a completed task yields and how each is made, by catalog entry (an entry without a
 * maker of its own gets an output of its kind from its words). Files made from
 * parameters alone (songs, video, text-to-image) get a key derived from those parameters, so
 * identical requests share bytes and evicted bytes can be made again. Songs made from a source
 * song take their length and sample rate from it: `edit` keeps the source's length,
 * `audio2audio` follows the style audio's length unless `duration` is given, and `extend` keeps
 * the source's own samples between the new parts (pinned, as it holds the source). A video
 * toolkit operation on a video the sandbox made draws that video's scene again (fromOwnVideo).
 */
import { createHash } from 'node:crypto';
import type { OutputField, OutputKind, TaskTypeEntry } from '../shared/catalog/index.ts';
import type { SourceAudio } from './audio-source.ts';
import type { GenerationJob } from './generation-jobs.ts';
import type { CheckedImage } from './image-input-check.ts';
import { DEFAULT_VIDEO, hashText, MAX_VIDEO_SIDE, type SongParams, type VideoParams } from './media/index.ts';
import { audioSecondsOf } from './task-timing.ts';

/** Runs a generation job (on a worker thread or the main thread). */
export type RunJob = (job: GenerationJob) => Promise<Buffer>;

export interface PlannedOutput {
  /** File name under `/files/<task_id>/`. */
  name: string;
  contentType: string;
  /** Output cache key. */
  key: string;
  regenerable: boolean;
  produce: () => Promise<Buffer>;
  /** Media length in seconds for audio and video. */
  seconds: number | null;
  /** What a video made from words was made with: a video made from it is drawn from these. */
  video?: VideoParams;
}

export interface OutputSource {
  id: string;
  /** The catalog entry of the task's model and task type. */
  entry: TaskTypeEntry;
  taskType: string;
  input: Record<string, unknown>;
  images: CheckedImage[];
  /** The source song of extend, edit and audio2audio (audio-source.ts), else null. */
  audio: SourceAudio | null;
  /** What a video this sandbox made and serves at `url` was made with, else null (someone else's video). */
  videoAt?: (url: string) => VideoParams | null;
  run: RunJob;
}

const PNG = 'image/png';
const WAV = 'audio/wav';

/** What a planned output is called and holds. */
interface OutputFile {
  name: string;
  contentType: string;
  seconds: number | null;
}

const IMAGE_PNG: OutputFile = { name: 'image.png', contentType: PNG, seconds: null };

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

/** An output made from parameters alone, keyed by them: identical requests share its bytes. */
function fromParams(source: OutputSource, file: OutputFile, key: string, job: GenerationJob): PlannedOutput {
  return {
    name: file.name,
    contentType: file.contentType,
    key,
    regenerable: true,
    produce: () => source.run(job),
    seconds: file.seconds,
    ...(job.kind === 'video' ? { video: job.params } : {}),
  };
}

/**
 * An output of this task alone (made from its input images or source song), kept under the task's
 * key and never made again. The job is built when the output is produced.
 */
function pinned(source: OutputSource, file: OutputFile, job: () => GenerationJob): PlannedOutput {
  return {
    name: file.name,
    contentType: file.contentType,
    key: `task:${source.id}/${file.name}`,
    regenerable: false,
    produce: () => source.run(job()),
    seconds: file.seconds,
  };
}

/** A PNG made from the task's input image `image`. */
function fromImage(source: OutputSource, job: (image: CheckedImage) => GenerationJob): PlannedOutput {
  return pinned(source, IMAGE_PNG, () => job(imageOf(source, 'image')));
}

function planAudio(source: OutputSource): PlannedOutput {
  const { audio } = source;
  if (!audio) return planTextSong(source);
  if (source.taskType === 'extend') return planExtend(source, audio);
  return planSourcedSong(source, audio);
}

/** The style and lyrics of a new song, the edited ones first. */
function songWords(input: Record<string, unknown>): { stylePrompt: string; lyrics: string } {
  return {
    stylePrompt: str(input.edit_style_prompt) || str(input.style_prompt) || 'reference audio',
    lyrics: str(input.edit_lyrics) || str(input.lyrics),
  };
}

function newSong(source: OutputSource, params: SongParams, seconds: number): PlannedOutput {
  const file = { name: 'audio.wav', contentType: WAV, seconds };
  return fromParams(source, file, paramsKey('wav', params), { kind: 'song', params });
}

/** A song from text alone (txt2audio). */
function planTextSong(source: OutputSource): PlannedOutput {
  const { input, taskType } = source;
  const seconds = audioSecondsOf(taskType, input);
  const params = {
    ...songWords(input),
    negativePrompt: str(input.negative_prompt),
    durationSeconds: seconds,
    seedText: `${taskType}|${str(input.style_prompt)}|${str(input.lyrics)}|${str(input.style_audio)}${str(input.audio).slice(0, 256)}`,
  };
  return newSong(source, params, seconds);
}

/** A digest of the source song's bytes, so different sources give different songs. */
function digestOf(audio: SourceAudio): string {
  return createHash('sha1').update(audio.bytes).digest('hex').slice(0, 16);
}

/**
 * `edit`: a new song of exactly the source's length in the edited style and lyrics;
 * `audio2audio`: a new song in the prompt's style, as long as `duration` or else the style audio.
 */
function planSourcedSong(source: OutputSource, audio: SourceAudio): PlannedOutput {
  const { input, taskType } = source;
  const rate = audio.header.sampleRate;
  const given = taskType === 'audio2audio' ? num(input.duration, 0) : 0;
  const frames = given > 0 ? Math.max(1, Math.round(given * rate)) : audio.header.frames;
  const params = {
    ...songWords(input),
    negativePrompt: str(input.negative_prompt) || str(input.negative_style_prompt),
    durationSeconds: frames / rate,
    sampleRate: rate,
    seedText: `${taskType}|${str(input.style_prompt)}|${str(input.lyrics)}|${digestOf(audio)}`,
  };
  return newSong(source, params, frames / rate);
}

/** `extend`: new music before and after the source song, whose samples stay as they are. */
function planExtend(source: OutputSource, audio: SourceAudio): PlannedOutput {
  const { input } = source;
  const { header } = audio;
  const rate = header.sampleRate;
  const leftSeconds = Math.max(0, num(input.left_extend_duration, 0));
  const rightSeconds = Math.max(0, num(input.right_extend_duration, 0));
  const frames = Math.round(leftSeconds * rate) + header.frames + Math.round(rightSeconds * rate);
  const song = {
    stylePrompt: str(input.style_prompt) || 'continuation of the source song',
    lyrics: str(input.lyrics),
    negativePrompt: str(input.negative_prompt) || str(input.negative_style_prompt),
    seedText: `extend|${str(input.style_prompt)}|${str(input.lyrics)}|${digestOf(audio)}`,
  };
  const file = { name: 'audio.wav', contentType: WAV, seconds: frames / rate };
  return pinned(source, file, () => ({
    kind: 'extendSong',
    params: { source: audio.bytes, header, leftSeconds, rightSeconds, song },
  }));
}

/** Pictures from the prompt: `batch_size` of them (1 when the entry has no such field), seeds counted up. */
function planTextImages(source: OutputSource): PlannedOutput[] {
  const prompt = str(source.input.prompt);
  const seed = num(source.input.seed, hashText(prompt));
  const width = num(source.input.width, 512);
  const height = num(source.input.height, 512);
  const count = Math.max(1, Math.min(4, Math.trunc(num(source.input.batch_size, 1))));
  return Array.from({ length: count }, (_, k) => {
    const file = count === 1 ? IMAGE_PNG : { ...IMAGE_PNG, name: `image-${k + 1}.png` };
    const key = paramsKey('txt2img', [prompt, seed + k, width, height]);
    return fromParams(source, file, key, { kind: 'textImage', prompt, seed: seed + k, width, height });
  });
}

/**
 * An MP4 from the prompt (or, for a model that takes a video, from the video's address: the
 * sandbox does not read input videos) lasting `duration` seconds (5 when not given).
 */
function planVideo(source: OutputSource): PlannedOutput {
  const prompt = str(source.input.prompt) || str(source.input.video).slice(0, 200);
  const seconds = num(source.input.duration, 5);
  return videoOf(source, { prompt, seconds });
}

function videoOf(source: OutputSource, params: VideoParams): PlannedOutput {
  const file = { name: 'video.mp4', contentType: 'video/mp4', seconds: params.seconds };
  const { prompt, seconds, width, height, fps } = params;
  return fromParams(
    source,
    file,
    paramsKey(
      'mp4',
      [prompt, seconds, width, height, fps].filter((v) => v !== undefined),
    ),
    {
      kind: 'video',
      params,
    },
  );
}

/**
 * A video toolkit operation on a video this sandbox made (`field` is its address): that video's
 * own scene and length, at `scale` times its size (an upscale is always 2x; a face swap keeps the
 * size). Someone else's video (an upload, another address) is not read: a video of the entry's
 * kind as for any model (planVideo).
 */
function fromOwnVideo(source: OutputSource, field: string, scale: number): PlannedOutput {
  const made = source.videoAt?.(str(source.input[field])) ?? null;
  if (!made) return planVideo(source);
  const width = (made.width ?? DEFAULT_VIDEO.width) * scale;
  const height = (made.height ?? DEFAULT_VIDEO.height) * scale;
  // the generator's largest side: the size of the input then
  const fits = Math.max(width, height) <= MAX_VIDEO_SIDE;
  return videoOf(source, {
    ...made,
    width: fits ? width : (made.width ?? DEFAULT_VIDEO.width),
    height: fits ? height : (made.height ?? DEFAULT_VIDEO.height),
  });
}

/** A GLB model (a cube coloured from the prompt, or from the input picture's address). */
function planModel(source: OutputSource): PlannedOutput {
  const seedText = str(source.input.prompt) || str(source.input.image).slice(0, 200);
  const file = { name: 'model.glb', contentType: 'model/gltf-binary', seconds: null };
  return fromParams(source, file, paramsKey('glb', [seedText]), { kind: 'model3d', params: { seedText } });
}

/** What a kind's output is made of the task's words alone; a plain file kind has no maker. */
function planKind(source: OutputSource, kind: OutputKind): PlannedOutput[] {
  switch (kind) {
    case 'audio':
      return [planTextSong(source)];
    case 'image':
      return planTextImages(source);
    case 'video':
      return [planVideo(source)];
    case '3d':
      return [planModel(source)];
    default:
      return [];
  }
}

/**
 * An output for each field the entry names (`model_file` a GLB, `combined_video` an MP4,
 * `no_background_image` a PNG), in the entry's order, each file named after its field.
 */
function planFields(source: OutputSource, fields: readonly OutputField[]): PlannedOutput[] {
  return fields.flatMap(({ field, kind }) =>
    planKind(source, kind)
      .slice(0, 1)
      .map((planned) => ({
        ...planned,
        name: `${field}${planned.name.slice(planned.name.lastIndexOf('.'))}`,
      })),
  );
}

/**
 * An output of the entry's kind made from its words alone: what the sandbox answers for an entry
 * it has no maker of its own for (a new text-to-image, video or 3D model needs no code here), in
 * the output fields the entry names when it names them.
 */
function planByKind(source: OutputSource): PlannedOutput[] {
  const { outputFields, outputKind } = source.entry;
  return outputFields ? planFields(source, outputFields) : planKind(source, outputKind);
}

/** The output files of a task about to complete: made by the entry's own maker, else by its kind. */
export function planOutputs(source: OutputSource): PlannedOutput[] {
  const { input } = source;
  switch (source.entry.id) {
    case 'ace-step/txt2audio':
    case 'ace-step/audio2audio':
    case 'ace-step/edit':
    case 'ace-step/extend':
      return [planAudio(source)];
    case 'image-toolkit/face-swap':
    case 'image-toolkit/multi-face-swap':
      return [
        pinned(source, IMAGE_PNG, () => ({
          kind: 'faceSwap',
          target: imageOf(source, 'target_image'),
          swap: imageOf(source, 'swap_image'),
        })),
      ];
    case 'qwen-image/image-edit': {
      const images = ['image1', 'image2', 'image3'].flatMap((n) => source.images.filter((i) => i.name === n));
      const prompt = str(input.prompt);
      const seed = num(input.seed, hashText(prompt));
      const file = { name: 'image-1.png', contentType: PNG, seconds: null };
      return [pinned(source, file, () => ({ kind: 'imageEdit', images, prompt, seed }))];
    }
    case 'image-toolkit/upscale': {
      const scale = num(input.scale, 2);
      const faceEnhance = input.face_enhance === true;
      return [fromImage(source, (image) => ({ kind: 'upscale', image, scale, faceEnhance }))];
    }
    case 'video-toolkit/upscale':
      return [fromOwnVideo(source, 'video', 2)];
    case 'video-toolkit/face-swap':
      return [fromOwnVideo(source, 'target_video', 1)];
    case 'image-toolkit/background-remove':
      return [fromImage(source, (image) => ({ kind: 'backgroundRemove', image }))];
    case 'image-toolkit/segment':
      return [
        fromImage(source, (image) => ({ kind: 'segment', image, factor: num(input.segment_factor, 0) })),
      ];
    default:
      return planByKind(source);
  }
}
