/**
 * The picture models of the service beyond Flux schnell's text to image (field notes,
 * catalog-families.md): Flux dev, Qwen image and Z-image from text, and Flux's image to image
 * (schnell and dev), which starts from a picture and keeps its size. Prices as published: per
 * image (x `batch_size` on schnell), Z-image by the output's size in tiers.
 */
import { type EntryParts, FLUX_MAX_PIXELS, otherTaskType, pixelsAtMost } from '../entry-parts.ts';
import { height, negativePrompt, prompt, seed, sizedWidth, words } from '../shared-fields.ts';
import { flowShift, guidance, pictureCount, startPicture, steps } from './media-fields.ts';

const picturePrompt = words(prompt, 'Prompt', { help: 'What the picture shows.' });
const lighthouse = { prompt: 'a lighthouse at dusk, watercolour', width: 1024, height: 1024 };

const denoise = words({ type: 'number', min: 0, max: 1 }, 'Change', {
  help: 'How far to move from the picture: near 0 keeps it, 1 redraws it. Empty: 0.7.',
  widget: { kind: 'number', step: 0.05 },
});

/** Flux's denoise is more than 0 and at most 1 (field notes). */
function denoiseAboveZero(input: Record<string, unknown>) {
  return input.denoise === 0
    ? {
        field: 'denoise',
        message: 'input.denoise must be more than 0 and at most 1, got 0',
        words: `${denoise.label} must be more than 0 and at most 1`,
      }
    : null;
}

/** Flux's image to image on `modelName`: its price per image, and `batch_size` on schnell. */
function fluxImageToImage(modelName: string, name: string, micros: number, batch: boolean): EntryParts {
  return otherTaskType({
    modelName,
    historyFamily: 'flux',
    taskType: 'img2img',
    ...(batch ? { shortName: 'img2img' } : {}),
    label: `Image to image (${name})`,
    description: 'A new picture from a picture and a prompt; the same size as the picture.',
    operation: {
      label: `Image to image (${name})`,
      source: 'The picture to start from',
      titleWord: 'reworked',
    },
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 25,
    // field notes: the same price as the model's text to image (H)
    price: batch ? { unit: 'image', micros, countField: 'batch_size' } : { unit: 'image', micros },
    fields: {
      prompt: words(prompt, 'Prompt', { help: 'What the new picture shows.' }),
      image: startPicture('The picture to start from (JPEG, PNG or WebP).', {
        missing: 'Add the picture to start from',
      }),
      negative_prompt: negativePrompt,
      denoise,
      guidance_scale: guidance,
      ...(batch ? { batch_size: pictureCount } : {}),
    },
    check: denoiseAboveZero,
    example: { prompt: 'the same scene in winter', image: '', denoise: 0.7 },
  });
}

export const IMAGE_ENTRIES: readonly EntryParts[] = [
  otherTaskType({
    // field notes: $0.015 per image; non-commercial licence (H)
    modelName: 'flux1-dev',
    historyFamily: 'flux',
    taskType: 'txt2img',
    shortName: 'flux-dev',
    label: 'Image from text (Flux dev)',
    description: 'A picture from a prompt, finer than schnell; not for commercial use.',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 30,
    price: { unit: 'image', micros: 15_000 },
    fields: {
      prompt: picturePrompt,
      negative_prompt: negativePrompt,
      width: sizedWidth,
      height,
      guidance_scale: guidance,
      steps,
      seed,
    },
    check: (input) => pixelsAtMost(input, FLUX_MAX_PIXELS),
    example: lighthouse,
  }),
  fluxImageToImage('flux1-schnell', 'Flux schnell', 1500, true),
  fluxImageToImage('flux1-dev', 'Flux dev', 15_000, false),
  otherTaskType({
    // field notes: $0.015 per image; good at text in pictures (M)
    modelName: 'qwen-image',
    historyFamily: 'qwen',
    taskType: 'txt2img',
    shortName: 'qwen-image',
    label: 'Image from text (Qwen image)',
    description: 'A picture from a prompt; good at writing in pictures.',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 30,
    price: { unit: 'image', micros: 15_000 },
    fields: {
      prompt: picturePrompt,
      negative_prompt: negativePrompt,
      width: sizedWidth,
      height,
      steps,
      seed: words({ type: 'integer', min: -1 }, 'Seed', {
        help: 'The same seed with the same settings gives the same result. -1 or empty: a new one each time.',
        widget: { kind: 'seed' },
      }),
      flow_shift: flowShift,
    },
    example: lighthouse,
  }),
  otherTaskType({
    // field notes: $0.002 / $0.004 / $0.006 / $0.008 for up to 0.5 / 1 / 1.5 / more megapixels (H)
    modelName: 'z-image',
    taskType: 'txt2img',
    shortName: 'z-image',
    label: 'Image from text (Z-image)',
    description: 'A picture from a prompt, priced by its size.',
    outputKind: 'image',
    outputList: 'image_urls',
    expectedSeconds: 20,
    price: {
      unit: 'output-size',
      countField: 'batch_size',
      tiers: [
        { maxMegapixels: 0.5, micros: 2000 },
        { maxMegapixels: 1, micros: 4000 },
        { maxMegapixels: 1.5, micros: 6000 },
        { maxMegapixels: null, micros: 8000 },
      ],
    },
    fields: {
      prompt: picturePrompt,
      negative_prompt: negativePrompt,
      width: sizedWidth,
      height,
      batch_size: pictureCount,
      seed,
      flow_shift: flowShift,
    },
    example: lighthouse,
  }),
];
