/**
 * Fields and rules the image, video and 3D entries share (field notes, catalog-families.md): a
 * video's aspect ratio among the service's three, Flux's guidance, a count of pictures, a
 * picture as an input, and the cross-field rules these need.
 */
import type { FieldRule, InputProblem } from '../input-fields.ts';
import { words } from '../shared-fields.ts';

/** The aspect ratios the video models take. */
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;

export const aspectRatio = words({ type: 'string' }, 'Aspect ratio', {
  help: 'The shape of the video. Empty: 16:9.',
  widget: {
    kind: 'choice',
    choices: [
      { value: '16:9', label: 'Wide 16:9' },
      { value: '9:16', label: 'Tall 9:16' },
      { value: '1:1', label: 'Square 1:1' },
    ],
  },
});

/** A rule across fields: `field` (named `label` to a person), when given, is one of `values`. */
export function oneOf(
  input: Record<string, unknown>,
  field: string,
  values: readonly string[],
  label: string,
): InputProblem | null {
  const value = input[field];
  if (value === undefined || value === null || value === '' || values.includes(value as string)) return null;
  return {
    field,
    message: `input.${field} must be one of ${values.join(', ')}, got ${JSON.stringify(value)}`,
    words: `${label} must be one of ${values.join(', ')}`,
  };
}

export const guidance = words({ type: 'number', min: 1.5, max: 5 }, 'Guidance', {
  help: "How closely to follow the prompt: higher follows it more literally. Empty: the model's default.",
  widget: { kind: 'number', step: 0.1 },
});

export const pictureCount = words({ type: 'integer', min: 1, max: 4 }, 'Pictures', {
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
});

export const steps = words({ type: 'integer', min: 1, max: 100 }, 'Steps', {
  help: "More steps: finer detail, slower. Empty: the model's default.",
});

export const flowShift = words({ type: 'number' }, 'Flow shift', {
  help: "How freely the picture may take shape: higher changes layout more. Empty: the model's default.",
  widget: { kind: 'number', step: 0.1 },
});

/** A picture a task starts from (required). */
export function startPicture(help: string, more: Partial<FieldRule> = {}): FieldRule {
  return words({ type: 'string', required: true, media: 'image', ...more }, 'The picture', { help });
}
