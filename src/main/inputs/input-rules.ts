/**
 * What an input field accepts, and the checks on a sniffed type and on image dimensions that
 * Base64 and file inputs share. Each check returns a problem (the message without the field
 * prefix) or null.
 */

import { type InputMediaKind, LIMITS } from '../../shared/catalog/index.ts';
import { describeType, type SniffedType } from './file-type-sniffing.ts';

export interface InputRule {
  /** The input field, used in messages and in library file names. */
  field: string;
  kind: InputMediaKind;
  /** Face swap takes JPEG, PNG or WebP only, and URLs ending in an image extension. */
  faceSwap?: boolean;
  /** Each image side must be below this. Default LIMITS.imageMaxSideExclusive (2048). */
  maxSideExclusive?: number;
  /** Largest accepted size in bytes (decoded size for Base64). Default from LIMITS by kind. */
  maxBytes?: number;
}

export function maxBytesFor(rule: InputRule): number {
  return rule.maxBytes ?? (rule.kind === 'image' ? LIMITS.imageMaxBytes : LIMITS.audioMaxBytes);
}

export function maxSideFor(rule: InputRule): number {
  return rule.maxSideExclusive ?? LIMITS.imageMaxSideExclusive;
}

/** Image types whose size can be read from the header (see image-header.ts). */
const READABLE_IMAGE_EXTS = new Set(['png', 'jpg', 'webp', 'gif', 'bmp']);
const FACE_SWAP_EXTS = new Set(['png', 'jpg', 'webp']);

/**
 * `subject` names the input in the message: `"photo.gif"` for a file, `the Base64 data`.
 * Returns the problem with the type, or null when the rule accepts it.
 */
export function typeProblem(subject: string, type: SniffedType | null, rule: InputRule): string | null {
  const wanted = rule.kind === 'image' ? 'an image' : 'an audio file';
  if (type === null) return `${subject} is not ${wanted}${rule.kind === 'image' ? ' file' : ''}`;
  if (type.family !== rule.kind) return `${subject} is ${describeType(type)}, not ${wanted}`;
  if (rule.kind !== 'image') return null;
  if (rule.faceSwap && !FACE_SWAP_EXTS.has(type.ext)) {
    return `${subject} is ${describeType(type)}; face swap takes JPEG, PNG or WebP`;
  }
  if (!READABLE_IMAGE_EXTS.has(type.ext)) {
    return `${subject} is ${describeType(type)}; this input takes JPEG, PNG, WebP, GIF or BMP`;
  }
  return null;
}

export function dimensionProblem(width: number, height: number, rule: InputRule): string | null {
  const maxSide = maxSideFor(rule);
  if (width < maxSide && height < maxSide) return null;
  return `image is ${width} x ${height} px; each side must be under ${maxSide} px`;
}

/** The spec's wording: "URL must end in .jpg, .jpeg, .png or .webp". */
export function faceSwapUrlProblem(): string {
  const exts = [...LIMITS.faceSwapUrlExtensions];
  const last = exts.pop();
  return `URL must end in ${exts.join(', ')} or ${last}`;
}
