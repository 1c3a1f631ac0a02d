/**
 * Prompt lists over a task draft (issue 22, item 3): which of an entry's input fields are text a
 * person writes (where alternatives `{a|b}` are read), which one is its prompt (the one a list
 * of prompts, one per line, fills), and the drafts one draft makes. The composer and the CLI's
 * create both call this; the expansion itself is prompt-list.ts.
 */
import { type InputRules, widgetOf } from '../catalog/input-fields.ts';
import { expandTexts, PROMPT_LIST_MAX } from './prompt-list.ts';

const TEXT_WIDGETS = new Set(['text', 'long-text', 'lyrics']);

/** The fields a person writes text in (prompts, styles, lyrics): not media, numbers or choices. */
export function writtenTextFields(rules: InputRules): string[] {
  return Object.entries(rules.fields)
    .filter(([, rule]) => rule.type === 'string' && !rule.media && TEXT_WIDGETS.has(widgetOf(rule).kind))
    .map(([field]) => field);
}

/** The field a list of prompts fills: `prompt`, else a song's `style_prompt`; null when the entry has neither. */
export function promptFieldOf(rules: InputRules): string | null {
  for (const field of ['prompt', 'style_prompt']) if (rules.fields[field]?.type === 'string') return field;
  return null;
}

/** Each written text field's name in words for a refusal ("the negative prompt"); the CLI names its option instead. */
export function writtenTextNames(rules: InputRules): Record<string, string> {
  return Object.fromEntries(
    writtenTextFields(rules).map((field) => [
      field,
      `the ${rules.fields[field]?.label.toLowerCase() ?? field}`,
    ]),
  );
}

export type DraftsExpansion<D> = { ok: true; drafts: D[] } | { ok: false; field: string; message: string };

/**
 * The drafts `draft` makes: one per combination of the alternatives in its written text fields
 * (and, with `linesField`, per line of that field), the draft itself when nothing expands. The
 * texts are written without escapes (`\{` becomes `{`). Refused, naming the field, over `max`.
 */
export function expandDraftTexts<D extends { input: Record<string, unknown> }>(
  draft: D,
  rules: InputRules,
  options: { linesField?: string | null; max?: number; names?: Readonly<Record<string, string>> } = {},
): DraftsExpansion<D> {
  const texts: Record<string, string> = {};
  for (const field of writtenTextFields(rules)) {
    const value = draft.input[field];
    if (typeof value === 'string' && value !== '') texts[field] = value;
  }
  const linesField = options.linesField ?? undefined;
  const max = options.max ?? PROMPT_LIST_MAX;
  const expanded = expandTexts(texts, {
    max,
    linesField,
    ...(options.names ? { names: options.names } : {}),
  });
  if (!expanded.ok) return expanded;
  return {
    ok: true,
    drafts: expanded.variants.map((variant) => ({ ...draft, input: { ...draft.input, ...variant } })),
  };
}
