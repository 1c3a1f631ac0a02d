/**
 * The live check of a composer tab: every problem of its form at once, in plain words, in the
 * order the fields appear on screen. The rules are the catalog's (`inputProblems` on the input
 * the form gives, with the task type's rules) plus what the form itself knows: a slot still
 * being checked or refused, malformed lyrics markers, a webhook that is not a web address.
 * Pure; no DOM.
 */
import {
  catalogEntry,
  type InputProblem,
  inputProblems,
  isHttpUrl,
  keyedProblemWords,
  modelIdProblem,
  problemWords,
  type TaskTypeEntry,
} from '../../../../shared/index.ts';
import { type ComposeForms, composeInput } from './compose-model.ts';
import type { ComposedInput, ComposeTab, FieldProblem } from './compose-shapes.ts';
import { type SlotField, slotProblem, TAB_SLOTS } from './compose-slots.ts';
import { isKindTab, type KindTab, kindEntryOf, kindFieldOrder, mediaSlotsOf } from './kind-tabs.ts';
import { findLyricsProblems } from './lyrics-markers.ts';
import { inputForCheck } from './output-ref.ts';
import { promptListProblem } from './prompt-list-plan.ts';
import {
  entryOf,
  type ResultOperation,
  resultFieldOrder,
  resultFields,
  resultSlotOf,
  sourceFieldOf,
} from './result-operations.ts';

export type { FieldProblem } from './compose-shapes.ts';

/** Each tab's fields in screen order (the first problem in this order is focused on Queue). */
const FIELD_ORDER: Record<ComposeTab, readonly string[]> = {
  song: ['style_prompt', 'negative_prompt', 'lyrics', 'lyrics-markers', 'duration', 'style_audio'],
  faceSwap: ['target_image', 'swap_image', 'target_faces_index', 'swap_faces_index'],
  imageEdit: ['image1', 'image2', 'image3', 'prompt', 'negative_prompt', 'seed', 'steps', 'flow_shift'],
  // the operation (the tool) chosen decides (resultFieldOrder)
  fromResult: [],
  pictures: [],
  // the entry chosen decides (kindFieldOrder)
  image: [],
  video: [],
  model3d: [],
  other: ['model', 'task_type', 'model_id', 'input'],
};
const COMMON_ORDER = ['title', 'webhook_config.endpoint', 'webhook_config.secret'];

/** A catalog problem of a form field, in the field's words (the catalog's label). */
function formProblem(p: InputProblem, entry: TaskTypeEntry): FieldProblem {
  const kind = p.reason?.kind ?? 'rule';
  return problem(p.field, problemWords(p, entry.input.fields[p.field]), kind === 'required');
}

/**
 * A catalog problem of the From a result tab, in its field's words; a problem of its source
 * field (`audio`, `image`…) belongs to the tab's slot that holds it ("Add the song to extend").
 */
function resultProblem(p: InputProblem, operation: ResultOperation): FieldProblem {
  const required = p.reason?.kind === 'required';
  const message = problemWords(p, entryOf(operation).input.fields[p.field]);
  const source = p.field === sourceFieldOf(operation);
  return problem(source ? resultSlotOf(operation) : p.field, message, required);
}

/** A catalog problem of a kind tab, in its field's words; a media field's belongs to the slot that holds it. */
function kindProblem(p: InputProblem, tab: KindTab, entry: TaskTypeEntry): FieldProblem {
  const media = mediaSlotsOf(tab, entry).find((m) => m.field === p.field);
  if (!media) return formProblem(p, entry);
  const message = problemWords(p, entry.input.fields[p.field]);
  return problem(media.slot, message, p.reason?.kind === 'required');
}

/**
 * A problem of a key of the Other tab's JSON: a key the catalog has a rule for is said as the
 * engine says it (`prompt: Prompt must be text`, what `create raw` prints); the editor's own
 * words only name a key the catalog does not know.
 */
function jsonWords(p: InputProblem, entry: TaskTypeEntry): string {
  const rule = entry.input.fields[p.field];
  if (rule) return keyedProblemWords(p, rule);
  const reason = p.reason;
  if (reason?.kind === 'unknown-field')
    return `"${p.field}" is not a field of ${entry.label} (its fields: ${reason.known.join(', ')})`;
  return problemWords(p, undefined);
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function problem(field: string, message: string, missing = false, summary = message): FieldProblem {
  return { field, message, summary, missing, pending: false };
}

/**
 * Malformed markers in a lyrics field, as one problem of `<field>-markers` (`lyrics-markers`); a
 * tag the service does not know is only a warning beside the lyrics, sent as written.
 */
function lyricsMarkerProblem(lyrics: string, field = 'lyrics', label = 'lyrics'): FieldProblem | null {
  const blocking = findLyricsProblems(lyrics).filter((p) => p.blocking);
  const lines = [...new Set(blocking.map((p) => p.line))];
  if (lines.length === 0) return null;
  const where =
    lines.length === 1
      ? `line ${lines[0]}`
      : `lines ${lines.slice(0, -1).join(', ')} and ${lines[lines.length - 1]}`;
  const message = `Fix the ${label} ${lines.length === 1 ? 'marker' : 'markers'} on ${where}`;
  return problem(`${field}-markers`, message);
}

/** The operation a tab of operations shows: the From a result tab's, or the Picture tools tab's tool. */
function operationOfTab(tab: ComposeTab, forms: ComposeForms): ResultOperation | null {
  if (tab === 'fromResult') return forms.fromResult.operation;
  return tab === 'pictures' ? forms.fromResult.tool : null;
}

/** The From a result tab's lyrics fields' marker problems. */
function resultMarkerProblems(forms: ComposeForms): FieldProblem[] {
  const { operation } = forms.fromResult;
  const values = forms.fromResult.values[operation] ?? {};
  return resultFields(operation).flatMap(({ field, kind }) => {
    const text = values[field];
    if (kind !== 'lyrics' || typeof text !== 'string') return [];
    // an edit has the song's lyrics and its new lyrics
    const found = lyricsMarkerProblem(text, field, field === 'lyrics' ? 'lyrics' : 'new lyrics');
    return found ? [found] : [];
  });
}

function commonProblems(tab: ComposeTab, forms: ComposeForms): FieldProblem[] {
  const endpoint = forms.common[tab].webhookEndpoint.trim();
  if (endpoint === '' || isHttpUrl(endpoint)) return [];
  return [
    problem('webhook_config.endpoint', 'Webhook endpoint must be a web address starting with https://'),
  ];
}

function otherProblems(forms: ComposeForms, input: Record<string, unknown>): FieldProblem[] {
  const found: FieldProblem[] = [];
  const modelId = forms.other.modelId.trim();
  if (modelId.includes('/')) {
    const wrong = modelIdProblem(modelId);
    if (wrong) found.push(problem('model_id', sentence(wrong), false, `Model id: ${wrong}`));
  }
  const entry = catalogEntry(forms.other.model, forms.other.taskType);
  if (entry) {
    // the generated form says a problem in the field's words, the JSON editor names the key
    const asForm = forms.other.view !== 'json';
    for (const p of inputProblems(inputForCheck(input, entry.input), entry.input, '')) {
      const rule = entry.input.fields[p.field];
      const message = asForm && rule ? problemWords(p, rule) : jsonWords(p, entry);
      const missing = asForm && p.reason?.kind === 'required';
      // a key the catalog knows is named by the message itself; an unknown one is the input's
      found.push(problem(`input.${p.field}`, message, missing, rule ? message : `Input: ${message}`));
    }
  }
  return found;
}

/** Where a field comes in its tab's screen order (unknown fields last, in their own order). */
function orderOf(order: readonly string[], field: string): number {
  const own = order.indexOf(field.startsWith('input.') ? 'input' : field);
  if (own >= 0) return own;
  const common = COMMON_ORDER.indexOf(field);
  return common >= 0 ? 100 + common : 50;
}

/**
 * Every problem of a tab's form right now, in screen order; an empty list when it can be queued.
 * `composed` is what `composeInput` gives for the same form, when the caller has it already.
 */
export function formProblems(
  tab: ComposeTab,
  forms: ComposeForms,
  composed: ComposedInput = composeInput(tab, forms),
  options: { lines?: boolean } = {},
): FieldProblem[] {
  const found: FieldProblem[] = [];
  const operation = operationOfTab(tab, forms);
  // the From a result tab shows the slot of the operation chosen; the other one waits unseen
  const kindEntry = isKindTab(tab) ? kindEntryOf(tab, forms.kinds[tab]) : undefined;
  const slots: readonly SlotField[] =
    operation !== null
      ? [resultSlotOf(operation)]
      : isKindTab(tab)
        ? kindEntry
          ? mediaSlotsOf(tab, kindEntry).map((m) => m.slot)
          : []
        : TAB_SLOTS[tab];
  for (const field of slots) {
    const slot = slotProblem(tab, field, forms.slots[field]);
    if (slot) found.push(slot);
  }
  for (const local of composed.local) {
    const summary = local.field === 'input' ? `Input: ${local.message}` : local.message;
    found.push(problem(local.field, local.message, local.missing ?? false, summary));
  }
  if (tab === 'other') {
    if (composed.readable) found.push(...otherProblems(forms, composed.input));
  } else {
    const entry = catalogEntry(composed.model, composed.taskType);
    const problems = entry ? inputProblems(inputForCheck(composed.input, entry.input), entry.input, '') : [];
    for (const p of problems) {
      if (entry && isKindTab(tab)) found.push(kindProblem(p, tab, entry));
      else if (operation !== null) found.push(resultProblem(p, operation));
      else if (entry) found.push(formProblem(p, entry));
    }
  }
  // a prompt list that cannot be read or makes over 100, at its field (issue 22 review, item 7)
  const list = composed.readable ? promptListProblem(composed, options.lines === true) : null;
  if (list) {
    const field = tab === 'other' ? `input.${list.field}` : list.field;
    found.push(problem(field, list.message));
  }
  if (tab === 'song') {
    const markers = lyricsMarkerProblem(forms.song.lyrics);
    if (markers) found.push(markers);
  }
  if (tab === 'fromResult') found.push(...resultMarkerProblems(forms));
  found.push(...commonProblems(tab, forms));
  // One problem per field, the first found: a refused slot says more than "is needed".
  const seen = new Set<string>();
  const unique = found.filter((p) => !seen.has(p.field) && seen.add(p.field));
  const order =
    operation !== null
      ? resultFieldOrder(operation)
      : isKindTab(tab)
        ? kindFieldOrder(tab, forms.kinds[tab])
        : FIELD_ORDER[tab];
  return unique
    .map((p, index) => ({ p, index }))
    .sort((a, b) => orderOf(order, a.p.field) - orderOf(order, b.p.field) || a.index - b.index)
    .map(({ p }) => p);
}

/**
 * The problems a tab shows beside its fields, by field: all of them after a Queue attempt;
 * before it, none about a value not given yet in a field nobody has touched.
 */
export function shownProblems(
  problems: readonly FieldProblem[],
  touched: Readonly<Record<string, true>>,
  attempted: boolean,
): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const p of problems) {
    if (!p.pending && (attempted || !p.missing || touched[p.field])) shown[p.field] = p.message;
  }
  return shown;
}

/** The Queue bar's line when a tab cannot be queued yet. */
export function queueSummary(problems: readonly FieldProblem[]): string | null {
  const first = problems.find((p) => !p.pending) ?? problems[0];
  if (!first) return null;
  if (first.pending) return first.summary;
  const rest = problems.filter((p) => !p.pending).length - 1;
  return `Not ready: ${first.summary}${rest > 0 ? ` (and ${rest} more to fix)` : ''}`;
}
