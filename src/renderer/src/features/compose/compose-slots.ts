/**
 * The composer's media slots as plain data: what a slot holds and how it was checked, the rule
 * of each slot field, which tab shows which slots, a slot shown from an existing value (a
 * re-run) or from a library result, what the renderer can say about a typed URL before asking
 * main, and what a slot's state keeps from queueing. Pure.
 */
import {
  hasAllowedImageUrlExtension,
  type InputMediaKind,
  type MediaCheck,
  mediaKind,
  missingWords,
  type OutputRef,
  type OutputRefValue,
  outputRefValue,
  SLOT_FIELD_KINDS,
} from '../../../../shared/index.ts';
import {
  fileNameOf,
  libraryRelativePath,
  looksLikeLocalPath,
  mediaUrl,
  urlExtension,
} from '../../model/media-url.ts';
import type { ComposeTab, FieldProblem } from './compose-shapes.ts';
import { catalogField } from './hand-made-words.ts';

export type SlotOrigin = 'file' | 'url' | 'library' | 'data' | 'result';
export type SlotStatus = 'empty' | 'checking' | 'ok' | 'bad';

/** One media input (a dropped file, a URL, a library copy or embedded data) and its check. */
export interface SlotState {
  /** What goes into the task input: a local path, a URL, or Base64 / a data: URI. */
  value: string;
  /** What the slot shows: a file name or the URL. */
  label: string;
  origin: SlotOrigin | null;
  /** Something an <img> may load, when there is one; shown only once the check passed. */
  previewUrl: string | null;
  status: SlotStatus;
  /** Why the input cannot be used (status `bad`). */
  message: string | null;
  /** What the check learned, e.g. `1024 x 768 px · image/png · 340 KB`. */
  info: string | null;
  /**
   * A library result (origin `result`): the task and output it names, sent as
   * `{ $output: { taskId, index } }` for main to resolve; `value` is then empty.
   */
  result?: SlotResult | null;
  /** An extra picture of a batch: its name in the list while main checks it. */
  key?: string;
}

/** A library result a slot holds. */
export interface SlotResult extends OutputRef {
  /** Its file as a URL the page may load (an audio waveform), when it is saved. */
  mediaUrl: string | null;
  /** Its length in seconds (audio), when known. */
  seconds: number | null;
}

export const EMPTY_SLOT: SlotState = {
  value: '',
  label: '',
  origin: null,
  previewUrl: null,
  status: 'empty',
  message: null,
  info: null,
};

export interface SlotRule {
  field: string;
  /** The slot's name: a hand-made form's slot has its catalog field's label. */
  label: string;
  kind: InputMediaKind;
  faceSwap: boolean;
  required: boolean;
}

export const SLOT_RULES = {
  style_audio: {
    field: 'style_audio',
    label: catalogField('ace-step/txt2audio', 'style_audio').label,
    kind: SLOT_FIELD_KINDS.style_audio,
    faceSwap: false,
    required: false,
  },
  target_image: {
    field: 'target_image',
    label: catalogField('image-toolkit/face-swap', 'target_image').label,
    kind: SLOT_FIELD_KINDS.target_image,
    faceSwap: true,
    required: true,
  },
  swap_image: {
    field: 'swap_image',
    label: catalogField('image-toolkit/face-swap', 'swap_image').label,
    kind: SLOT_FIELD_KINDS.swap_image,
    faceSwap: true,
    required: true,
  },
  image1: {
    field: 'image1',
    label: catalogField('qwen-image/image-edit', 'image1').label,
    kind: SLOT_FIELD_KINDS.image1,
    faceSwap: false,
    required: true,
  },
  image2: {
    field: 'image2',
    label: catalogField('qwen-image/image-edit', 'image2').label,
    kind: SLOT_FIELD_KINDS.image2,
    faceSwap: false,
    required: false,
  },
  image3: {
    field: 'image3',
    label: catalogField('qwen-image/image-edit', 'image3').label,
    kind: SLOT_FIELD_KINDS.image3,
    faceSwap: false,
    required: false,
  },
  // the From a result tab: the song or picture an operation starts from (its input field is the
  // operation's: `audio`, `style_audio`, `image`)
  source_audio: {
    field: 'source_audio',
    label: 'Song',
    kind: SLOT_FIELD_KINDS.source_audio,
    faceSwap: false,
    required: true,
  },
  source_image: {
    field: 'source_image',
    label: 'Picture',
    kind: SLOT_FIELD_KINDS.source_image,
    faceSwap: false,
    required: true,
  },
  source_video: {
    field: 'source_video',
    label: 'Video',
    kind: SLOT_FIELD_KINDS.source_video,
    faceSwap: false,
    required: true,
  },
  // the Image, Video and 3D tabs (kind-tabs.ts): the entry chosen names each slot by its field's words
  image_picture: {
    field: 'image_picture',
    label: 'Picture',
    kind: SLOT_FIELD_KINDS.image_picture,
    faceSwap: false,
    required: true,
  },
  video_picture: {
    field: 'video_picture',
    label: 'Picture',
    kind: SLOT_FIELD_KINDS.video_picture,
    faceSwap: false,
    required: true,
  },
  video_source: {
    field: 'video_source',
    label: 'Video',
    kind: SLOT_FIELD_KINDS.video_source,
    faceSwap: false,
    required: true,
  },
  model3d_picture: {
    field: 'model3d_picture',
    label: 'Picture',
    kind: SLOT_FIELD_KINDS.model3d_picture,
    faceSwap: false,
    required: true,
  },
} as const satisfies Record<string, SlotRule>;
export type SlotField = keyof typeof SLOT_RULES;

export const TAB_SLOTS: Record<ComposeTab, readonly SlotField[]> = {
  song: ['style_audio'],
  faceSwap: ['target_image', 'swap_image'],
  imageEdit: ['image1', 'image2', 'image3'],
  // both are the tab's; the operation chosen shows one of them (resultSlotOf)
  fromResult: ['source_audio', 'source_image', 'source_video'],
  // the picture tools take the From a result tab's picture (and its batch)
  pictures: ['source_image'],
  image: ['image_picture'],
  video: ['video_picture', 'video_source'],
  model3d: ['model3d_picture'],
  other: [],
};

export function emptySlots(): Record<SlotField, SlotState> {
  return {
    style_audio: EMPTY_SLOT,
    target_image: EMPTY_SLOT,
    swap_image: EMPTY_SLOT,
    image1: EMPTY_SLOT,
    image2: EMPTY_SLOT,
    image3: EMPTY_SLOT,
    source_audio: EMPTY_SLOT,
    source_image: EMPTY_SLOT,
    source_video: EMPTY_SLOT,
    image_picture: EMPTY_SLOT,
    video_picture: EMPTY_SLOT,
    video_source: EMPTY_SLOT,
    model3d_picture: EMPTY_SLOT,
  };
}

/** What a slot puts into the task input: a result's reference, else its trimmed text ('' when empty). */
export function slotInput(slot: SlotState): string | OutputRefValue {
  return slot.result ? outputRefValue(slot.result) : slot.value.trim();
}

/** Whether a slot gives the input anything. */
export function slotFilled(slot: SlotState): boolean {
  return Boolean(slot.result) || slot.value.trim() !== '';
}

/** What a slot shows for a library result: its title and thumbnail, ready (main resolves it). */
export function slotFromResult(result: {
  ref: OutputRef;
  title: string;
  kind: InputMediaKind;
  /** The thumbnail (or the picture) as a URL the page may load. */
  previewUrl: string | null;
  mediaUrl: string | null;
  seconds: number | null;
  info: string | null;
}): SlotState {
  return {
    ...EMPTY_SLOT,
    label: result.title,
    origin: 'result',
    previewUrl: previewsAsPicture(result.kind) ? result.previewUrl : null,
    status: 'ok',
    info: result.info,
    result: {
      taskId: result.ref.taskId,
      index: result.ref.index,
      mediaUrl: result.mediaUrl,
      seconds: result.seconds,
    },
  };
}

export interface MediaPlace {
  libraryDir: string;
  mediaBaseUrl: string;
}

function approxKb(base64Length: number): string {
  return `${Math.max(1, Math.round((base64Length * 3) / 4 / 1024))} KB`;
}

/** Whether a slot of this kind previews its value as a picture (the media table's thumbnail). */
export function previewsAsPicture(kind: InputMediaKind): boolean {
  return mediaKind(kind).show.thumbnail === 'picture';
}

/** A slot showing an existing value (from a re-run): library copies by name with a preview. */
export function slotFromValue(value: string, kind: InputMediaKind, place: MediaPlace): SlotState {
  const trimmed = value.trim();
  if (trimmed === '') return EMPTY_SLOT;
  const base = { ...EMPTY_SLOT, value: trimmed, status: 'checking' as const };
  if (/^https?:\/\//i.test(trimmed)) {
    return { ...base, origin: 'url', label: trimmed, previewUrl: previewsAsPicture(kind) ? trimmed : null };
  }
  if (/^data:/i.test(trimmed)) {
    return {
      ...base,
      origin: 'data',
      label: `Embedded ${kind} (${approxKb(trimmed.length)})`,
      previewUrl: previewsAsPicture(kind) ? trimmed : null,
    };
  }
  if (looksLikeLocalPath(trimmed)) {
    const relative = libraryRelativePath(trimmed, place.libraryDir);
    if (relative !== null) {
      return {
        ...base,
        origin: 'library',
        label: fileNameOf(trimmed),
        previewUrl:
          previewsAsPicture(kind) && place.mediaBaseUrl ? mediaUrl(place.mediaBaseUrl, relative) : null,
      };
    }
    return { ...base, origin: 'file', label: fileNameOf(trimmed) };
  }
  return {
    ...base,
    origin: 'data',
    label: `Embedded ${kind} (${approxKb(trimmed.length)})`,
    previewUrl: previewsAsPicture(kind) ? `data:image/*;base64,${trimmed}` : null,
  };
}
/** What the renderer can already say about a typed URL before asking main. */
export function urlProblem(url: string, rule: Pick<SlotRule, 'faceSwap' | 'kind'>): string | null {
  const text = url.trim();
  if (!/^https?:\/\/\S+$/i.test(text)) return 'Enter an http(s) URL, e.g. https://example.com/photo.jpg';
  try {
    new URL(text);
  } catch {
    return 'This is not a valid URL';
  }
  if (rule.faceSwap && !hasAllowedImageUrlExtension(text)) {
    const ext = urlExtension(text);
    return `${ext ? `A ${ext} URL is` : 'A URL without an extension is'} not allowed for a face swap; use .jpg, .jpeg, .png or .webp`;
  }
  return null;
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** A one-line summary of a passed media check: `1024 x 768 px · image/png · 340 KB`. */
export function checkInfo(check: Pick<MediaCheck, 'width' | 'height' | 'mime' | 'size'>): string | null {
  const parts: string[] = [];
  if (check.width && check.height) parts.push(`${check.width} x ${check.height} px`);
  if (check.mime) parts.push(check.mime);
  if (typeof check.size === 'number') parts.push(sizeText(check.size));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** What a slot's state says about queueing: still checking, refused, or (face swap) missing. */
export function slotProblem(tab: ComposeTab, field: SlotField, slot: SlotState): FieldProblem | null {
  const rule = SLOT_RULES[field];
  if (slot.status === 'checking') {
    const message = `Checking ${rule.label}…`;
    return { field, message, summary: message, missing: false, pending: true };
  }
  if (slot.status === 'bad') {
    const message = slot.message ?? `${rule.label} cannot be used`;
    return { field, message, summary: `${rule.label}: ${message}`, missing: false, pending: false };
  }
  if (tab === 'faceSwap' && slot.status === 'empty') {
    // the catalog field's one sentence; how to give it, the slot itself says (its drop hint)
    const message = missingWords(field, catalogField('image-toolkit/face-swap', field));
    return { field, message, summary: message, missing: true, pending: false };
  }
  return null;
}

/** The first thing a tab's slots keep from queueing right now, in the Queue bar's words; null when none. */
export function queueBlocker(tab: ComposeTab, slots: Record<SlotField, SlotState>): string | null {
  for (const field of TAB_SLOTS[tab]) {
    const problem = slotProblem(tab, field, slots[field]);
    if (problem) return problem.summary;
  }
  return null;
}
