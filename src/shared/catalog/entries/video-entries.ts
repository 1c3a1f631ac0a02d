/**
 * The video models of the service (field notes, catalog-families.md): Hunyuan from text (fast
 * or full) and from a picture (concat moves more, replace keeps closer to the picture), Wanx
 * from text (1.3B or 14B) and from a picture, and the video toolkit's face swap onto an MP4
 * (priced per frame, the amount not published: asked first). Each answers `video_url`, an MP4.
 */
import { type EntryParts, otherTaskType } from '../entry-parts.ts';
import type { FieldRule } from '../input-fields.ts';
import { faceImage, negativePrompt, prompt, text, words } from '../shared-fields.ts';
import { aspectRatio, oneOf, startPicture, VIDEO_ASPECT_RATIOS } from './media-fields.ts';

/** Hunyuan's prompt: at most 1000 characters (field notes). */
const hunyuanPrompt = words({ ...text, required: true, maxLength: 1000 }, 'Prompt', {
  help: 'What happens in the video.',
});
const wanxPrompt = words(prompt, 'Prompt', { help: 'What happens in the video.' });
const moving = words(prompt, 'Prompt', { help: 'How the picture moves.' });
const firstFrame = startPicture('The picture the video starts from (JPEG, PNG or WebP).', {
  missing: 'Add the picture the video starts from',
});

interface VideoModel {
  modelName: string;
  taskType: string;
  shortName: string;
  label: string;
  description: string;
  micros: number;
  expectedSeconds: number;
  prompt: FieldRule;
  /** From a picture: the picture is a field, and the entry an operation on a picture (its button's words). */
  fromPicture?: string;
}

/** A video entry: prompt, negative prompt, aspect ratio (one of three), and a picture when it starts from one. */
function videoEntry(m: VideoModel): EntryParts {
  return otherTaskType({
    modelName: m.modelName,
    // the family the service's task history names the model by (field notes)
    historyFamily: m.modelName === 'wanx' ? 'wan' : m.modelName,
    taskType: m.taskType,
    shortName: m.shortName,
    label: m.label,
    description: m.description,
    ...(m.fromPicture
      ? {
          operation: {
            label: m.fromPicture,
            source: 'The picture the video starts from',
            titleWord: 'video',
          },
        }
      : {}),
    outputKind: 'video',
    expectedSeconds: m.expectedSeconds,
    // field notes: a price per video (H)
    price: { unit: 'generation', micros: m.micros },
    fields: {
      prompt: m.prompt,
      ...(m.fromPicture ? { image: firstFrame } : {}),
      negative_prompt: negativePrompt,
      aspect_ratio: aspectRatio,
    },
    check: (input) => oneOf(input, 'aspect_ratio', VIDEO_ASPECT_RATIOS, aspectRatio.label),
    example: m.fromPicture
      ? { prompt: 'the scene comes alive, a slow pan', image: '' }
      : { prompt: 'waves rolling onto a beach at sunset', aspect_ratio: '16:9' },
  });
}

export const VIDEO_ENTRIES: readonly EntryParts[] = [
  videoEntry({
    modelName: 'hunyuan',
    taskType: 'fast-txt2video',
    shortName: 'hunyuan-fast',
    label: 'Video from text (Hunyuan, fast)',
    description: 'A short video from a prompt, quicker and cheaper.',
    micros: 30_000,
    expectedSeconds: 180,
    prompt: hunyuanPrompt,
  }),
  videoEntry({
    modelName: 'hunyuan',
    taskType: 'txt2video',
    shortName: 'hunyuan',
    label: 'Video from text (Hunyuan)',
    description: 'A short video from a prompt.',
    micros: 90_000,
    expectedSeconds: 420,
    prompt: hunyuanPrompt,
  }),
  videoEntry({
    modelName: 'hunyuan',
    taskType: 'img2video-concat',
    shortName: 'hunyuan-concat',
    label: 'Video from a picture (Hunyuan, more motion)',
    description: 'A video that starts from a picture and moves freely.',
    micros: 90_000,
    expectedSeconds: 420,
    prompt: { ...hunyuanPrompt, help: 'How the picture moves.' },
    fromPicture: 'Video (Hunyuan, more motion)',
  }),
  videoEntry({
    modelName: 'hunyuan',
    taskType: 'img2video-replace',
    shortName: 'hunyuan-replace',
    label: 'Video from a picture (Hunyuan, close to it)',
    description: 'A video that starts from a picture and keeps close to it.',
    micros: 90_000,
    expectedSeconds: 420,
    prompt: { ...hunyuanPrompt, help: 'How the picture moves.' },
    fromPicture: 'Video (Hunyuan, close to the picture)',
  }),
  videoEntry({
    modelName: 'wanx',
    taskType: 'txt2video-1.3b',
    shortName: 'wanx-1.3b',
    label: 'Video from text (Wanx 1.3B)',
    description: 'A short video from a prompt, the smaller model.',
    micros: 120_000,
    expectedSeconds: 300,
    prompt: wanxPrompt,
  }),
  videoEntry({
    modelName: 'wanx',
    taskType: 'txt2video-14b',
    shortName: 'wanx-14b',
    label: 'Video from text (Wanx 14B)',
    description: 'A short video from a prompt, the larger model.',
    micros: 280_000,
    expectedSeconds: 480,
    prompt: wanxPrompt,
  }),
  videoEntry({
    modelName: 'wanx',
    taskType: 'img2video-14b',
    shortName: 'wanx-14b-image',
    label: 'Video from a picture (Wanx 14B)',
    description: 'A video that starts from a picture, the larger model.',
    micros: 280_000,
    expectedSeconds: 480,
    prompt: moving,
    fromPicture: 'Video (Wanx 14B)',
  }),
  otherTaskType({
    // field notes: video-toolkit's face swap: an MP4 of at most 10 MB, 720p and 600 frames (the
    // video kind's limits), a face picture under 2048 x 2048; priced per frame, the amount not
    // published (asked first) (H inputs, M output)
    modelName: 'video-toolkit',
    historyFamily: 'video_toolkit',
    taskType: 'face-swap',
    shortName: 'video-face-swap',
    // listed with the other models (the store's face-swap arm would list it twice: prices.test.ts)
    label: 'Video face swap',
    description: 'Put a face onto the people of a video.',
    operation: {
      label: 'Swap a face into the video',
      source: 'The video whose face is replaced (an MP4 of at most 10 MB, 720p, 600 frames)',
      titleWord: 'face swapped',
    },
    outputKind: 'video',
    expectedSeconds: 240,
    fields: {
      target_video: words({ type: 'string', required: true, media: 'video' }, 'The video', {
        help: 'The video whose face is replaced.',
        missing: 'Add the video whose face to replace',
      }),
      swap_image: words({ ...faceImage, urlExtension: false }, 'Face image', {
        help: 'The face to put in.',
        missing: 'Add a face image',
      }),
      swap_faces_index: words({ type: 'string' }, 'Faces to use', {
        help: 'Which faces of the face image, numbered from 0 left to right: 0 or 0,1.',
      }),
      target_faces_index: words({ type: 'string' }, 'Faces to replace', {
        help: 'Which faces of the video, in the same order: 0 or 1,0.',
      }),
    },
    example: { target_video: '', swap_image: '' },
  }),
];
