/**
 * The composer's forms as plain data: one per tab, and turning a tab's form into the draft
 * `tasks.queue` takes. The media slots are in compose-slots.ts, the From a result tab's
 * operations in result-operations.ts, the re-run fill in compose-rerun.ts, the live check of a
 * form in compose-problems.ts. Pure; no DOM, no bridge.
 */
import {
  COMPOSE_TAB_NAMES,
  catalogEntry,
  entryById,
  LIMITS,
  mapLyricsTags,
  TASK_TYPES,
  type TaskDraft,
} from '../../../../shared/index.ts';
import { checkJsonObject } from '../../model/json-input.ts';
import type { ComposedInput, ComposeTab, LocalProblem } from './compose-shapes.ts';
import { emptySlots, type SlotField, type SlotState, slotFilled, slotInput } from './compose-slots.ts';
import { catalogField, numberProblemWords } from './hand-made-words.ts';
import { emptyKindForms, type KindForm, type KindTab, kindTabInput } from './kind-tabs.ts';
import { asToolForm, emptyFromResult, type FromResultForm, fromResultInput } from './result-operations.ts';

export type { ComposedInput, ComposeTab, LocalProblem } from './compose-shapes.ts';

export const COMPOSE_TABS: readonly ComposeTab[] = COMPOSE_TAB_NAMES;
export const TAB_LABELS: Record<ComposeTab, string> = {
  song: 'Song',
  faceSwap: 'Face swap',
  imageEdit: 'Image edit',
  pictures: 'Picture tools',
  image: 'Image',
  video: 'Video',
  model3d: '3D',
  fromResult: 'From a result',
  other: 'Other',
};

/** The three task types with their own tab; the Other tab offers the rest of the catalog. */
export const OWN_TAB_TYPES = ['txt2audio', 'face-swap', 'image-edit'] as const;
export const OTHER_ENTRIES = TASK_TYPES.filter(
  (e) => !(OWN_TAB_TYPES as readonly string[]).includes(e.taskType),
);

export interface SongForm {
  stylePrompt: string;
  negativePrompt: string;
  lyrics: string;
  duration: number;
}

/** One face (face-swap) or several (multi-face-swap, with the faces' numbers in each picture). */
export type FaceSwapMode = 'one' | 'several';

export interface FaceSwapForm {
  mode: FaceSwapMode;
  /** Which faces of the face image to use, e.g. `0` or `0,1` (multi-face swap). */
  swapFacesIndex: string;
  /** Which faces of the target image to replace, in the same order. */
  targetFacesIndex: string;
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
  /** The input as JSON: what the generated form shows and edits too. */
  json: string;
  /** The entry's generated form (the default) or the JSON editor ("Edit as JSON"). */
  view?: 'form' | 'json';
}

/** Fields every tab has, each tab its own (a title typed for a song is not a face swap's). */
export interface CommonForm {
  title: string;
  webhookEndpoint: string;
  webhookSecret: string;
  /** A secret was typed before a restart: drafts never keep one (issue 17, item 9), so it is asked again. */
  webhookSecretNotKept?: boolean;
}

/**
 * What a tab's task is made from: the task a re-run repeats (`output` null), or the result one of
 * its inputs is (`output` its index). Sent as `parentId` and `parentOutput`.
 */
export interface ParentRef {
  taskId: string;
  output: number | null;
  /** The parent's title, for the Queue bar's note. */
  title: string;
}

export interface ComposeForms {
  song: SongForm;
  faceSwap: FaceSwapForm;
  imageEdit: ImageEditForm;
  fromResult: FromResultForm;
  other: OtherForm;
  /** The Image, Video and 3D tabs: the entry chosen and its values (kind-tabs.ts). */
  kinds: Record<KindTab, KindForm>;
  common: Record<ComposeTab, CommonForm>;
  slots: Record<SlotField, SlotState>;
  /** Per tab, what its task is made from (only the tab a re-run or a result's action opened). */
  parent: Record<ComposeTab, ParentRef | null>;
}

export function perTab<T>(value: T): Record<ComposeTab, T> {
  return Object.fromEntries(COMPOSE_TABS.map((tab) => [tab, value])) as Record<ComposeTab, T>;
}

export const DEFAULT_DURATION = 30;

const defaultOther = OTHER_ENTRIES.find((e) => e.id === 'image-gen/txt2img') ?? OTHER_ENTRIES[0];

/** The catalog example of a model and task type, as the JSON editor shows it. */
export function exampleJson(pair: { model: string; taskType: string }): string {
  return JSON.stringify(catalogEntry(pair.model, pair.taskType)?.example ?? {}, null, 2);
}

export const EMPTY_SONG: SongForm = {
  stylePrompt: '',
  negativePrompt: '',
  lyrics: '',
  duration: DEFAULT_DURATION,
};
const multiFaceExample = entryById('image-toolkit/multi-face-swap')?.example ?? {};
const faceNumbers = (value: unknown) => (typeof value === 'string' ? value : '0');
/** One face; the several-faces numbers start at the catalog example's. */
export const EMPTY_FACE_SWAP: FaceSwapForm = {
  mode: 'one',
  swapFacesIndex: faceNumbers(multiFaceExample.swap_faces_index),
  targetFacesIndex: faceNumbers(multiFaceExample.target_faces_index),
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
  const model = defaultOther?.modelName ?? '';
  return { model, taskType, modelId: '', json: exampleJson({ model, taskType }) };
}

export function emptyForms(): ComposeForms {
  return {
    song: EMPTY_SONG,
    faceSwap: EMPTY_FACE_SWAP,
    imageEdit: EMPTY_IMAGE_EDIT,
    fromResult: emptyFromResult(),
    other: emptyOther(),
    kinds: emptyKindForms(),
    common: perTab(EMPTY_COMMON),
    slots: emptySlots(),
    parent: perTab<ParentRef | null>(null),
  };
}

export function clampDuration(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_DURATION;
  return Math.min(LIMITS.audioMaxSeconds, Math.max(LIMITS.audioMinSeconds, Math.round(value)));
}

export type DraftBuild =
  | { ok: true; draft: TaskDraft }
  | { ok: false; field: string; message: string; problems: LocalProblem[] };

/** Copies non-empty text fields into `input`. */
function putText(input: Record<string, unknown>, name: string, value: string): void {
  if (value.trim() !== '') input[name] = value;
}

function putSlot(input: Record<string, unknown>, slots: ComposeForms['slots'], field: SlotField): void {
  if (slotFilled(slots[field])) input[field] = slotInput(slots[field]);
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

/** The catalog's model name of an entry with its own tab (`image-toolkit/face-swap` -> `image-toolkit`). */
export function modelNameFor(entryId: string): string {
  return entryById(entryId)?.modelName ?? '';
}

function imageEditInput(forms: ComposeForms): ComposedInput {
  const f = forms.imageEdit;
  const input: Record<string, unknown> = {};
  const local: LocalProblem[] = [];
  input.image1 = slotInput(forms.slots.image1);
  putSlot(input, forms.slots, 'image2');
  putSlot(input, forms.slots, 'image3');
  input.prompt = f.prompt;
  putText(input, 'negative_prompt', f.negativePrompt);
  // each number in its catalog rule's words, as the engine and the CLI say them
  const numbers = [
    ['seed', parseInteger(f.seed)],
    ['steps', parseInteger(f.steps)],
    ['flow_shift', parseNumber(f.flowShift)],
  ] as const;
  for (const [field, value] of numbers) {
    if (value === null) continue;
    const problem = numberProblemWords('qwen-image/image-edit', field, value);
    if (problem) local.push({ field, message: problem });
    else input[field] = value;
  }
  return {
    model: modelNameFor('qwen-image/image-edit'),
    taskType: 'image-edit',
    input,
    local,
    readable: true,
  };
}

/** Face numbers as the service takes them: whole numbers separated by commas (`0` or `0,2`). */
const FACE_NUMBERS = /^\d+(\s*,\s*\d+)*$/;

function faceSwapInput(forms: ComposeForms): ComposedInput {
  const input: Record<string, unknown> = {
    target_image: slotInput(forms.slots.target_image),
    swap_image: slotInput(forms.slots.swap_image),
  };
  const f = forms.faceSwap;
  if (f.mode === 'one') {
    return {
      model: modelNameFor('image-toolkit/face-swap'),
      taskType: 'face-swap',
      input,
      local: [],
      readable: true,
    };
  }
  const local: LocalProblem[] = [];
  const numbers: [string, string][] = [
    ['target_faces_index', f.targetFacesIndex],
    ['swap_faces_index', f.swapFacesIndex],
  ];
  for (const [field, text] of numbers) {
    const { label } = catalogField('image-toolkit/multi-face-swap', field);
    const value = text.trim();
    if (value === '') continue;
    if (FACE_NUMBERS.test(value)) input[field] = value.replace(/\s+/g, '');
    else local.push({ field, message: `${label}: face numbers separated by commas, such as 0 or 0,1` });
  }
  return {
    model: modelNameFor('image-toolkit/multi-face-swap'),
    taskType: 'multi-face-swap',
    input,
    local,
    readable: true,
  };
}

function otherInput(other: OtherForm): ComposedInput {
  const local: LocalProblem[] = [];
  if (!other.model) local.push({ field: 'model', message: 'Choose a model' });
  if (!other.taskType) local.push({ field: 'task_type', message: 'Choose a task type' });
  const parsed = checkJsonObject(other.json, other);
  if (!parsed.ok) local.unshift({ field: 'input', message: parsed.message });
  const model = other.modelId.trim() || other.model;
  const input = parsed.ok ? parsed.value : {};
  return { model, taskType: other.taskType, input, local, readable: parsed.ok };
}

/** The model, task type and input a tab's form gives, with every problem found on the way. */
export function composeInput(tab: ComposeTab, forms: ComposeForms): ComposedInput {
  const input: Record<string, unknown> = {};
  switch (tab) {
    case 'song': {
      putText(input, 'style_prompt', forms.song.stylePrompt);
      putText(input, 'negative_prompt', forms.song.negativePrompt);
      // common tags from elsewhere ([Verse 1]) as the service's markers; the editor says so
      putText(input, 'lyrics', mapLyricsTags(forms.song.lyrics).text);
      input.duration = forms.song.duration;
      putSlot(input, forms.slots, 'style_audio');
      return {
        model: modelNameFor('ace-step/txt2audio'),
        taskType: 'txt2audio',
        input,
        local: [],
        readable: true,
      };
    }
    case 'faceSwap':
      return faceSwapInput(forms);
    case 'imageEdit':
      return imageEditInput(forms);
    case 'fromResult':
      return fromResultInput(forms.fromResult, forms.slots);
    case 'pictures':
      return fromResultInput(asToolForm(forms.fromResult), forms.slots);
    case 'image':
    case 'video':
    case 'model3d':
      return kindTabInput(tab, forms.kinds[tab], forms.slots);
    default:
      return otherInput(forms.other);
  }
}

/**
 * The draft to queue from a tab's form, or the first field the renderer can already tell is
 * wrong while reading it. The catalog's rules are not applied here: compose-problems.ts does.
 */
export function buildDraft(tab: ComposeTab, forms: ComposeForms): DraftBuild {
  const built = composeInput(tab, forms);
  const first = built.local[0];
  if (first) return { ok: false, field: first.field, message: first.message, problems: built.local };
  const common = forms.common[tab];
  const endpoint = common.webhookEndpoint.trim();
  const parent = forms.parent[tab];
  // a re-run with the secret left empty keeps its task's secret, which the window never reads
  const kept = isRerun(parent) && common.webhookSecret === '' ? { sameSecretAs: parent.taskId } : {};
  const draft: TaskDraft = {
    model: built.model,
    taskType: built.taskType,
    input: built.input,
    webhook: endpoint ? { endpoint, secret: common.webhookSecret, ...kept } : null,
  };
  const title = common.title.trim();
  if (title) draft.title = title.slice(0, 200);
  if (parent) {
    draft.parentId = parent.taskId;
    draft.parentOutput = parent.output;
  }
  return { ok: true, draft };
}

/** Whether a tab's parent is a task re-run (its inputs reused, no output of it taken). */
export function isRerun(parent: ParentRef | null): parent is ParentRef {
  return parent !== null && parent.output === null;
}

/** A random seed for the image edit (a non-negative 31-bit integer). */
export function randomSeed(random: () => number = Math.random): number {
  return Math.floor(random() * 2_147_483_647);
}
