/**
 * The catalog: every operation the app knows, one entry per model and task type (the service
 * repeats task types across models: `upscale` on image-toolkit and video-toolkit, `txt2img` on
 * several). Model names are vendor-neutral (`ace-step`); the vendor and any per-entry override
 * come from the service profile (service-profiles.ts). The draft checks, prices, polling, the
 * composer, the CLI and the sandbox all read this table through the lookups of
 * entry-lookup.ts: adding a model is one entry here (plus a form component only where it
 * needs its own form).
 */

import { MEDIA_ENTRIES } from './entries/index.ts';
import {
  type EntryParts,
  FLUX_MAX_PIXELS,
  imageToolkit,
  nonEmpty,
  otherTaskType,
  pixelsAtMost,
} from './entry-parts.ts';
import type { TaskTypeEntry } from './entry-types.ts';
import {
  faceImage,
  height,
  negativePrompt,
  prompt,
  seed,
  sizedWidth,
  text,
  toolkitImage,
  width,
  words,
} from './shared-fields.ts';
import { SONG_ENTRIES } from './song-entries.ts';

export {
  type OperationWords,
  OUTPUT_KINDS,
  type OutputField,
  type OutputKind,
  TASK_FAMILIES,
  type TaskFamily,
  type TaskTypeEntry,
} from './entry-types.ts';

const ENTRIES: readonly EntryParts[] = [
  ...SONG_ENTRIES,
  {
    // the spec writes this model `<image_edit_model_id>`; the real service's public examples
    // name it qwen-image (one source says qwen-edit-image: override it in Settings)
    modelName: 'qwen-image',
    historyFamily: 'qwen',
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
        image1: words({ type: 'string', required: true, media: 'image' }, 'image1', {
          help: 'The picture to edit.',
          missing: 'Add a picture to edit',
          resultAction: { id: 'edit-image1', label: 'Edit (as image1)' },
        }),
        image2: words({ type: 'string', media: 'image' }, 'image2', {
          help: 'A second picture the prompt can name.',
        }),
        image3: words({ type: 'string', media: 'image' }, 'image3', { help: 'A third one, after image2.' }),
        prompt: words(prompt, 'Prompt', {
          help: 'Describe the edit; name the pictures image1, image2.',
          missing: 'Write a prompt that describes the edit',
        }),
        negative_prompt: negativePrompt,
        seed,
        steps: words({ type: 'integer', min: 1, max: 100 }, 'Steps', {
          help: "More steps: finer detail, slower. Empty: the model's default.",
        }),
        flow_shift: words({ type: 'number' }, 'Flow shift', {
          help: "How boldly the edit may reshape the picture: higher changes layout and shapes more, lower keeps closer to image1 and works on detail. Empty: the model's default.",
          widget: { kind: 'number', step: 0.1 },
        }),
      },
      check: (input) =>
        nonEmpty(input.image3) && !nonEmpty(input.image2)
          ? {
              field: 'image2',
              message: 'input.image2 is required when input.image3 is given',
              words: 'Add image2 before image3 (or move the picture in image3 to image2)',
            }
          : null,
    },
    sizeParameter: null,
    example: { image1: '', prompt: 'put the cat from image1 on the sofa of image2', image2: '' },
  },
  {
    modelName: 'image-toolkit',
    historyFamily: 'image_toolkit',
    taskType: 'face-swap',
    shortName: 'face-swap',
    family: 'face-swap',
    makes: 'face-swap',
    label: 'Face swap',
    outputKind: 'image',
    expectedSeconds: 20,
    price: { unit: 'generation', micros: 10_000 },
    sandboxOnly: false,
    input: {
      strict: true,
      fields: {
        target_image: words(faceImage, 'Target image', {
          help: 'The picture whose face is replaced.',
          missing: 'Add a target image',
          resultAction: { id: 'face-target', label: 'Use as face-swap target' },
        }),
        swap_image: words(faceImage, 'Face image', {
          help: 'The face to put in.',
          missing: 'Add a face image',
          resultAction: { id: 'face', label: 'Use as face' },
        }),
      },
    },
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
      target_image: words(faceImage, 'Target image', {
        help: 'The picture whose faces are replaced.',
        missing: 'Add a target image',
        resultAction: { id: 'multi-face-swap', label: 'Multi-face swap' },
      }),
      swap_image: words(faceImage, 'Face image', {
        help: 'The picture with the faces to put in.',
        missing: 'Add a face image',
      }),
      // the Face swap tab's "Several faces" shows these with these words, in this order
      target_faces_index: words({ type: 'string' }, 'Faces to replace', {
        help: 'Which faces of the target image, numbered from 0 left to right: 0, or 0,1 for two.',
      }),
      swap_faces_index: words({ type: 'string' }, 'Faces to use', {
        help: 'Which faces of the face image, in the same order: the first replaces the first.',
      }),
    },
    example: { target_image: '', swap_image: '', swap_faces_index: '0', target_faces_index: '0' },
  }),
  otherTaskType({
    ...imageToolkit,
    taskType: 'background-remove',
    shortName: 'background-remove',
    label: 'Background removal',
    description: 'Keep the subject, make the rest transparent.',
    operation: {
      label: 'Remove background',
      source: 'The picture',
      titleWord: 'no background',
    },
    deterministic: true,
    transparentOutput: true,
    expectedSeconds: 10,
    // field notes: $0.001 (H)
    price: { unit: 'image', micros: 1000 },
    fields: {
      image: { ...toolkitImage, missing: 'Add the picture whose background to remove' },
      rmbg_model: words({ type: 'string' }, 'Removal model', { help: "Empty: the service's default." }),
    },
    example: { image: '' },
  }),
  otherTaskType({
    ...imageToolkit,
    taskType: 'segment',
    shortName: 'segment',
    label: 'Segment by prompt',
    description: 'Cut out what a prompt names.',
    operation: {
      label: 'Segment',
      source: 'The picture to cut from',
      titleWord: 'segment',
    },
    deterministic: true,
    expectedSeconds: 10,
    // field notes: $0.01 per megapixel of the picture, rounded up (H)
    price: { unit: 'megapixel', micros: 10_000, field: 'image' },
    fields: {
      image: { ...toolkitImage, missing: 'Add the picture to cut from' },
      prompt: words(prompt, 'What to cut out'),
      negative_prompt: words(text, 'What to leave out'),
      segment_factor: words({ type: 'integer' }, 'Edge adjustment', {
        unit: ' pixels',
        help: 'In pixels: negative shrinks the cut-out, positive grows it.',
      }),
    },
    example: { image: '', prompt: 'the person on the left' },
  }),
  otherTaskType({
    ...imageToolkit,
    taskType: 'upscale',
    shortName: 'upscale',
    label: 'Image upscale',
    description: 'A larger picture with finer detail.',
    operation: {
      label: 'Upscale',
      source: 'The picture to upscale',
      titleWord: 'upscaled',
    },
    deterministic: true,
    expectedSeconds: 15,
    fields: {
      image: { ...toolkitImage, missing: 'Add the picture to upscale' },
      scale: words({ type: 'integer', min: 1, max: 4 }, 'Scale', {
        help: '2 doubles the width and the height.',
      }),
      face_enhance: words({ type: 'boolean' }, 'Improve faces'),
    },
    example: { image: '', scale: 2, face_enhance: false },
  }),
  otherTaskType({
    // field notes (catalog-families.md): Flux schnell, Apache-2.0, $0.0015 per image (H)
    modelName: 'flux1-schnell',
    historyFamily: 'flux',
    taskType: 'txt2img',
    shortName: 'flux',
    label: 'Image from text (Flux schnell)',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 20,
    price: { unit: 'image', micros: 1500, countField: 'batch_size' },
    description: 'A picture from a prompt, fast and cheap.',
    fields: {
      prompt: words(prompt, 'Prompt', { help: 'What the picture shows.' }),
      negative_prompt: negativePrompt,
      width: sizedWidth,
      height,
      guidance_scale: words({ type: 'number', min: 1.5, max: 5 }, 'Guidance', {
        help: "How closely to follow the prompt: higher follows it more literally. Empty: the model's default.",
        widget: { kind: 'number', step: 0.1 },
      }),
      batch_size: words({ type: 'integer', min: 1, max: 4 }, 'Pictures', {
        help: 'How many pictures one task makes; each is paid for.',
        plural: true,
        widget: {
          kind: 'choice',
          choices: [
            { value: 1, label: '1 picture' },
            { value: 2, label: '2 pictures' },
            { value: 3, label: '3 pictures' },
            { value: 4, label: '4 pictures' },
          ],
        },
      }),
      seed,
    },
    check: (input) => pixelsAtMost(input, FLUX_MAX_PIXELS),
    example: { prompt: 'a lighthouse at dusk, watercolour', width: 1024, height: 1024, batch_size: 1 },
  }),
  otherTaskType({
    // field notes: video-toolkit's upscale, always 2x; $0.0003 per frame (M); an MP4 of
    // 10-240 frames, at most 1280 x 720 and 10 MB (H)
    modelName: 'video-toolkit',
    historyFamily: 'video_toolkit',
    taskType: 'upscale',
    shortName: 'video-upscale',
    label: 'Video upscale',
    description: 'The video at twice the width and height.',
    operation: {
      label: 'Upscale video',
      source: 'The video to upscale (an MP4 of 10 to 240 frames, at most 1280 x 720)',
      titleWord: 'upscaled',
    },
    deterministic: true,
    outputKind: 'video',
    expectedSeconds: 120,
    price: { unit: 'frame', micros: 300, field: 'video' },
    fields: {
      video: {
        type: 'string',
        label: 'The video',
        required: true,
        missing: 'Add the video to upscale',
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
    description: "The sandbox's own picture model.",
    fields: { prompt, negative_prompt: negativePrompt, width, height, seed },
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
    description: "The sandbox's own video model.",
    fields: {
      prompt,
      duration: words({ type: 'number', min: 1, max: 30 }, 'Length', { unit: ' seconds' }),
    },
    sizeParameter: 'duration',
    example: { prompt: 'waves rolling onto a beach at sunset', duration: 5 },
  }),
  ...MEDIA_ENTRIES,
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
