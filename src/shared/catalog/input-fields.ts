/**
 * The input fields of a task type as data, and the check every layer runs on them: the
 * engine before queueing, the sandbox before accepting, the composer while the user types.
 * Media contents (magic bytes, pixel sizes, Base64 audio) are checked by the layer that has
 * the bytes; these rules only say which fields carry media and of which kind.
 */
import { INPUT_MEDIA_KINDS, type InputMediaKind, type MediaInputLimits } from '../media/media-kinds.ts';
import { hasAllowedImageUrlExtension, isHttpUrl, LIMITS } from './limits.ts';

export type FieldType = 'string' | 'number' | 'integer' | 'boolean';

/** What a media input field takes: a kind of the media table that has input limits (media/media-kinds.ts). */
export { INPUT_MEDIA_KINDS, type InputMediaKind };

/** A field's own limits, narrower than its kind's (e.g. video upscale: 10 to 240 frames). */
export type FieldMediaLimits = Partial<Omit<MediaInputLimits, 'formats'>>;

/** One choice of a `choice` widget: the value sent and the words shown. */
export interface FieldChoice {
  value: string | number;
  label: string;
}

/** One size of an `aspect-ratio` widget: its words and the width and height it sets. */
export interface AspectSize {
  label: string;
  width: number;
  height: number;
}

/**
 * How a generated form edits a field (the renderer maps each kind to a component):
 * - `text`, `long-text` (a few lines), `lyrics` (the lyrics editor with its markers);
 * - `number` with the rule's bounds and this step;
 * - `choice` among values with words;
 * - `seed`: a whole number with a dice button that picks one;
 * - `aspect-ratio` on a width field: sizes that set it and `height` together;
 * - `toggle`: on or off;
 * - `media`: a media slot of the rule's kind;
 * - `none`: not shown (a second name of another field, a number the form does not set); the
 *   JSON editor still takes it.
 */
export type FieldWidget =
  | { kind: 'text' }
  | { kind: 'long-text'; rows?: number }
  | { kind: 'lyrics' }
  | { kind: 'number'; step?: number }
  | { kind: 'choice'; choices: readonly FieldChoice[] }
  | { kind: 'seed' }
  | { kind: 'aspect-ratio'; height: string; sizes: readonly AspectSize[] }
  | { kind: 'toggle' }
  | { kind: 'media' }
  | { kind: 'none' };

export type WidgetKind = FieldWidget['kind'];

/**
 * A field of an entry: its rule (checked by every layer), its words (the one wording a person
 * reads beside it and in every message about it) and how a form edits it.
 */
export interface FieldRule {
  type: FieldType;
  /** The field's name for a person: "Duration", "Seconds after", "Guidance". */
  label: string;
  /** One line beside the field, in plain words; what the service does when it is left empty. */
  help?: string;
  /** "Lyrics are…" rather than "is". */
  plural?: boolean;
  /** Put after a number in a range: `from 1 to 240 seconds` (with its leading space). */
  unit?: string;
  /** How a form edits it; by default from its type (widgetOf). */
  widget?: FieldWidget;
  /**
   * A media field of a hand-made form that a saved result can be put in from the library (its
   * keep-going action: its stable id and its button's words). A generated operation on a result
   * needs none: its entry's words say it.
   */
  resultAction?: { id: string; label: string };
  /** Present and, for strings, not empty. */
  required?: boolean;
  /**
   * Said when a required field is empty, instead of "<label> is needed" ("Add a picture to
   * edit", "Add the song to extend"): the one sentence of the composer's slot, the engine and the
   * CLI (field-words.ts missingWords). Every required media field has one (catalog contract).
   */
  missing?: string;
  /** The field carries a media input: a URL, Base64 text, or (in the app) a local file. */
  media?: InputMediaKind;
  /** Limits of this field's media narrower than its kind's (the kind's apply otherwise). */
  mediaLimits?: FieldMediaLimits;
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

/**
 * What is wrong, as data, so a form can say it in its own words (the composer's plain
 * sentences) while the wire keeps `message`. A cross-field rule's problem has kind `rule`.
 */
export type ProblemReason =
  | { kind: 'unknown-field'; known: readonly string[] }
  | { kind: 'required' }
  | { kind: 'type'; expected: FieldType; got: string }
  | { kind: 'range'; min: number | null; max: number | null; value: number }
  | { kind: 'too-long'; length: number; max: number }
  | { kind: 'url-extension'; allowed: readonly string[] }
  | { kind: 'rule' };

export interface InputProblem {
  /** The input key concerned, e.g. `duration`. */
  field: string;
  /**
   * The service's wording (the sandbox answers with it): a sentence that starts with the field's
   * path, e.g. `input.duration must be between 1 and 240, got 500`. What the app says is
   * `problemWords` (field-words.ts).
   */
  message: string;
  /**
   * A cross-field rule's problem in a person's words, which the app says (the composer, the
   * CLI and the engine alike): `Write a style prompt or add a reference audio`.
   */
  words?: string;
  /**
   * The same problem as data; absent on a cross-field rule's own answer (read it as `rule`), or
   * `required` there when the rule asks for one of several values none of which is given yet.
   */
  reason?: ProblemReason;
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

function hasType(value: unknown, type: FieldType): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

function fieldProblem(
  path: string,
  value: unknown,
  rule: FieldRule,
): { message: string; reason: ProblemReason } | null {
  if (isEmptyValue(value)) {
    return rule.required ? { message: `${path} is required`, reason: { kind: 'required' } } : null;
  }
  if (!hasType(value, rule.type)) {
    const got = jsonTypeOf(value);
    return {
      message: `${path} must be ${rule.type === 'integer' ? 'an' : 'a'} ${rule.type}, got ${got}`,
      reason: { kind: 'type', expected: rule.type, got },
    };
  }
  if (typeof value === 'number') {
    const { min, max } = rule;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      return {
        message: `${path} must be between ${min ?? '-inf'} and ${max ?? 'inf'}, got ${value}`,
        reason: { kind: 'range', min: min ?? null, max: max ?? null, value },
      };
    }
  }
  if (typeof value !== 'string') return null;
  if (rule.maxLength !== undefined && value.length > rule.maxLength) {
    return {
      message: `${path} is too long: ${value.length} characters, at most ${rule.maxLength}`,
      reason: { kind: 'too-long', length: value.length, max: rule.maxLength },
    };
  }
  if (rule.urlExtension && isHttpUrl(value) && !hasAllowedImageUrlExtension(value)) {
    const allowed = LIMITS.faceSwapUrlExtensions;
    return {
      message: `${path}: a URL must end in ${allowed.join(', ')}`,
      reason: { kind: 'url-extension', allowed },
    };
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
          reason: { kind: 'unknown-field', known },
        });
      }
    }
  }
  for (const [name, rule] of Object.entries(rules.fields)) {
    const problem = fieldProblem(`${pathPrefix}${name}`, input[name], rule);
    if (problem) problems.push({ field: name, ...problem });
  }
  if (problems.length === 0) {
    const cross = rules.check?.(input);
    if (cross) problems.push(cross);
  }
  return problems;
}

/** How a form edits a field: its own widget, else one from its type and media. */
export function widgetOf(rule: FieldRule): FieldWidget {
  if (rule.widget) return rule.widget;
  if (rule.media) return { kind: 'media' };
  if (rule.type === 'boolean') return { kind: 'toggle' };
  if (rule.type === 'number' || rule.type === 'integer') return { kind: 'number' };
  if (rule.maxLength === LIMITS.lyricsMaxChars) return { kind: 'lyrics' };
  return rule.maxLength !== undefined ? { kind: 'long-text' } : { kind: 'text' };
}

export interface MediaFieldRule {
  field: string;
  kind: InputMediaKind;
  required: boolean;
  /** A URL must end in .jpg/.jpeg/.png/.webp (face swap). */
  faceSwap: boolean;
  /** The field's own limits (FieldRule.mediaLimits), when it has any. */
  limits?: FieldMediaLimits;
}

/** The media fields of a set of rules, in declared order. */
export function mediaFieldsOfRules(rules: InputRules): MediaFieldRule[] {
  return Object.entries(rules.fields).flatMap(([field, rule]) =>
    rule.media
      ? [
          {
            field,
            kind: rule.media,
            required: rule.required ?? false,
            faceSwap: rule.urlExtension ?? false,
            ...(rule.mediaLimits ? { limits: rule.mediaLimits } : {}),
          },
        ]
      : [],
  );
}
