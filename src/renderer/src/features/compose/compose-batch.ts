/**
 * Many tasks from one form, queued as one batch: variations (N copies of the tab's task; an image
 * edit sweeps its seed from the one given, or from a random start), extra pictures (the face
 * swap's targets: one task per target, the same face; the From a result tab's picture: one
 * upscale, background removal… per picture), and the Song tab's lyrics split at lines holding
 * only `---` (one song per part). Pure; the batch's state lives in the compose state.
 */
import { catalogEntry, estimateCost, outputRefOf, type TaskDraft } from '../../../../shared/index.ts';
import { buildDraft, type ComposeForms, type ComposeTab, perTab, randomSeed } from './compose-model.ts';
import { type SlotState, slotInput } from './compose-slots.ts';
import { expandPromptLists } from './prompt-list-plan.ts';
import { resultSlotOf, sourceFieldOf, sourceKindOf } from './result-operations.ts';

/** The slots that take many pictures at once: each extra picture is one more task. */
export const MULTI_SLOTS = ['target_image', 'source_image'] as const;
export type MultiSlot = (typeof MULTI_SLOTS)[number];

export function isMultiSlot(field: string): field is MultiSlot {
  return (MULTI_SLOTS as readonly string[]).includes(field);
}

export const MAX_VARIATIONS = 20;

/** What makes a tab's Queue send more than one task. */
export interface BatchForm {
  /** Copies of each task, per tab (1..MAX_VARIATIONS). */
  variations: Record<ComposeTab, number>;
  /** The Song tab: one song per part of the lyrics (split at `---` lines). */
  songSplit: boolean;
  /**
   * Pictures after the one in the slot, each checked like it: the face swap's targets, the From
   * a result tab's picture (its picture operations).
   */
  extra: Record<MultiSlot, SlotState[]>;
  /** The first seed of an image edit's variations when the form gives none. */
  seedStart: number;
  /** Per tab: "One task per line" of the prompt (prompt-list-plan.ts); off when absent. */
  promptLines?: Partial<Record<ComposeTab, boolean>>;
}

export function emptyBatch(random: () => number = Math.random): BatchForm {
  return {
    variations: perTab(1),
    songSplit: false,
    extra: { target_image: [], source_image: [] },
    seedStart: randomSeed(random),
  };
}

export function clampVariations(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(MAX_VARIATIONS, Math.max(1, Math.round(value)));
}

/** A line holding only `---` ends one song's lyrics and starts the next. */
const PART_LINE = /^[ \t]*---[ \t]*$/m;

/** The lyrics' parts, blank ones left out. */
export function lyricsParts(lyrics: string): string[] {
  return lyrics
    .split(PART_LINE)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export type BatchPlan =
  | {
      ok: true;
      drafts: TaskDraft[];
      /** How many tasks each variation set has (targets or lyrics parts; 1 for a single task). */
      entries: number;
      variations: number;
      /** The image edit's seeds, first and last, when they are swept. */
      seeds: { first: number; last: number; random: boolean } | null;
      /** The sum of the estimates in micro-dollars; null when any price is unknown. */
      micros: number | null;
    }
  | {
      ok: false;
      field: string;
      message: string;
      /** A prompt list that is not queued as written (it cannot be read, or makes over 100). */
      list?: true;
      /** Only waiting: a picture still being checked. */
      pending?: true;
    };

function pictureProblem(slot: SlotState, number: number, word: string): string | null {
  if (slot.status === 'checking') return `${word} ${number} (${slot.label}) is still being checked`;
  if (slot.status === 'bad') return `${word} ${number} (${slot.label}): ${slot.message ?? 'cannot be used'}`;
  return null;
}

/** A draft keeps its parent only while one of its inputs is still that parent's result (or a re-run). */
function withOwnParent(draft: TaskDraft): TaskDraft {
  if (!draft.parentId || draft.parentOutput === null || draft.parentOutput === undefined) return draft;
  const used = Object.values(draft.input).some((v) => outputRefOf(v)?.taskId === draft.parentId);
  if (used) return draft;
  const { parentId: _id, parentOutput: _output, ...rest } = draft;
  return rest;
}

/** The slot of `tab` whose extra pictures make more tasks, and the input field they go to. */
function multiSlotOf(
  tab: ComposeTab,
  forms: ComposeForms,
): { slot: MultiSlot; field: string; word: string } | null {
  if (tab === 'faceSwap') return { slot: 'target_image', field: 'target_image', word: 'Target' };
  const operation =
    tab === 'fromResult' ? forms.fromResult.operation : tab === 'pictures' ? forms.fromResult.tool : null;
  if (operation !== null && sourceKindOf(operation) === 'image') {
    const slot = resultSlotOf(operation);
    if (isMultiSlot(slot)) return { slot, field: sourceFieldOf(operation), word: 'Picture' };
  }
  return null;
}

/** Every draft the tab's Queue sends, in order, or the first reason it cannot. */
export function planBatch(tab: ComposeTab, forms: ComposeForms, batch: BatchForm): BatchPlan {
  const built = buildDraft(tab, forms);
  if (!built.ok) return { ok: false, field: built.field, message: built.message };
  const base = built.draft;
  let entries: TaskDraft[] = [base];
  const multi = multiSlotOf(tab, forms);
  const extra = multi ? batch.extra[multi.slot] : [];
  if (multi && extra.length > 0) {
    for (const [i, slot] of extra.entries()) {
      const problem = pictureProblem(slot, i + 2, multi.word);
      if (problem) {
        const pending = slot.status === 'checking' ? { pending: true as const } : {};
        return { ok: false, field: multi.slot, message: problem, ...pending };
      }
    }
    const pictures = [forms.slots[multi.slot], ...extra];
    entries = pictures.map((slot) =>
      withOwnParent({ ...base, input: { ...base.input, [multi.field]: slotInput(slot) } }),
    );
  }
  if (tab === 'song' && batch.songSplit) {
    const parts = lyricsParts(forms.song.lyrics);
    if (parts.length > 0) entries = parts.map((lyrics) => ({ ...base, input: { ...base.input, lyrics } }));
  }
  // a tool that gives the same result for the same input (an upscale) makes no variations
  const deterministic = catalogEntry(base.model, base.taskType)?.deterministic === true;
  const variations = deterministic ? 1 : clampVariations(batch.variations[tab]);
  const drafts: TaskDraft[] = [];
  let seeds: { first: number; last: number; random: boolean } | null = null;
  if (tab === 'imageEdit' && variations > 1) {
    const given = typeof base.input.seed === 'number' ? base.input.seed : null;
    const first = given ?? batch.seedStart;
    seeds = { first, last: first + variations - 1, random: given === null };
  }
  for (const entry of entries) {
    for (let i = 0; i < variations; i++) {
      drafts.push(seeds ? { ...entry, input: { ...entry.input, seed: seeds.first + i } } : entry);
    }
  }
  // prompt lists: alternatives {a|b} in a text field, and one task per line of the prompt
  const listed = expandPromptLists(drafts, batch.promptLines?.[tab] === true);
  if (!listed.ok) return listed;
  const perEntry = listed.drafts.length / Math.max(1, entries.length * variations);
  drafts.splice(0, drafts.length, ...listed.drafts);
  let micros: number | null = 0;
  for (const draft of drafts) {
    const cost = estimateCost({ model: draft.model, task_type: draft.taskType, input: draft.input }).micros;
    micros = micros === null || cost === null ? null : micros + cost;
  }
  return { ok: true, drafts, entries: entries.length * perEntry, variations, seeds, micros };
}

/** The Queue button's words: "Queue", "Queue 4 variations", "Queue 12 tasks". */
export function queueLabel(plan: BatchPlan | null): string {
  if (!plan?.ok || plan.drafts.length <= 1) return 'Queue';
  if (plan.entries === 1) return `Queue ${plan.variations} variations`;
  return `Queue ${plan.drafts.length} tasks`;
}
