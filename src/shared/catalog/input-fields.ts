/**
 * The input fields of a task type as data, and the check every layer runs on them: the
 * engine before queueing, the sandbox before accepting, the composer while the user types.
 * Media contents (magic bytes, pixel sizes, Base64 audio) are checked by the layer that has
 * the bytes; these rules only say which fields carry media and of which kind.
 */
import { hasAllowedImageUrlExtension, isHttpUrl, LIMITS } from './limits.ts';

export type FieldType = 'string' | 'number' | 'integer' | 'boolean';

export interface FieldRule {
  type: FieldType;
  /** Present and, for strings, not empty. */
  required?: boolean;
  /** The field carries a media input: a URL, Base64 text, or (in the app) a local file. */
  media?: 'image' | 'audio';
  /** Face swap: a URL must end in an allowed image extension (spec 2.4). */
  urlExtension?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
}

export interface InputRules {
  /** Unknown input fields are refused (the task types the spec defines field by field). */
  strict: boolean;
  fields: Record<string, FieldRule>;
  /** A rule across fields: the field it concerns and the message, or null. */
  check?: (input: Record<string, unknown>) => InputProblem | null;
}

export interface InputProblem {
  /** The input key concerned, e.g. `duration`. */
  field: string;
  /** A sentence that starts with the field's path, e.g. `input.duration must be between 1 and 240, got 500`. */
  message: string;
}

/** What a JSON value is, in words: `a string`, `null`, `an array`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function typeProblem(path: string, value: unknown, type: FieldType): string | null {
  const ok =
    type === 'integer'
      ? typeof value === 'number' && Number.isInteger(value)
      : type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : typeof value === type;
  return ok ? null : `${path} must be ${type === 'integer' ? 'an' : 'a'} ${type}, got ${jsonTypeOf(value)}`;
}

function fieldProblem(path: string, value: unknown, rule: FieldRule): string | null {
  if (isEmptyValue(value)) return rule.required ? `${path} is required` : null;
  const wrongType = typeProblem(path, value, rule.type);
  if (wrongType) return wrongType;
  if (typeof value === 'number') {
    const { min, max } = rule;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      return `${path} must be between ${min ?? '-inf'} and ${max ?? 'inf'}, got ${value}`;
    }
  }
  if (typeof value !== 'string') return null;
  if (rule.maxLength !== undefined && value.length > rule.maxLength) {
    return `${path} is too long: ${value.length} characters, at most ${rule.maxLength}`;
  }
  if (rule.urlExtension && isHttpUrl(value) && !hasAllowedImageUrlExtension(value)) {
    return `${path}: a URL must end in ${LIMITS.faceSwapUrlExtensions.join(', ')}`;
  }
  return null;
}

/**
 * Every problem of an input against its rules, in a stable order: unknown fields (strict
 * rules), then each field in declared order, then the cross-field rule (only when the fields
 * themselves are fine). `pathPrefix` is put before each field name (`input.` for the wire).
 */
export function inputProblems(
  input: Record<string, unknown>,
  rules: InputRules,
  pathPrefix = 'input.',
): InputProblem[] {
  const problems: InputProblem[] = [];
  if (rules.strict) {
    const known = Object.keys(rules.fields);
    for (const key of Object.keys(input)) {
      if (!(key in rules.fields)) {
        problems.push({
          field: key,
          message: `${pathPrefix}${key} is not a field of this task type (fields: ${known.join(', ')})`,
        });
      }
    }
  }
  for (const [name, rule] of Object.entries(rules.fields)) {
    const message = fieldProblem(`${pathPrefix}${name}`, input[name], rule);
    if (message) problems.push({ field: name, message });
  }
  if (problems.length === 0) {
    const cross = rules.check?.(input);
    if (cross) problems.push(cross);
  }
  return problems;
}

export interface MediaFieldRule {
  field: string;
  kind: 'image' | 'audio';
  required: boolean;
  /** A URL must end in .jpg/.jpeg/.png/.webp (face swap). */
  faceSwap: boolean;
}

/** The media fields of a set of rules, in declared order. */
export function mediaFieldsOfRules(rules: InputRules): MediaFieldRule[] {
  return Object.entries(rules.fields).flatMap(([field, rule]) =>
    rule.media
      ? [{ field, kind: rule.media, required: rule.required ?? false, faceSwap: rule.urlExtension ?? false }]
      : [],
  );
}
