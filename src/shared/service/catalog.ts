/**
 * The models and task types the app knows, and the limits it enforces before anything is
 * queued. Where the spec says "not shown" the choice made here is documented in README.md
 * ("Decisions on the spec's gaps").
 */

/** Model identifiers. The spec writes the vendor as `service`; so do we. */
export const MODELS = {
  audio: 'service/ace-step',
  imageToolkit: 'service/image-toolkit',
  /** The spec writes this one as `<image_edit_model_id>`; we name it `service/image-edit`. */
  imageEdit: 'service/image-edit',
  /** Not in the spec: a text-to-image model whose fetch answers in the detailed form C. */
  imageGen: 'service/image-gen',
  /** Not in the spec: a video model whose fetch answers in form B. */
  video: 'service/video-gen',
} as const;

export type OutputKind = 'audio' | 'image' | 'video' | 'file';

export interface CatalogEntry {
  model: string;
  taskType: string;
  /** Human label for menus. */
  label: string;
  /** What a completed task yields. */
  outputKind: OutputKind;
  /** Expected service-side duration in seconds before any history exists (pending + processing). */
  expectedSeconds: number;
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    model: MODELS.audio,
    taskType: 'txt2audio',
    label: 'Song from text',
    outputKind: 'audio',
    expectedSeconds: 60,
  },
  {
    model: MODELS.audio,
    taskType: 'audio2audio',
    label: 'Audio to audio',
    outputKind: 'audio',
    expectedSeconds: 60,
  },
  { model: MODELS.audio, taskType: 'edit', label: 'Audio edit', outputKind: 'audio', expectedSeconds: 60 },
  {
    model: MODELS.audio,
    taskType: 'extend',
    label: 'Audio extend',
    outputKind: 'audio',
    expectedSeconds: 60,
  },
  {
    model: MODELS.imageEdit,
    taskType: 'image-edit',
    label: 'Image edit',
    outputKind: 'image',
    expectedSeconds: 30,
  },
  {
    model: MODELS.imageToolkit,
    taskType: 'face-swap',
    label: 'Face swap',
    outputKind: 'image',
    expectedSeconds: 20,
  },
  {
    model: MODELS.imageToolkit,
    taskType: 'multi-face-swap',
    label: 'Multi face swap',
    outputKind: 'image',
    expectedSeconds: 25,
  },
  {
    model: MODELS.imageToolkit,
    taskType: 'background-remove',
    label: 'Background removal',
    outputKind: 'image',
    expectedSeconds: 10,
  },
  {
    model: MODELS.imageToolkit,
    taskType: 'segment',
    label: 'Segment by prompt',
    outputKind: 'image',
    expectedSeconds: 10,
  },
  {
    model: MODELS.imageToolkit,
    taskType: 'upscale',
    label: 'Image upscale',
    outputKind: 'image',
    expectedSeconds: 15,
  },
  {
    model: MODELS.imageGen,
    taskType: 'txt2img',
    label: 'Image from text',
    outputKind: 'image',
    expectedSeconds: 20,
  },
  {
    model: MODELS.video,
    taskType: 'txt2video',
    label: 'Video from text',
    outputKind: 'video',
    expectedSeconds: 120,
  },
];

export function findCatalogEntry(model: string, taskType: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.model === model && e.taskType === taskType);
}

/** Limits the app and the sandbox enforce. Duration bounds are not published; third parties cap at 240 s. */
export const LIMITS = {
  audioMinSeconds: 1,
  audioMaxSeconds: 240,
  lyricsMaxChars: 5000,
  promptMaxChars: 2000,
  /** Face swap: each side must be under this many pixels (spec 8). Applied to every image input. */
  imageMaxSideExclusive: 2048,
  faceSwapUrlExtensions: ['.jpg', '.jpeg', '.png', '.webp'] as readonly string[],
  /** Largest local file accepted as an image input, in bytes. */
  imageMaxBytes: 20 * 1024 * 1024,
  /** Largest local file accepted as a reference audio input, in bytes. */
  audioMaxBytes: 200 * 1024 * 1024,
} as const;

/** True when a face-swap URL ends in an allowed extension (query and fragment ignored). */
export function hasAllowedImageUrlExtension(value: string): boolean {
  let path = value;
  try {
    path = new URL(value).pathname;
  } catch {
    // not an absolute URL: check the text itself
  }
  const lower = path.toLowerCase();
  return LIMITS.faceSwapUrlExtensions.some((ext) => lower.endsWith(ext));
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
