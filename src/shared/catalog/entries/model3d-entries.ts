/**
 * The 3D models of the service (field notes, catalog-families.md): Trellis from a picture or
 * from text, and Trellis 2 from a picture. Trellis answers three fields without a `_url`
 * suffix: `model_file` (a GLB), `combined_video` (a turntable MP4) and `no_background_image`
 * (the picture cut out, a PNG); Trellis 2 `model_file` (presumed).
 */
import type { EntryParts } from '../entry-parts.ts';
import { otherTaskType } from '../entry-parts.ts';
import type { OutputField } from '../entry-types.ts';
import { prompt, seed, words } from '../shared-fields.ts';
import { startPicture } from './media-fields.ts';

const TRELLIS_OUTPUTS: readonly OutputField[] = [
  { field: 'model_file', kind: '3d' },
  { field: 'combined_video', kind: 'video' },
  { field: 'no_background_image', kind: 'image' },
];

/** The picture of an image-to-3d: at most 1024 x 1024 (field notes). */
const objectPicture = startPicture(
  'A picture of one object, at most 1024 x 1024; its background is removed.',
  {
    mediaLimits: { maxSideExclusive: 1025 },
    missing: 'Add the picture of the object',
  },
);

const samplingSteps = (label: string) =>
  words({ type: 'integer', min: 1, max: 50 }, label, {
    help: "More steps: finer detail, slower. Empty: the model's default.",
  });
const strength = (label: string, byDefault: number) =>
  words({ type: 'number', min: 0, max: 10 }, label, {
    help: `How closely to follow the input, from 0 to 10. Empty: ${byDefault}.`,
    widget: { kind: 'number', step: 0.5 },
  });

/** Trellis's tuning: steps and guidance of its two stages (shape, then detail). */
const trellisTuning = {
  seed,
  ss_sampling_steps: samplingSteps('Shape steps'),
  slat_sampling_steps: samplingSteps('Detail steps'),
  ss_guidance_strength: strength('Shape guidance', 7.5),
  slat_guidance_strength: strength('Detail guidance', 3),
};

const fromPicture = {
  label: '3D model (Trellis)',
  source: 'The picture of one object',
  titleWord: '3D',
};

export const MODEL3D_ENTRIES: readonly EntryParts[] = [
  otherTaskType({
    // field notes: $0.04 (H)
    modelName: 'trellis',
    historyFamily: 'trellis',
    taskType: 'image-to-3d',
    shortName: 'trellis',
    label: '3D model from a picture (Trellis)',
    description: 'A 3D model of the object in a picture, with a turntable video.',
    operation: fromPicture,
    outputKind: '3d',
    outputFields: TRELLIS_OUTPUTS,
    expectedSeconds: 180,
    price: { unit: 'generation', micros: 40_000 },
    fields: { image: objectPicture, ...trellisTuning },
    example: { image: '' },
  }),
  otherTaskType({
    // field notes: $0.04 (H)
    modelName: 'trellis',
    historyFamily: 'trellis',
    taskType: 'text-to-3d',
    shortName: 'trellis-text',
    label: '3D model from text (Trellis)',
    description: 'A 3D model of what a prompt names, with a turntable video.',
    outputKind: '3d',
    outputFields: TRELLIS_OUTPUTS,
    expectedSeconds: 180,
    price: { unit: 'generation', micros: 40_000 },
    fields: { prompt: words(prompt, 'Prompt', { help: 'The object to model.' }), ...trellisTuning },
    example: { prompt: 'a wooden toy boat' },
  }),
  otherTaskType({
    // field notes: $0.10 (H); its output model_file (presumed)
    modelName: 'trellis2',
    historyFamily: 'trellis',
    taskType: 'image-to-3d',
    shortName: 'trellis2',
    label: '3D model from a picture (Trellis 2)',
    description: 'A finer 3D model of the object in a picture.',
    operation: { ...fromPicture, label: '3D model (Trellis 2)' },
    outputKind: '3d',
    outputFields: [{ field: 'model_file', kind: '3d' }],
    expectedSeconds: 240,
    price: { unit: 'generation', micros: 100_000 },
    fields: {
      image: startPicture('A picture of one object; its background is removed.', {
        missing: 'Add the picture of the object',
      }),
      seed,
    },
    example: { image: '' },
  }),
];
