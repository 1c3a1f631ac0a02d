/**
 * What a user composes (a draft) and the checks it passes before anything is queued. Each
 * failure names the field. Media fields may hold a URL, Base64 or a local file path; those are
 * checked by the media room (magic bytes, header dimensions, size caps).
 */
import {
  estimateCost,
  FaceSwapInputSchema,
  findCatalogEntry,
  ImageEditInputSchema,
  LIMITS,
  Txt2AudioInputSchema,
} from '../../shared/index.ts';
import { InputValidationError } from '../media/index.ts';

export interface TaskDraft {
  model: string;
  taskType: string;
  /** Input fields as the service takes them; media fields may hold a local file path instead. */
  input: Record<string, unknown>;
  webhook?: { endpoint: string; secret: string } | null;
  title?: string;
  /** Local id of the task this one re-runs. */
  rerunOf?: string | null;
}

export interface MediaFieldRule {
  field: string;
  kind: 'image' | 'audio';
  required: boolean;
  faceSwap?: boolean;
}

/** Which input fields of a task type carry media, and what they must be. */
export function mediaFieldsOf(taskType: string): MediaFieldRule[] {
  switch (taskType) {
    case 'face-swap':
    case 'multi-face-swap':
      return [
        { field: 'target_image', kind: 'image', required: true, faceSwap: true },
        { field: 'swap_image', kind: 'image', required: true, faceSwap: true },
      ];
    case 'image-edit':
      return [
        { field: 'image1', kind: 'image', required: true },
        { field: 'image2', kind: 'image', required: false },
        { field: 'image3', kind: 'image', required: false },
      ];
    case 'txt2audio':
      return [{ field: 'style_audio', kind: 'audio', required: false }];
    case 'audio2audio':
      return [{ field: 'style_audio', kind: 'audio', required: true }];
    case 'edit':
    case 'extend':
      return [{ field: 'audio', kind: 'audio', required: true }];
    case 'background-remove':
    case 'segment':
    case 'upscale':
      return [{ field: 'image', kind: 'image', required: true }];
    default:
      return [];
  }
}

function fail(field: string, message: string): never {
  throw new InputValidationError(field, `${field}: ${message}`);
}

function firstIssue(error: {
  issues: { path: PropertyKey[]; message: string; code?: string; expected?: unknown; keys?: string[] }[];
}): [string, string] {
  const issue = error.issues[0];
  if (!issue) return ['input', 'is not valid'];
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    return [issue.keys[0] as string, 'is not a field of this task type'];
  }
  const field = issue.path.length > 0 ? String(issue.path[0]) : 'input';
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string') {
    return [field, issue.expected === 'int' ? 'must be a whole number' : `must be a ${issue.expected}`];
  }
  return [field, issue.message];
}

/** Checks a draft's non-media fields. Throws InputValidationError naming the field. */
export function checkDraftFields(draft: TaskDraft): void {
  if (typeof draft.model !== 'string' || draft.model.trim() === '') fail('model', 'is required');
  if (typeof draft.taskType !== 'string' || draft.taskType.trim() === '') fail('task_type', 'is required');
  if (!draft.input || typeof draft.input !== 'object' || Array.isArray(draft.input))
    fail('input', 'must be an object');
  if (!findCatalogEntry(draft.model, draft.taskType)) {
    fail('task_type', `${draft.model} has no task type "${draft.taskType}" in the catalog`);
  }
  const input = draft.input;
  for (const rule of mediaFieldsOf(draft.taskType)) {
    const value = input[rule.field];
    const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    if (empty && rule.required) fail(rule.field, 'is required');
    if (!empty && typeof value !== 'string') fail(rule.field, 'must be a URL, Base64 text or a file path');
  }
  const text = (name: string) => (typeof input[name] === 'string' ? (input[name] as string) : '');

  if (draft.taskType === 'txt2audio') {
    const parsed = Txt2AudioInputSchema.safeParse(input);
    if (!parsed.success) {
      const [field, message] = firstIssue(parsed.error);
      fail(field, message);
    }
    const d = input.duration;
    if (typeof d !== 'number' || !Number.isFinite(d)) fail('duration', 'is required (seconds)');
    if (d < LIMITS.audioMinSeconds || d > LIMITS.audioMaxSeconds) {
      fail(
        'duration',
        `must be between ${LIMITS.audioMinSeconds} and ${LIMITS.audioMaxSeconds} seconds (got ${d})`,
      );
    }
    if (text('style_prompt').trim() === '' && text('style_audio').trim() === '') {
      fail('style_prompt', 'write a style prompt or give a reference audio');
    }
    if (text('style_prompt').length > LIMITS.promptMaxChars) {
      fail(
        'style_prompt',
        `is ${text('style_prompt').length} characters; the limit is ${LIMITS.promptMaxChars}`,
      );
    }
    if (text('lyrics').length > LIMITS.lyricsMaxChars) {
      fail('lyrics', `is ${text('lyrics').length} characters; the limit is ${LIMITS.lyricsMaxChars}`);
    }
  } else if (draft.taskType === 'image-edit') {
    const parsed = ImageEditInputSchema.safeParse(input);
    if (!parsed.success) {
      const [field, message] = firstIssue(parsed.error);
      fail(field, message);
    }
    if (text('prompt').trim() === '') fail('prompt', 'describe the edit');
    if (text('prompt').length > LIMITS.promptMaxChars) {
      fail('prompt', `is ${text('prompt').length} characters; the limit is ${LIMITS.promptMaxChars}`);
    }
    if (input.image3 && !input.image2) fail('image2', 'fill image2 before image3');
    if (input.steps !== undefined && ((input.steps as number) < 1 || (input.steps as number) > 100)) {
      fail('steps', 'must be between 1 and 100');
    }
  } else if (draft.taskType === 'face-swap') {
    const parsed = FaceSwapInputSchema.safeParse(input);
    if (!parsed.success) {
      const [field, message] = firstIssue(parsed.error);
      fail(field, message);
    }
  }
  if (draft.webhook?.endpoint) {
    let ok = false;
    try {
      const u = new URL(draft.webhook.endpoint);
      ok = u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      ok = false;
    }
    if (!ok) fail('webhook_config.endpoint', 'must be an http(s) URL');
  }
}

/** A readable title for the library, from the draft's own words. */
export function titleOf(draft: TaskDraft): string {
  if (draft.title && draft.title.trim() !== '') return draft.title.trim().slice(0, 200);
  const input = draft.input;
  const pick = (name: string) => (typeof input[name] === 'string' ? (input[name] as string).trim() : '');
  const words = pick('style_prompt') || pick('prompt') || '';
  const label = findCatalogEntry(draft.model, draft.taskType)?.label ?? draft.taskType;
  if (words === '') return label;
  return words.length > 80 ? `${words.slice(0, 79)}…` : words;
}

export function estimateDraftCost(draft: TaskDraft): number | null {
  return estimateCost({ model: draft.model, task_type: draft.taskType, input: draft.input }).micros;
}
