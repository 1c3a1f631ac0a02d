/**
 * The composer's forms as plain data: one per tab, the media slots they hold, turning a form
 * into the draft `tasks.queue` takes, and filling the forms back from a re-run's DraftView.
 * Pure; no DOM, no bridge.
 * Pure; no DOM, no bridge. Long because the four tabs' forms, their slots and the re-run fill
 * are one model; the catalog-driven forms of issue 11 are to replace most of it.
 */
import {
  type DraftView,
  hasAllowedImageUrlExtension,
  LIMITS,
  type MediaCheck,
  modelNameOf,
  TASK_TYPES,
  type TaskDraftInput,
  taskTypeEntry,
} from '../../../../shared/index.ts';
import { checkJsonObject } from '../../model/json-input.ts';
import {
  fileNameOf,
  libraryRelativePath,
  looksLikeLocalPath,
  mediaUrl,
  urlExtension,
} from '../../model/media-url.ts';

export type ComposeTab = 'song' | 'faceSwap' | 'imageEdit' | 'other';
export const COMPOSE_TABS: readonly ComposeTab[] = ['song', 'faceSwap', 'imageEdit', 'other'];
export const TAB_LABELS: Record<ComposeTab, string> = {
  song: 'Song',
  faceSwap: 'Face swap',
  imageEdit: 'Image edit',
  other: 'Other',
};

/** The three task types with their own tab; the Other tab offers the rest of the catalog. */
export const OWN_TAB_TYPES = ['txt2audio', 'face-swap', 'image-edit'] as const;
export const OTHER_ENTRIES = TASK_TYPES.filter(
  (e) => !(OWN_TAB_TYPES as readonly string[]).includes(e.taskType),
);

export type SlotOrigin = 'file' | 'url' | 'library' | 'data';
export type SlotStatus = 'empty' | 'checking' | 'ok' | 'bad';

/** One media input (a dropped file, a URL, a library copy or embedded data) and its check. */
export interface SlotState {
  /** What goes into the task input: a local path, a URL, or Base64 / a data: URI. */
  value: string;
  /** What the slot shows: a file name or the URL. */
  label: string;
  origin: SlotOrigin | null;
  /** Something an <img> may load, when there is one. */
  previewUrl: string | null;
  status: SlotStatus;
  /** Why the input cannot be used (status `bad`). */
  message: string | null;
  /** What the check learned, e.g. `1024 x 768 px · image/png · 340 KB`. */
  info: string | null;
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
  label: string;
  kind: 'image' | 'audio';
  faceSwap: boolean;
  required: boolean;
}

export const SLOT_RULES = {
  style_audio: {
    field: 'style_audio',
    label: 'Reference audio',
    kind: 'audio',
    faceSwap: false,
    required: false,
  },
  target_image: {
    field: 'target_image',
    label: 'Target image',
    kind: 'image',
    faceSwap: true,
    required: true,
  },
  swap_image: { field: 'swap_image', label: 'Face image', kind: 'image', faceSwap: true, required: true },
  image1: { field: 'image1', label: 'image1', kind: 'image', faceSwap: false, required: true },
  image2: { field: 'image2', label: 'image2', kind: 'image', faceSwap: false, required: false },
  image3: { field: 'image3', label: 'image3', kind: 'image', faceSwap: false, required: false },
} as const satisfies Record<string, SlotRule>;
export type SlotField = keyof typeof SLOT_RULES;

export const TAB_SLOTS: Record<ComposeTab, readonly SlotField[]> = {
  song: ['style_audio'],
  faceSwap: ['target_image', 'swap_image'],
  imageEdit: ['image1', 'image2', 'image3'],
  other: [],
};

export interface SongForm {
  stylePrompt: string;
  negativePrompt: string;
  lyrics: string;
  duration: number;
}

export interface ImageEditForm {
  prompt: string;
  negativePrompt: string;
  seed: string;
  steps: string;
  flowShift: string;
}

export interface OtherForm {
  /** The catalog's model name (the service profile adds the vendor). */
  model: string;
  taskType: string;
  /** A full model id (`vendor/model`) that replaces the profile's; '' for the profile's. */
  modelId: string;
  json: string;
}

/** Fields every tab has, each tab its own (a title typed for a song is not a face swap's). */
export interface CommonForm {
  title: string;
  webhookEndpoint: string;
  webhookSecret: string;
}

export interface ComposeForms {
  song: SongForm;
  imageEdit: ImageEditForm;
  other: OtherForm;
  common: Record<ComposeTab, CommonForm>;
  slots: Record<SlotField, SlotState>;
  /** Per tab, the task a re-run started from, sent as `rerunOf` (only by the tab the re-run opened). */
  rerunOf: Record<ComposeTab, string | null>;
}

export function perTab<T>(value: T): Record<ComposeTab, T> {
  return { song: value, faceSwap: value, imageEdit: value, other: value };
}

export const DEFAULT_DURATION = 30;

const defaultOther = OTHER_ENTRIES.find((e) => e.taskType === 'txt2img') ?? OTHER_ENTRIES[0];

export function exampleJson(taskType: string): string {
  return JSON.stringify(taskTypeEntry(taskType)?.example ?? {}, null, 2);
}

export const EMPTY_SONG: SongForm = {
  stylePrompt: '',
  negativePrompt: '',
  lyrics: '',
  duration: DEFAULT_DURATION,
};
export const EMPTY_IMAGE_EDIT: ImageEditForm = {
  prompt: '',
  negativePrompt: '',
  seed: '',
  steps: '',
  flowShift: '',
};
export const EMPTY_COMMON: CommonForm = { title: '', webhookEndpoint: '', webhookSecret: '' };

export function emptyOther(): OtherForm {
  const taskType = defaultOther?.taskType ?? '';
  return { model: defaultOther?.modelName ?? '', taskType, modelId: '', json: exampleJson(taskType) };
}

export function emptySlots(): Record<SlotField, SlotState> {
  return {
    style_audio: EMPTY_SLOT,
    target_image: EMPTY_SLOT,
    swap_image: EMPTY_SLOT,
    image1: EMPTY_SLOT,
    image2: EMPTY_SLOT,
    image3: EMPTY_SLOT,
  };
}

export function emptyForms(): ComposeForms {
  return {
    song: EMPTY_SONG,
    imageEdit: EMPTY_IMAGE_EDIT,
    other: emptyOther(),
    common: perTab(EMPTY_COMMON),
    slots: emptySlots(),
    rerunOf: perTab<string | null>(null),
  };
}

export function clampDuration(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_DURATION;
  return Math.min(LIMITS.audioMaxSeconds, Math.max(LIMITS.audioMinSeconds, Math.round(value)));
}

export type DraftBuild = { ok: true; draft: TaskDraftInput } | { ok: false; field: string; message: string };

const fail = (field: string, message: string): DraftBuild => ({ ok: false, field, message });

/** Copies non-empty text fields into `input`. */
function putText(input: Record<string, unknown>, name: string, value: string): void {
  if (value.trim() !== '') input[name] = value;
}

function putSlot(input: Record<string, unknown>, slots: ComposeForms['slots'], field: SlotField): void {
  const value = slots[field].value.trim();
  if (value !== '') input[field] = value;
}

function parseInteger(text: string): number | null | 'bad' {
  if (text.trim() === '') return null;
  return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : 'bad';
}

function parseNumber(text: string): number | null | 'bad' {
  if (text.trim() === '') return null;
  const n = Number(text.trim());
  return Number.isFinite(n) ? n : 'bad';
}

/** The catalog's model name of a task type with its own tab. */
function modelNameFor(taskType: string): string {
  return taskTypeEntry(taskType)?.modelName ?? '';
}

function modelAndInput(
  tab: ComposeTab,
  forms: ComposeForms,
): DraftBuild | { model: string; taskType: string; input: Record<string, unknown> } {
  const input: Record<string, unknown> = {};
  switch (tab) {
    case 'song': {
      putText(input, 'style_prompt', forms.song.stylePrompt);
      putText(input, 'negative_prompt', forms.song.negativePrompt);
      putText(input, 'lyrics', forms.song.lyrics);
      input.duration = forms.song.duration;
      putSlot(input, forms.slots, 'style_audio');
      return { model: modelNameFor('txt2audio'), taskType: 'txt2audio', input };
    }
    case 'faceSwap': {
      input.target_image = forms.slots.target_image.value.trim();
      input.swap_image = forms.slots.swap_image.value.trim();
      return { model: modelNameFor('face-swap'), taskType: 'face-swap', input };
    }
    case 'imageEdit': {
      const f = forms.imageEdit;
      input.image1 = forms.slots.image1.value.trim();
      putSlot(input, forms.slots, 'image2');
      putSlot(input, forms.slots, 'image3');
      input.prompt = f.prompt;
      putText(input, 'negative_prompt', f.negativePrompt);
      const seed = parseInteger(f.seed);
      if (seed === 'bad') return fail('seed', 'Seed must be a whole number');
      if (seed !== null) input.seed = seed;
      const steps = parseInteger(f.steps);
      if (steps === 'bad' || (steps !== null && (steps < 1 || steps > 100))) {
        return fail('steps', 'Steps must be a whole number from 1 to 100');
      }
      if (steps !== null) input.steps = steps;
      const flowShift = parseNumber(f.flowShift);
      if (flowShift === 'bad') return fail('flow_shift', 'flow_shift must be a number');
      if (flowShift !== null) input.flow_shift = flowShift;
      return { model: modelNameFor('image-edit'), taskType: 'image-edit', input };
    }
    case 'other': {
      const parsed = checkJsonObject(forms.other.json, forms.other.taskType);
      if (!parsed.ok) return fail('input', parsed.message);
      if (!forms.other.model) return fail('model', 'Choose a model');
      if (!forms.other.taskType) return fail('task_type', 'Choose a task type');
      const model = forms.other.modelId.trim() || forms.other.model;
      return { model, taskType: forms.other.taskType, input: parsed.value };
    }
    default:
      return fail('input', 'Unknown tab');
  }
}

/** The draft to queue from a tab's form, or the first field the renderer can already tell is wrong. */
export function buildDraft(tab: ComposeTab, forms: ComposeForms): DraftBuild {
  const built = modelAndInput(tab, forms);
  if ('ok' in built) return built;
  const common = forms.common[tab];
  const endpoint = common.webhookEndpoint.trim();
  const draft: TaskDraftInput = {
    model: built.model,
    taskType: built.taskType,
    input: built.input,
    webhook: endpoint ? { endpoint, secret: common.webhookSecret } : null,
  };
  const title = common.title.trim();
  if (title) draft.title = title.slice(0, 200);
  const rerunOf = forms.rerunOf[tab];
  if (rerunOf) draft.rerunOf = rerunOf;
  return { ok: true, draft };
}

/** The tab that composes a task type. */
export function tabOfTaskType(taskType: string): ComposeTab {
  if (taskType === 'txt2audio') return 'song';
  if (taskType === 'face-swap') return 'faceSwap';
  if (taskType === 'image-edit') return 'imageEdit';
  return 'other';
}

export interface MediaPlace {
  libraryDir: string;
  mediaBaseUrl: string;
}

function approxKb(base64Length: number): string {
  return `${Math.max(1, Math.round((base64Length * 3) / 4 / 1024))} KB`;
}

/** A slot showing an existing value (from a re-run): library copies by name with a preview. */
export function slotFromValue(value: string, kind: 'image' | 'audio', place: MediaPlace): SlotState {
  const trimmed = value.trim();
  if (trimmed === '') return EMPTY_SLOT;
  const base = { ...EMPTY_SLOT, value: trimmed, status: 'checking' as const };
  if (/^https?:\/\//i.test(trimmed)) {
    return { ...base, origin: 'url', label: trimmed, previewUrl: kind === 'image' ? trimmed : null };
  }
  if (/^data:/i.test(trimmed)) {
    return {
      ...base,
      origin: 'data',
      label: `Embedded ${kind} (${approxKb(trimmed.length)})`,
      previewUrl: kind === 'image' ? trimmed : null,
    };
  }
  if (looksLikeLocalPath(trimmed)) {
    const relative = libraryRelativePath(trimmed, place.libraryDir);
    if (relative !== null) {
      return {
        ...base,
        origin: 'library',
        label: fileNameOf(trimmed),
        previewUrl: kind === 'image' && place.mediaBaseUrl ? mediaUrl(place.mediaBaseUrl, relative) : null,
      };
    }
    return { ...base, origin: 'file', label: fileNameOf(trimmed) };
  }
  return {
    ...base,
    origin: 'data',
    label: `Embedded ${kind} (${approxKb(trimmed.length)})`,
    previewUrl: kind === 'image' ? `data:image/*;base64,${trimmed}` : null,
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const numText = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/** The forms a re-run opens with, and the tab to show. Tabs not involved keep their values. */
export function formsFromDraft(
  draft: DraftView,
  rerunOf: string | null,
  current: ComposeForms,
  place: MediaPlace,
): { tab: ComposeTab; forms: ComposeForms } {
  const tab = tabOfTaskType(draft.taskType);
  const input = draft.input;
  const forms: ComposeForms = {
    ...current,
    common: {
      ...current.common,
      [tab]: {
        title: draft.title ?? '',
        webhookEndpoint: draft.webhook?.endpoint ?? '',
        webhookSecret: draft.webhook?.secret ?? '',
      },
    },
    slots: { ...current.slots },
    rerunOf: { ...current.rerunOf, [tab]: rerunOf },
  };
  const slot = (field: SlotField) => {
    forms.slots[field] = slotFromValue(str(input[field]), SLOT_RULES[field].kind, place);
  };
  switch (tab) {
    case 'song':
      forms.song = {
        stylePrompt: str(input.style_prompt),
        negativePrompt: str(input.negative_prompt) || str(input.negative_style_prompt),
        lyrics: str(input.lyrics),
        duration: typeof input.duration === 'number' ? clampDuration(input.duration) : DEFAULT_DURATION,
      };
      slot('style_audio');
      break;
    case 'faceSwap':
      slot('target_image');
      slot('swap_image');
      break;
    case 'imageEdit':
      forms.imageEdit = {
        prompt: str(input.prompt),
        negativePrompt: str(input.negative_prompt),
        seed: numText(input.seed),
        steps: numText(input.steps),
        flowShift: numText(input.flow_shift),
      };
      slot('image1');
      slot('image2');
      slot('image3');
      break;
    default:
      forms.other = {
        model: taskTypeEntry(draft.taskType)?.modelName ?? modelNameOf(draft.model),
        taskType: draft.taskType,
        modelId: draft.model.includes('/') ? draft.model : '',
        json: JSON.stringify(input, null, 2),
      };
  }
  return { tab, forms };
}

/** The problem that keeps a tab from queueing right now (a slot still checking or refused), if any. */
export function queueBlocker(tab: ComposeTab, slots: ComposeForms['slots']): string | null {
  for (const field of TAB_SLOTS[tab]) {
    const slot = slots[field];
    const rule = SLOT_RULES[field];
    if (slot.status === 'checking') return `Checking ${rule.label}…`;
    if (slot.status === 'bad') return `${rule.label}: ${slot.message ?? 'cannot be used'}`;
    if (tab === 'faceSwap' && slot.status === 'empty')
      return `Add a ${rule.label.toLowerCase()} (drop a file, browse, or paste a URL)`;
  }
  return null;
}

/** A random seed for the image edit (a non-negative 31-bit integer). */
export function randomSeed(random: () => number = Math.random): number {
  return Math.floor(random() * 2_147_483_647);
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
