/**
 * Fields several catalog entries share, with their words (label, help, unit) and how a form
 * edits them: the prompt, the negative prompt, lyrics, a seed, a picture's size. An entry takes
 * them as they are or gives one its own words (`words(text, 'Style of the new part')`).
 */
import type { FieldRule } from './input-fields.ts';
import { LIMITS } from './limits.ts';

/** A field's words and how it is edited, added to a rule (`words(text, 'Prompt')`). */
export function words<R extends Omit<FieldRule, 'label'>>(
  rule: R,
  label: string,
  more: Partial<Pick<FieldRule, 'help' | 'plural' | 'unit' | 'widget' | 'resultAction' | 'missing'>> = {},
): R & FieldRule {
  return { ...rule, label, ...more } as R & FieldRule;
}

export const lyricsRule = {
  type: 'string',
  maxLength: LIMITS.lyricsMaxChars,
  widget: { kind: 'lyrics' },
} as const;
export const lyrics = words(lyricsRule, 'Lyrics', { plural: true });
export const text = { type: 'string', maxLength: LIMITS.promptMaxChars } as const;
export const prompt = words({ ...text, required: true }, 'Prompt');
export const negativePrompt = words(text, 'Negative prompt', { help: 'What to keep out.' });
export const audioSeconds = { min: LIMITS.audioMinSeconds, max: LIMITS.audioMaxSeconds } as const;
export const audioDuration = words({ type: 'number', ...audioSeconds }, 'Length', { unit: ' seconds' });
export const requiredAudio = { type: 'string', required: true, media: 'audio' } as const;
export const faceImage = { type: 'string', required: true, media: 'image', urlExtension: true } as const;
export const toolkitImage = words({ type: 'string', required: true, media: 'image' }, 'The picture');
export const seed = words({ type: 'integer' }, 'Seed', {
  help: 'The same seed with the same settings gives the same result. Empty: a new one each time.',
  widget: { kind: 'seed' },
});
export const side = { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 } as const;
export const width = words(side, 'Width', { unit: ' px' });
export const height = words(side, 'Height', { unit: ' px' });
/** Sizes of a text-to-image model: 1024 x 1024 and its ratios at about a megapixel. */
export const imageSizes = [
  { label: 'Square 1:1', width: 1024, height: 1024 },
  { label: 'Landscape 4:3', width: 1152, height: 864 },
  { label: 'Wide 16:9', width: 1344, height: 768 },
  { label: 'Portrait 3:4', width: 864, height: 1152 },
  { label: 'Tall 9:16', width: 768, height: 1344 },
] as const;
export const sizedWidth = words(side, 'Size', {
  unit: ' px',
  help: 'Width x height of the picture.',
  widget: { kind: 'aspect-ratio', height: 'height', sizes: imageSizes },
});

/** The prompt fields of ace-step's song, audio-to-audio and extend task types, in this order. */
export const aceStepPrompts = {
  // a song from text's; the other task types give theirs their own words
  style_prompt: words(text, 'Style prompt', {
    help: 'Describe the genre, instruments and mood (or give a reference audio).',
  }),
  negative_prompt: words(text, 'Negative prompt', { help: 'What the music should not have.' }),
  // the spec's name; the real service echoes and its clients send negative_style_prompt
  negative_style_prompt: words(text, 'Negative style prompt', {
    help: "The service's second name of the negative prompt.",
    widget: { kind: 'none' },
  }),
  lyrics,
} as const;
