/**
 * What an input field accepts, and the checks on a sniffed type, on image dimensions and on video
 * facts that Base64 and file inputs share. The general limits are the media kind's (the table in
 * src/shared/media); a field narrows them with its own. Each check returns a problem (the message
 * without the field prefix) or null.
 */

import { type FieldMediaLimits, LIMITS } from '../../shared/catalog/index.ts';
import {
  describeType,
  type InputMediaKind,
  inputLimitsOf,
  type MediaInputLimits,
  mediaKind,
  type SniffedType,
} from '../../shared/media/index.ts';

export interface InputRule {
  /** The input field, used in messages and in library file names. */
  field: string;
  kind: InputMediaKind;
  /** Face swap takes JPEG, PNG or WebP only, and URLs ending in an image extension. */
  faceSwap?: boolean;
  /** Each image side must be below this. Default: the image kind's (2048). */
  maxSideExclusive?: number;
  /** Largest accepted size in bytes (decoded size for Base64). Default: the field's, else its kind's. */
  maxBytes?: number;
  /** The field's own limits (the catalog's FieldRule.mediaLimits). */
  limits?: FieldMediaLimits;
}

/** The limits that apply to an input: the kind's, narrowed by the field's and the rule's own. */
export function limitsFor(rule: InputRule): MediaInputLimits {
  const limits = { ...inputLimitsOf(rule.kind), ...rule.limits };
  if (rule.maxBytes !== undefined) limits.maxBytes = rule.maxBytes;
  if (rule.maxSideExclusive !== undefined) limits.maxSideExclusive = rule.maxSideExclusive;
  return limits;
}

export function maxBytesFor(rule: InputRule): number {
  return limitsFor(rule).maxBytes;
}

const FACE_SWAP_EXTS = new Set(['png', 'jpg', 'webp']);

/** "JPEG, PNG, WebP, GIF or BMP": the formats an input of a kind may be, in words. */
function formatNames(kind: InputMediaKind): string {
  const names = inputLimitsOf(kind).formats.map((ext) => FORMAT_NAMES[ext] ?? ext.toUpperCase());
  const last = names.pop();
  return names.length === 0 ? (last ?? '') : `${names.join(', ')} or ${last}`;
}
const FORMAT_NAMES: Record<string, string> = {
  jpg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  gif: 'GIF',
  bmp: 'BMP',
};

/**
 * `subject` names the input in the message: `"photo.gif"` for a file, `the Base64 data`.
 * Returns the problem with the type, or null when the rule accepts it.
 */
export function typeProblem(subject: string, type: SniffedType | null, rule: InputRule): string | null {
  const { words } = mediaKind(rule.kind);
  if (type === null) return `${subject} is not ${words.wantedFile}`;
  if (type.kind !== rule.kind) return `${subject} is ${describeType(type)}, not ${words.wanted}`;
  if (rule.kind === 'image' && rule.faceSwap && !FACE_SWAP_EXTS.has(type.ext)) {
    return `${subject} is ${describeType(type)}; face swap takes JPEG, PNG or WebP`;
  }
  if (!inputLimitsOf(rule.kind).formats.includes(type.ext)) {
    return `${subject} is ${describeType(type)}; this input takes ${formatNames(rule.kind)}`;
  }
  return null;
}

export function dimensionProblem(width: number, height: number, rule: InputRule): string | null {
  const maxSide = limitsFor(rule).maxSideExclusive;
  if (maxSide === undefined || (width < maxSide && height < maxSide)) return null;
  return `image is ${width} x ${height} px; each side must be under ${maxSide} px`;
}

/** The problem with a video's frame size, length or frame count, or null when the limits take it. */
export function videoProblem(
  facts: { width: number; height: number; durationSeconds: number; frames: number },
  rule: InputRule,
): string | null {
  const limits = limitsFor(rule);
  const { width, height, frames } = facts;
  if (limits.maxFrame) {
    const { long, short } = limits.maxFrame;
    if (Math.max(width, height) > long || Math.min(width, height) > short) {
      return `video is ${width} x ${height} px; it must fit in ${long} x ${short} (${short}p)`;
    }
  }
  if (limits.maxFrames !== undefined && frames > limits.maxFrames) {
    return `video has ${frames} frames; at most ${limits.maxFrames}`;
  }
  if (limits.minFrames !== undefined && frames < limits.minFrames) {
    return `video has ${frames} frames; at least ${limits.minFrames}`;
  }
  if (limits.maxSeconds !== undefined && facts.durationSeconds > limits.maxSeconds) {
    return `video is ${Math.round(facts.durationSeconds * 10) / 10} s long; at most ${limits.maxSeconds} s`;
  }
  return null;
}

/** The spec's wording: "URL must end in .jpg, .jpeg, .png or .webp". */
export function faceSwapUrlProblem(): string {
  const exts = [...LIMITS.faceSwapUrlExtensions];
  const last = exts.pop();
  return `URL must end in ${exts.join(', ')} or ${last}`;
}
