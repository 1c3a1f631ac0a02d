/** The media kind each of the composer's slots takes: the window's slots and main's restore of a saved form read it. */
import type { InputMediaKind } from '../media/index.ts';
import type { SLOT_FIELD_NAMES } from './saved-forms.ts';

export const SLOT_FIELD_KINDS = {
  style_audio: 'audio',
  target_image: 'image',
  swap_image: 'image',
  image1: 'image',
  image2: 'image',
  image3: 'image',
  source_audio: 'audio',
  source_image: 'image',
  source_video: 'video',
  image_picture: 'image',
  video_picture: 'image',
  video_source: 'video',
  model3d_picture: 'image',
} as const satisfies Record<(typeof SLOT_FIELD_NAMES)[number], InputMediaKind>;
