/**
 * The Image, Video and 3D tabs as data (issue 19, item 2). Each tab is a list of catalog entries:
 * those that make its kind (a picture, a video, a 3D model), grouped by what they start from
 * (text, a picture, a video), each offered with its price. The entry chosen is shown by the
 * generic form; its media fields go in the tab's slots (one per media kind, checked at once like
 * every slot), its other values are kept as JSON, as the Other tab keeps them. A new entry that
 * makes one of these kinds appears in its tab with no code. Pure; no DOM, no bridge.
 */
import {
  type InputMediaKind,
  KIND_TAB_NAMES,
  type MediaFieldRule,
  mediaFieldsOfRules,
  type OutputKind,
  priceWords as rulePriceWords,
  TASK_TYPES,
  type TaskTypeEntry,
} from '../../../../shared/index.ts';
import { DEMO_NO_PRICE } from '../../model/money-text.ts';
import { formFields, valuesOfJson } from './catalog-form/form-fields.ts';
import type { ComposedInput, LocalProblem } from './compose-shapes.ts';
import { type SlotField, type SlotState, slotFilled, slotInput } from './compose-slots.ts';
import { PICTURE_TOOLS_MODEL } from './result-operations.ts';

export type KindTab = (typeof KIND_TAB_NAMES)[number];
export const KIND_TABS: readonly KindTab[] = KIND_TAB_NAMES;

/** What each tab makes. */
export const TAB_KIND: Record<KindTab, OutputKind> = { image: 'image', video: 'video', model3d: '3d' };

/** The entries the tab lists: they make its kind, have no hand-made tab, and the real service serves them. */
function entriesMaking(kind: OutputKind): readonly TaskTypeEntry[] {
  return TASK_TYPES.filter(
    (e) =>
      e.family === 'other' && !e.sandboxOnly && e.outputKind === kind && e.modelName !== PICTURE_TOOLS_MODEL,
  );
}

const TAB_ENTRIES: Record<KindTab, readonly TaskTypeEntry[]> = {
  image: entriesMaking('image'),
  video: entriesMaking('video'),
  model3d: entriesMaking('3d'),
};

export function isKindTab(tab: string): tab is KindTab {
  return (KIND_TABS as readonly string[]).includes(tab);
}

export function kindTabEntries(tab: KindTab): readonly TaskTypeEntry[] {
  return TAB_ENTRIES[tab];
}

/** The kind tab that lists an entry, if any. */
export function kindTabOfEntry(entryId: string): KindTab | undefined {
  return KIND_TABS.find((tab) => TAB_ENTRIES[tab].some((e) => e.id === entryId));
}

/** What an entry starts from: text, or the kind of its required media (a video before a picture: a face onto a video). */
export type EntrySource = 'text' | InputMediaKind;

export function sourceOf(entry: TaskTypeEntry): EntrySource {
  const required = mediaFieldsOfRules(entry.input).filter((m) => m.required);
  if (required.some((m) => m.kind === 'video')) return 'video';
  return required[0]?.kind ?? 'text';
}

const SOURCE_WORDS: Record<EntrySource, string> = {
  text: 'From text',
  image: 'From a picture',
  video: 'From a video',
  audio: 'From a sound',
};

export interface EntryGroup {
  source: EntrySource;
  label: string;
  entries: readonly TaskTypeEntry[];
}

/** The order of the groups: words first, then a picture, then a video. */
const SOURCE_ORDER: readonly EntrySource[] = ['text', 'image', 'video', 'audio'];

/** The tab's entries grouped by what they start from, each group in the catalog's order. */
export function entryGroups(tab: KindTab): EntryGroup[] {
  const entries = TAB_ENTRIES[tab];
  const sources = SOURCE_ORDER.filter((source) => entries.some((e) => sourceOf(e) === source));
  return sources.map((source) => ({
    source,
    label: SOURCE_WORDS[source],
    entries: entries.filter((e) => sourceOf(e) === source),
  }));
}

/**
 * An entry's price in words, or that none is published (Queue then asks first; in demo mode it
 * never asks: the Queue bar's words); a price by the output's size is the tier of the size in
 * `input` (the chosen entry's values), else its least.
 */
export function entryPriceWords(
  entry: TaskTypeEntry,
  input: Record<string, unknown> = {},
  demo = false,
): string {
  if (entry.price) return rulePriceWords(entry.price, input);
  return demo ? DEMO_NO_PRICE : 'price not published: asked first';
}

/** The model's part of an entry's label: `Image from text (Flux schnell)` -> `Flux schnell`. */
export function entryShortLabel(entry: TaskTypeEntry): string {
  return /\(([^)]+)\)\s*$/.exec(entry.label)?.[1] ?? entry.label;
}

/** Each tab's slot for a media field of each kind (the first such field of the entry). */
const KIND_SLOTS: Record<KindTab, Partial<Record<InputMediaKind, SlotField>>> = {
  image: { image: 'image_picture' },
  video: { image: 'video_picture', video: 'video_source' },
  model3d: { image: 'model3d_picture' },
};

export interface MediaSlotOfField {
  field: string;
  rule: MediaFieldRule;
  slot: SlotField;
}

/** The entry's media fields that the tab shows as slots: the first field of each kind with a slot. */
export function mediaSlotsOf(tab: KindTab, entry: TaskTypeEntry): MediaSlotOfField[] {
  const taken = new Set<InputMediaKind>();
  return mediaFieldsOfRules(entry.input).flatMap((rule) => {
    const slot = KIND_SLOTS[tab][rule.kind];
    if (!slot || taken.has(rule.kind)) return [];
    taken.add(rule.kind);
    return [{ field: rule.field, rule, slot }];
  });
}

/** The slot that shows an entry's media field in the tab, if one does. */
export function slotOfField(tab: KindTab, entry: TaskTypeEntry, field: string): SlotField | null {
  return mediaSlotsOf(tab, entry).find((m) => m.field === field)?.slot ?? null;
}

/** A kind tab's form: the entry chosen and its values (not its media: those are the tab's slots) as JSON. */
export interface KindForm {
  entryId: string;
  json: string;
}

/**
 * The entry each tab opens on: the first it lists (its first group's first entry, the cheapest
 * common choice from text), one rule for every tab (the 3D tab opened on a picture entry).
 */
function defaultEntryOf(tab: KindTab): TaskTypeEntry | undefined {
  return entryGroups(tab)[0]?.entries[0];
}

/** The tab's entry for a form: the one it names when the tab lists it, else the tab's default. */
export function kindEntryOf(tab: KindTab, form: KindForm): TaskTypeEntry | undefined {
  return TAB_ENTRIES[tab].find((e) => e.id === form.entryId) ?? defaultEntryOf(tab);
}

/** The names of an entry's media fields (their values live in slots, never in the JSON). */
function mediaNames(entry: TaskTypeEntry): Set<string> {
  return new Set(mediaFieldsOfRules(entry.input).map((m) => m.field));
}

/** The entry's example without its media fields, as the form's JSON. */
function exampleJson(entry: TaskTypeEntry): string {
  const media = mediaNames(entry);
  return JSON.stringify(
    Object.fromEntries(Object.entries(entry.example).filter(([k]) => !media.has(k))),
    null,
    2,
  );
}

export function emptyKindForm(tab: KindTab): KindForm {
  const entry = defaultEntryOf(tab);
  return { entryId: entry?.id ?? '', json: entry ? exampleJson(entry) : '{}' };
}

export function emptyKindForms(): Record<KindTab, KindForm> {
  return { image: emptyKindForm('image'), video: emptyKindForm('video'), model3d: emptyKindForm('model3d') };
}

/**
 * The form once another entry is chosen: its example, with the values typed so far kept for the
 * fields the new entry has too (a prompt written for Flux schnell stays for Flux dev).
 */
export function withEntry(form: KindForm, entry: TaskTypeEntry): KindForm {
  const typed = valuesOfJson(form.json) ?? {};
  const fields = new Set(Object.keys(entry.input.fields));
  const media = mediaNames(entry);
  const example = valuesOfJson(exampleJson(entry)) ?? {};
  const kept = Object.fromEntries(
    Object.entries(typed).filter(([name, value]) => fields.has(name) && !media.has(name) && value !== ''),
  );
  return { entryId: entry.id, json: JSON.stringify({ ...example, ...kept }, null, 2) };
}

/** The model, task type and input a kind tab gives: its values, and each media field from its slot. */
export function kindTabInput(
  tab: KindTab,
  form: KindForm,
  slots: Readonly<Record<SlotField, SlotState>>,
): ComposedInput {
  const entry = kindEntryOf(tab, form);
  const local: LocalProblem[] = [];
  if (!entry) {
    local.push({ field: 'entry', message: 'Choose what to make' });
    return { model: '', taskType: '', input: {}, local, readable: false };
  }
  const values = valuesOfJson(form.json.trim() === '' ? '{}' : form.json);
  if (!values)
    local.push({ field: 'entry', message: 'The values of this form could not be read: choose it again' });
  const media = mediaNames(entry);
  const input: Record<string, unknown> = Object.fromEntries(
    Object.entries(values ?? {}).filter(([name]) => !media.has(name)),
  );
  for (const { field, slot } of mediaSlotsOf(tab, entry)) {
    if (slotFilled(slots[slot])) input[field] = slotInput(slots[slot]);
  }
  return { model: entry.modelName, taskType: entry.taskType, input, local, readable: values !== null };
}

/** The tab's fields in screen order: the choice of entry, its slots, then its other fields. */
export function kindFieldOrder(tab: KindTab, form: KindForm): string[] {
  const entry = kindEntryOf(tab, form);
  if (!entry) return ['entry'];
  const slots = mediaSlotsOf(tab, entry);
  const fields = formFields(entry)
    .map((f) => f.name)
    .filter((name) => !slots.some((s) => s.field === name));
  return ['entry', ...slots.map((s) => s.slot), ...fields];
}
