/**
 * Checks a create request (spec 2.1 - 2.4, field notes) before anything is accepted. Every
 * failure is a 400 whose message names the field, e.g. `input.duration must be ...`.
 * Image contents are checked afterwards (asynchronously) by image-input-check.ts.
 */
import {
  CATALOG,
  type CatalogEntry,
  findCatalogEntry,
  hasAllowedImageUrlExtension,
  isHttpUrl,
  LIMITS,
} from '../shared/service/index.ts';
import { badRequest } from './error-body.ts';
import { decodeBase64Strict } from './media/index.ts';

type FieldType = 'string' | 'number' | 'integer' | 'boolean';

interface FieldSpec {
  type: FieldType;
  /** Present and, for strings, not empty. */
  required?: boolean;
  /** An image input (URL or Base64), checked for content and size. */
  image?: boolean;
  /** Face swap: a URL must end in an allowed image extension (spec 2.4). */
  urlExtension?: boolean;
  /** An audio reference: an http(s) URL or Base64. */
  audio?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
}

interface InputSpec {
  /** Unknown input fields are refused (the three task types the spec defines field by field). */
  strict: boolean;
  fields: Record<string, FieldSpec>;
  /** A rule across fields; returns a message or null. */
  check?: (input: Record<string, unknown>) => string | null;
}

const lyrics: FieldSpec = { type: 'string', maxLength: LIMITS.lyricsMaxChars };
const text: FieldSpec = { type: 'string', maxLength: LIMITS.promptMaxChars };
const requiredText: FieldSpec = { ...text, required: true };
const audioSeconds = { min: LIMITS.audioMinSeconds, max: LIMITS.audioMaxSeconds };
const faceImage: FieldSpec = { type: 'string', required: true, image: true, urlExtension: true };
const toolkitImage: FieldSpec = { type: 'string', required: true, image: true };

/** The input fields of every task type the sandbox serves, keyed `model task_type`. */
const INPUT_SPECS: Record<string, InputSpec> = {
  'service/ace-step txt2audio': {
    strict: true,
    fields: {
      style_prompt: text,
      negative_prompt: text,
      lyrics,
      duration: { type: 'number', required: true, ...audioSeconds },
      style_audio: { type: 'string', audio: true },
    },
    check: (input) =>
      nonEmpty(input.style_prompt) || nonEmpty(input.style_audio)
        ? null
        : 'input.style_prompt or input.style_audio is required (a text prompt or reference audio)',
  },
  'service/ace-step audio2audio': {
    strict: false,
    fields: {
      style_audio: { type: 'string', required: true, audio: true },
      style_prompt: text,
      negative_prompt: text,
      lyrics,
      duration: { type: 'number', ...audioSeconds },
    },
  },
  'service/ace-step edit': {
    strict: false,
    fields: {
      audio: { type: 'string', required: true, audio: true },
      style_prompt: text,
      lyrics,
      edit_style_prompt: text,
      edit_lyrics: lyrics,
      duration: { type: 'number', ...audioSeconds },
    },
  },
  'service/ace-step extend': {
    strict: false,
    fields: {
      audio: { type: 'string', required: true, audio: true },
      style_prompt: text,
      negative_prompt: text,
      lyrics,
      duration: { type: 'number', ...audioSeconds },
      left_extend_duration: { type: 'number', min: 0, max: LIMITS.audioMaxSeconds },
      right_extend_duration: { type: 'number', min: 0, max: LIMITS.audioMaxSeconds },
    },
  },
  'service/image-edit image-edit': {
    strict: true,
    fields: {
      image1: { type: 'string', required: true, image: true },
      image2: { type: 'string', image: true },
      image3: { type: 'string', image: true },
      prompt: requiredText,
      negative_prompt: text,
      seed: { type: 'integer' },
      steps: { type: 'integer', min: 1, max: 100 },
      flow_shift: { type: 'number' },
    },
  },
  'service/image-toolkit face-swap': {
    strict: true,
    fields: { target_image: faceImage, swap_image: faceImage },
  },
  'service/image-toolkit multi-face-swap': {
    strict: false,
    fields: {
      target_image: faceImage,
      swap_image: faceImage,
      swap_faces_index: { type: 'string' },
      target_faces_index: { type: 'string' },
    },
  },
  'service/image-toolkit background-remove': {
    strict: false,
    fields: { image: toolkitImage, rmbg_model: { type: 'string' } },
  },
  'service/image-toolkit segment': {
    strict: false,
    fields: {
      image: toolkitImage,
      prompt: requiredText,
      negative_prompt: text,
      segment_factor: { type: 'number' },
    },
  },
  'service/image-toolkit upscale': {
    strict: false,
    fields: {
      image: toolkitImage,
      scale: { type: 'integer', min: 1, max: 4 },
      face_enhance: { type: 'boolean' },
    },
  },
  'service/image-gen txt2img': {
    strict: false,
    fields: {
      prompt: requiredText,
      negative_prompt: text,
      width: { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 },
      height: { type: 'integer', min: 64, max: LIMITS.imageMaxSideExclusive - 1 },
      seed: { type: 'integer' },
    },
  },
  'service/video-gen txt2video': {
    strict: false,
    fields: {
      prompt: requiredText,
      duration: { type: 'number', min: 1, max: 30 },
    },
  },
};

export interface ImageInputField {
  /** The input key, e.g. `target_image`. */
  name: string;
  value: string;
}

export interface ValidatedCreate {
  model: string;
  taskType: string;
  entry: CatalogEntry;
  input: Record<string, unknown>;
  webhook: { endpoint: string; secret: string };
  serviceMode: string;
  /** Image inputs to check for content and size, in input order. */
  imageFields: ImageInputField[];
}

/** Parses the raw body text; throws a 400 naming the field at the first problem. */
export function parseCreateBody(bodyText: string): { body: unknown; request: ValidatedCreate } {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (err) {
    throw badRequest(`body: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return { body, request: validateCreate(body) };
}

export function validateCreate(body: unknown): ValidatedCreate {
  if (!isPlainObject(body)) throw badRequest(`body: must be a JSON object, got ${jsonType(body)}`);
  const model = requireString(body, 'model');
  const taskType = requireString(body, 'task_type');
  if (body.input === undefined || body.input === null) throw badRequest('input is required');
  if (!isPlainObject(body.input)) throw badRequest(`input must be an object, got ${jsonType(body.input)}`);
  const entry = findCatalogEntry(model, taskType);
  if (!entry) {
    if (!CATALOG.some((e) => e.model === model)) {
      throw badRequest(`model: unknown model '${model}' (known: ${knownModels().join(', ')})`);
    }
    const types = CATALOG.filter((e) => e.model === model).map((e) => e.taskType);
    throw badRequest(`task_type: '${taskType}' is not a task type of ${model} (known: ${types.join(', ')})`);
  }
  const { webhook, serviceMode } = validateConfig(body.config);
  const input = body.input;
  const spec = INPUT_SPECS[`${model} ${taskType}`];
  const imageFields = spec ? validateInput(input, spec) : [];
  return { model, taskType, entry, input, webhook, serviceMode, imageFields };
}

function knownModels(): string[] {
  return [...new Set(CATALOG.map((e) => e.model))];
}

function validateConfig(config: unknown): {
  webhook: { endpoint: string; secret: string };
  serviceMode: string;
} {
  const result = { webhook: { endpoint: '', secret: '' }, serviceMode: '' };
  if (config === undefined || config === null) return result;
  if (!isPlainObject(config)) throw badRequest(`config must be an object, got ${jsonType(config)}`);
  if (config.service_mode !== undefined) {
    if (typeof config.service_mode !== 'string') {
      throw badRequest(`config.service_mode must be a string, got ${jsonType(config.service_mode)}`);
    }
    result.serviceMode = config.service_mode;
  }
  const wh = config.webhook_config;
  if (wh === undefined || wh === null) return result;
  if (!isPlainObject(wh)) throw badRequest(`config.webhook_config must be an object, got ${jsonType(wh)}`);
  for (const key of ['endpoint', 'secret'] as const) {
    const value = wh[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      throw badRequest(`config.webhook_config.${key} must be a string, got ${jsonType(value)}`);
    }
    result.webhook[key] = value;
  }
  if (result.webhook.endpoint !== '' && !isHttpUrl(result.webhook.endpoint)) {
    throw badRequest('config.webhook_config.endpoint must be an http(s) URL or an empty string');
  }
  return result;
}

function validateInput(input: Record<string, unknown>, spec: InputSpec): ImageInputField[] {
  if (spec.strict) {
    for (const key of Object.keys(input)) {
      if (!(key in spec.fields)) {
        throw badRequest(
          `input.${key} is not a field of this task type (fields: ${Object.keys(spec.fields).join(', ')})`,
        );
      }
    }
  }
  const images: ImageInputField[] = [];
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = input[name];
    checkField(`input.${name}`, value, field);
    if (field.image && typeof value === 'string' && value !== '') images.push({ name, value });
  }
  const message = spec.check?.(input);
  if (message) throw badRequest(message);
  return images;
}

function checkField(path: string, value: unknown, field: FieldSpec): void {
  if (value === undefined || value === null || value === '') {
    if (field.required) throw badRequest(`${path} is required`);
    return;
  }
  checkType(path, value, field.type);
  if (typeof value === 'number') checkRange(path, value, field);
  if (typeof value !== 'string') return;
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    throw badRequest(`${path} is too long: ${value.length} characters, at most ${field.maxLength}`);
  }
  if (field.urlExtension && isHttpUrl(value) && !hasAllowedImageUrlExtension(value)) {
    throw badRequest(`${path}: a URL must end in ${LIMITS.faceSwapUrlExtensions.join(', ')}`);
  }
  if (field.audio && !isHttpUrl(value) && decodeBase64Strict(value) === null) {
    throw badRequest(`${path} must be an http(s) URL or Base64 audio`);
  }
}

function checkType(path: string, value: unknown, type: FieldType): void {
  const ok =
    type === 'integer'
      ? typeof value === 'number' && Number.isInteger(value)
      : type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : typeof value === type;
  if (!ok)
    throw badRequest(`${path} must be ${type === 'integer' ? 'an' : 'a'} ${type}, got ${jsonType(value)}`);
}

function checkRange(path: string, value: number, field: FieldSpec): void {
  const { min, max } = field;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    throw badRequest(`${path} must be between ${min ?? '-inf'} and ${max ?? 'inf'}, got ${value}`);
  }
}

function requireString(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null || value === '') throw badRequest(`${key} is required`);
  if (typeof value !== 'string') throw badRequest(`${key} must be a string, got ${jsonType(value)}`);
  return value;
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
