/**
 * The generic form of a catalog entry as data: which fields it shows (in the catalog's order,
 * with their widget), and its values. The Other tab's values are its JSON editor's object, so
 * the form and "Edit as JSON" always show the same input. Pure; no DOM.
 */
import {
  type FieldRule,
  type FieldWidget,
  type TaskTypeEntry,
  widgetOf,
} from '../../../../../shared/index.ts';

/** One field a generated form shows. */
export interface FormField {
  /** The input field (`guidance_scale`). */
  name: string;
  rule: FieldRule;
  widget: FieldWidget;
  /** The catalog example's value, shown as a text field's placeholder. */
  example: unknown;
}

/**
 * The fields a form shows for an entry, in the catalog's order: all but those whose widget is
 * `none`, those in `leaveOut` (a form's own source slot), and a field an aspect-ratio widget sets
 * together with its own (`height`).
 */
export function formFields(entry: TaskTypeEntry, leaveOut: readonly string[] = []): FormField[] {
  const rules = Object.entries(entry.input.fields);
  const setByOthers = new Set(
    rules.flatMap(([, rule]) => {
      const widget = widgetOf(rule);
      return widget.kind === 'aspect-ratio' ? [widget.height] : [];
    }),
  );
  return rules.flatMap(([name, rule]) => {
    const widget = widgetOf(rule);
    if (widget.kind === 'none' || leaveOut.includes(name) || setByOthers.has(name)) return [];
    return [{ name, rule, widget, example: entry.example[name] }];
  });
}

/**
 * A number field's text as the input takes it: undefined when empty, the number when it is one
 * of the rule's type, else the text itself (the catalog's check then says it must be a number).
 */
export function numberOfText(text: string, type: FieldRule['type']): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (type === 'integer' ? /^-?\d+$/.test(trimmed) : Number.isFinite(Number(trimmed))) return Number(trimmed);
  return trimmed;
}

/** A value as a text field shows it. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The JSON editor's object, or null while its text is not one. */
export function valuesOfJson(json: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The JSON with the fields of `patch` set (undefined removes one), keeping the others and their
 * order; null when the JSON is not an object to change.
 */
export function jsonWith(json: string, patch: Readonly<Record<string, unknown>>): string | null {
  const values = json.trim() === '' ? {} : valuesOfJson(json);
  if (!values) return null;
  const next: Record<string, unknown> = { ...values };
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) delete next[name];
    else next[name] = value;
  }
  return JSON.stringify(next, null, 2);
}

/** The size an aspect-ratio widget shows for a width and height: one of its sizes, or `custom`. */
export function sizeChoice(
  widget: Extract<FieldWidget, { kind: 'aspect-ratio' }>,
  width: unknown,
  height: unknown,
) {
  const index = widget.sizes.findIndex((s) => s.width === width && s.height === height);
  return index >= 0 ? String(index) : 'custom';
}
