/**
 * The catalog: every operation the app knows, one entry per model and task type (the service
 * repeats task types across models: `upscale` on image-toolkit and video-toolkit, `txt2img` on
 * several). Model names are vendor-neutral (`ace-step`); the vendor and any per-entry override
 * come from the service profile (service-profiles.ts). The draft checks, prices, polling, the
 * composer, the CLI and the sandbox all read this table through the lookups of
 * entry-lookup.ts: adding a model is one entry here (plus a form component only where it
 * needs its own form).
 */

import { MEDIA_KINDS, type MediaKind } from '../media/media-kinds.ts';
import type { InputRules } from './input-fields.ts';
import { LIMITS } from './limits.ts';
import type { PriceRule } from './price-rules.ts';

/** What a task yields: a kind of the media table (media/media-kinds.ts). */
export const OUTPUT_KINDS = MEDIA_KINDS;
export type OutputKind = MediaKind;

/** One field of a task's `output` that holds a result, as the entry's model names it. */
export interface OutputField {
  field: string;
  kind: OutputKind;
}

export const TASK_FAMILIES = ['song', 'face-swap', 'image-edit', 'other'] as const;
/** The task families the composer has a tab for; everything else is `other`. */
export type TaskFamily = (typeof TASK_FAMILIES)[number];

export interface TaskTypeEntry {
  /**
   * The entry's stable id, `<modelName>/<taskType>` (vendor-free): stored with each task, and
   * the key of a model-id override.
   */
  id: string;
  /** The model's name without its vendor, e.g. `ace-step`; the id sent is `<vendor>/<modelName>`. */
  modelName: string;
  /** Other names of the model that find this entry (an earlier version's, another source's); never sent. */
  modelAliases?: readonly string[];
  /** The service's task type; with the model name it names the entry (repeated across models). */
  taskType: string;
  family: TaskFamily;
  /**
   * What the task makes, as the library's Type filter groups tasks: a song extend is listed under
   * songs and a multi-face swap under face swaps, though both are `other` to the composer.
   */
  makes: TaskFamily;
  /** Human label for menus. */
  label: string;
  /** What a completed task yields; its first output is in `output.<kind>_url` (`image_url`). */
  outputKind: OutputKind;
  /** The output field listing every output when there may be several (`image_urls`), if any. */
  outputList?: string;
  /**
   * The output fields the entry's model fills, in order, when they are not `<kind>_url` (plus
   * `outputList`): trellis names its three `model_file` (a GLB), `combined_video` (an MP4) and
   * `no_background_image` (a PNG). The sandbox answers in them.
   */
  outputFields?: readonly OutputField[];
  /** The CLI's name of the entry: `media-task create <shortName>` (its id always works too). */
  shortName?: string;
  /** Expected service-side duration in seconds before any history exists (pending + processing). */
  expectedSeconds: number;
  /** The published price (price-rules.ts); null when none is published. */
  price: PriceRule | null;
  /** Only the built-in sandbox serves it (a model that exercises another answer form). */
  sandboxOnly: boolean;
  input: InputRules;
  /** The input number that scales the task's duration (for the polling schedule), if any. */
  sizeParameter: string | null;
  /** A starting input for the JSON editor of the Other tab. */
  example: Record<string, unknown>;
}

const lyrics = { type: 'string', maxLength: LIMITS.lyricsMaxChars } as const;
const text = { type: 'string', maxLength: LIMITS.promptMaxChars } as const;
const requiredText = { ...text, required: true } as const;
const audioSeconds = { min: LIMITS.audioMinSeconds, max: LIMITS.audioMaxSeconds } as const;
const audioDuration = { type: 'number', ...audioSeconds } as const;
const requiredAudio = { type: 'string', required: true, media: 'audio' } as const;
const faceImage = { type: 'string', required: true, media: 'image', urlExtension: true } as const;
const toolkitImage = { type: 'string', required: true, media: 'image' } as const;

/** The prompt fields of ace-step's song, audio-to-audio and extend task types, in this order. */
const aceStepPrompts = {
  style_prompt: text,
  // the spec's name; the real service echoes and its clients send negative_style_prompt
  negative_prompt: text,
  negative_style_prompt: text,
  lyrics,
} as const;

/** What the task types of one model share: its name, what they yield and (ace-step) how long they take. */
const aceStepAudio = {
  modelName: 'ace-step',
  makes: 'song',
  outputKind: 'audio',
  expectedSeconds: 60,
} as const;
const imageToolkit = { modelName: 'image-toolkit', outputKind: 'image' } as const;

/** An entry as written below: its id is made from its model name and task type. */
type EntryParts = Omit<TaskTypeEntry, 'id'>;

type OtherTaskTypeParts = Omit<
  EntryParts,
  'family' | 'makes' | 'price' | 'sandboxOnly' | 'input' | 'sizeParameter'
> &
  Partial<
    Pick<
      TaskTypeEntry,
      'makes' | 'price' | 'sandboxOnly' | 'sizeParameter' | 'outputList' | 'outputFields' | 'shortName'
    >
  > & {
    fields: InputRules['fields'];
    check?: InputRules['check'];
  };

/**
 * The entry of a task type of the Other tab: its input is checked loosely (fields beyond these
 * pass), and unless given it makes something `other`, has no published price, the real service serves it and no input
 * scales its duration.
 */
function otherTaskType(parts: OtherTaskTypeParts): EntryParts {
  return {
    modelName: parts.modelName,
    taskType: parts.taskType,
    family: 'other',
    makes: parts.makes ?? 'other',
    label: parts.label,
    outputKind: parts.outputKind,
    ...(parts.outputList ? { outputList: parts.outputList } : {}),
    ...(parts.outputFields ? { outputFields: parts.outputFields } : {}),
    ...(parts.shortName ? { shortName: parts.shortName } : {}),
    expectedSeconds: parts.expectedSeconds,
    price: parts.price ?? null,
    sandboxOnly: parts.sandboxOnly ?? false,
    input: { strict: false, fields: parts.fields, ...(parts.check ? { check: parts.check } : {}) },
    sizeParameter: parts.sizeParameter ?? null,
    example: parts.example,
  };
}

/** Flux: width x height at most 1024 x 1024 (field notes). */
const FLUX_MAX_PIXELS = 1_048_576;

/** A cross-field rule: `width` x `height`, when both are given, at most `max` pixels. */
function pixelsAtMost(input: Record<string, unknown>, max: number) {
  const { width, height } = input;
  if (typeof width !== 'number' || typeof height !== 'number' || width * height <= max) return null;
  return {
    field: 'width',
    message: `input.width x input.height must be at most ${max.toLocaleString('en-US')} pixels, got ${width} x ${height} = ${(width * height).toLocaleString('en-US')}`,
  };
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

const ENTRIES: readonly EntryParts[] = [
  {
    modelName: 'ace-step',
    taskType: 'txt2audio',
    shortName: 'audio',
    family: 'song',
    makes: 'song',
    label: 'Song from text',
    outputKind: 'audio',
    expectedSeconds: 60,
    price: { unit: 'second', micros: 500, field: 'duration' },
    sandboxOnly: false,
    input: {
      strict: true,
      fields: {
        ...aceStepPrompts,
        duration: { type: 'number', required: true, ...audioSeconds },
        style_audio: { type: 'string', media: 'audio' },
      },
      check: (input) =>
        nonEmpty(input.style_prompt) || nonEmpty(input.style_audio)
          ? null
          : {
              field: 'style_prompt',
              message:
                'input.style_prompt or input.style_audio is required (a text prompt or reference audio)',
            },
    },
    sizeParameter: 'duration',
    example: { style_prompt: 'lofi piano, rain', lyrics: '[inst]', duration: 30 },
  },
  otherTaskType({
    ...aceStepAudio,
    taskType: 'audio2audio',
    shortName: 'remix',
    label: 'Audio to audio',
    fields: { style_audio: requiredAudio, ...aceStepPrompts, duration: audioDuration },
    sizeParameter: 'duration',
    example: { style_audio: '', style_prompt: '', duration: 30 },
  }),
  otherTaskType({
    ...aceStepAudio,
    taskType: 'edit',
    shortName: 'song-edit',
    label: 'Audio edit',
    fields: {
      audio: requiredAudio,
      style_prompt: text,
      lyrics,
      edit_style_prompt: text,
      edit_lyrics: lyrics,
      duration: audioDuration,
    },
    example: { audio: '', style_prompt: '', lyrics: '', edit_style_prompt: '', edit_lyrics: '' },
  }),
  otherTaskType({
    ...aceStepAudio,
    taskType: 'extend',
    shortName: 'extend',
    label: 'Audio extend',
    fields: {
      audio: requiredAudio,
      ...aceStepPrompts,
      duration: audioDuration,
      left_extend_duration: { type: 'number', min: 0, max: LIMITS.audioMaxSeconds },
      right_extend_duration: { type: 'number', min: 0, max: LIMITS.audioMaxSeconds },
    },
    example: { audio: '', style_prompt: '', left_extend_duration: 0, right_extend_duration: 10 },
  }),
  {
    // the spec writes this model `<image_edit_model_id>`; the real service's public examples
    // name it qwen-image (one source says qwen-edit-image: override it in Settings)
    modelName: 'qwen-image',
    // the demo libraries of earlier versions named it image-edit
    modelAliases: ['image-edit', 'qwen-edit-image'],
    taskType: 'image-edit',
    shortName: 'image-edit',
    family: 'image-edit',
    makes: 'image-edit',
    label: 'Image edit',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 30,
    price: { unit: 'image', micros: 25_000 },
    sandboxOnly: false,
    input: {
      strict: true,
      fields: {
        image1: { type: 'string', required: true, media: 'image' },
        image2: { type: 'string', media: 'image' },
        image3: { type: 'string', media: 'image' },
        prompt: requiredText,
        negative_prompt: text,
        seed: { type: 'integer' },
        steps: { type: 'integer', min: 1, max: 100 },
        flow_shift: { type: 'number' },
      },
      check: (input) =>
        nonEmpty(input.image3) && !nonEmpty(input.image2)
          ? { field: 'image2', message: 'input.image2 is required when input.image3 is given' }
          : null,
    },
    sizeParameter: null,
    example: { image1: '', prompt: 'put the cat from image1 on the sofa of image2', image2: '' },
  },
  {
    modelName: 'image-toolkit',
    taskType: 'face-swap',
    shortName: 'face-swap',
    family: 'face-swap',
    makes: 'face-swap',
    label: 'Face swap',
    outputKind: 'image',
    expectedSeconds: 20,
    price: { unit: 'generation', micros: 10_000 },
    sandboxOnly: false,
    input: { strict: true, fields: { target_image: faceImage, swap_image: faceImage } },
    sizeParameter: null,
    example: { target_image: '', swap_image: '' },
  },
  otherTaskType({
    ...imageToolkit,
    taskType: 'multi-face-swap',
    shortName: 'multi-face-swap',
    makes: 'face-swap',
    label: 'Multi face swap',
    expectedSeconds: 25,
    // field notes: multi-face-swap costs 0.015
    price: { unit: 'generation', micros: 15_000 },
    fields: {
      target_image: faceImage,
      swap_image: faceImage,
      swap_faces_index: { type: 'string' },
      target_faces_index: { type: 'string' },
    },
    example: { target_image: '', swap_image: '', swap_faces_index: '0', target_faces_index: '0' },
  }),
  otherTaskType({
    ...imageToolkit,
    taskType: 'background-remove',
    shortName: 'background-remove',
    label: 'Background removal',
    expectedSeconds: 10,
    // field notes: $0.001 (H)
    price: { unit: 'image', micros: 1000 },
    fields: { image: toolkitImage, rmbg_model: { type: 'string' } },
    example: { image: '' },
  }),
  otherTaskType({
    ...imageToolkit,
    taskType: 'segment',
    shortName: 'segment',
    label: 'Segment by prompt',
    expectedSeconds: 10,
    // field notes: $0.01 per megapixel of the picture, rounded up (H)
    price: { unit: 'megapixel', micros: 10_000, field: 'image' },
    fields: {
      image: toolkitImage,
      prompt: requiredText,
      negative_prompt: text,
      segment_factor: { type: 'integer' },
    },
    example: { image: '', prompt: 'the person on the left' },
  }),
  otherTaskType({
    ...imageToolkit,
    taskType: 'upscale',
    shortName: 'upscale',
    label: 'Image upscale',
    expectedSeconds: 15,
    fields: {
      image: toolkitImage,
      scale: { type: 'integer', min: 1, max: 4 },
      face_enhance: { type: 'boolean' },
    },
    example: { image: '', scale: 2, face_enhance: false },
  }),
  otherTaskType({
    // field notes (catalog-families.md): Flux schnell, Apache-2.0, $0.0015 per image (H)
    modelName: 'flux1-schnell',
    taskType: 'txt2img',
    shortName: 'flux',
    label: 'Image from text (Flux schnell)',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 20,
    price: { unit: 'image', micros: 1500, countField: 'batch_size' },
    fields: {
      prompt: requiredText,
      negative_prompt: text,
      width: { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 },
      height: { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 },
      guidance_scale: { type: 'number', min: 1.5, max: 5 },
      batch_size: { type: 'integer', min: 1, max: 4 },
      seed: { type: 'integer' },
    },
    check: (input) => pixelsAtMost(input, FLUX_MAX_PIXELS),
    example: { prompt: 'a lighthouse at dusk, watercolour', width: 1024, height: 1024, batch_size: 1 },
  }),
  otherTaskType({
    // field notes: video-toolkit's upscale, always 2x; $0.0003 per frame (M); an MP4 of
    // 10-240 frames, at most 1280 x 720 and 10 MB (H)
    modelName: 'video-toolkit',
    taskType: 'upscale',
    shortName: 'video-upscale',
    label: 'Video upscale',
    outputKind: 'video',
    expectedSeconds: 120,
    price: { unit: 'frame', micros: 300, field: 'video' },
    fields: {
      video: {
        type: 'string',
        required: true,
        media: 'video',
        mediaLimits: { minFrames: 10, maxFrames: 240 },
      },
    },
    example: { video: '' },
  }),
  otherTaskType({
    // not in the spec: a text-to-image model whose fetch answers in the detailed form C
    modelName: 'image-gen',
    taskType: 'txt2img',
    shortName: 'image-gen',
    label: 'Image from text',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 20,
    sandboxOnly: true,
    fields: {
      prompt: requiredText,
      negative_prompt: text,
      width: { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 },
      height: { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 },
      seed: { type: 'integer' },
    },
    example: { prompt: 'a lighthouse at dusk, watercolour', width: 1024, height: 1024 },
  }),
  otherTaskType({
    // not in the spec: a video model whose fetch answers in form B
    modelName: 'video-gen',
    taskType: 'txt2video',
    shortName: 'video-gen',
    label: 'Video from text',
    outputKind: 'video',
    expectedSeconds: 120,
    sandboxOnly: true,
    fields: { prompt: requiredText, duration: { type: 'number', min: 1, max: 30 } },
    sizeParameter: 'duration',
    example: { prompt: 'waves rolling onto a beach at sunset', duration: 5 },
  }),
];

/** Every entry, with its id. */
export const TASK_TYPES: readonly TaskTypeEntry[] = ENTRIES.map((parts) => ({
  id: `${parts.modelName}/${parts.taskType}`,
  ...parts,
}));

/** The model name of a model id: the part after the vendor (`Qubico/ace-step` -> `ace-step`). */
export function modelNameOf(modelId: string): string {
  const slash = modelId.lastIndexOf('/');
  return slash < 0 ? modelId : modelId.slice(slash + 1);
}

/** The vendor of a model id, or '' when it has none. */
export function vendorOf(modelId: string): string {
  const slash = modelId.lastIndexOf('/');
  return slash < 0 ? '' : modelId.slice(0, slash);
}
