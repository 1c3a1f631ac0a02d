/**
 * Many tasks from one form, queued as one batch: variations (N copies of the tab's task; an image
 * edit sweeps its seed from the one given, or from a random start), the face swap's extra targets
 * (one task per target picture, the same face), and the Song tab's lyrics split at lines holding
 * only `---` (one song per part). Pure; the batch's state lives in the compose store.
 */
import { estimateCost, type TaskDraft } from '../../../../shared/index.ts';
import { buildDraft, type ComposeForms, type ComposeTab, randomSeed } from './compose-model.ts';
import { type SlotState, slotInput } from './compose-slots.ts';

export const MAX_VARIATIONS = 20;

/** What makes a tab's Queue send more than one task. */
export interface BatchForm {
  /** Copies of each task, per tab (1..MAX_VARIATIONS). */
  variations: Record<ComposeTab, number>;
  /** The Song tab: one song per part of the lyrics (split at `---` lines). */
  songSplit: boolean;
  /** The Face swap tab: targets after the one in the target slot, each checked like it. */
  extraTargets: SlotState[];
  /** The first seed of an image edit's variations when the form gives none. */
  seedStart: number;
}

export function emptyBatch(random: () => number = Math.random): BatchForm {
  return {
    variations: { song: 1, faceSwap: 1, imageEdit: 1, fromResult: 1, other: 1 },
    songSplit: false,
    extraTargets: [],
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
  | { ok: false; field: string; message: string };

function targetProblem(slot: SlotState, number: number): string | null {
  if (slot.status === 'checking') return `Target ${number} (${slot.label}) is still being checked`;
  if (slot.status === 'bad') return `Target ${number} (${slot.label}): ${slot.message ?? 'cannot be used'}`;
  return null;
}

/** Every draft the tab's Queue sends, in order, or the first reason it cannot. */
export function planBatch(tab: ComposeTab, forms: ComposeForms, batch: BatchForm): BatchPlan {
  const built = buildDraft(tab, forms);
  if (!built.ok) return { ok: false, field: built.field, message: built.message };
  const base = built.draft;
  let entries: TaskDraft[] = [base];
  if (tab === 'faceSwap' && batch.extraTargets.length > 0) {
    for (const [i, slot] of batch.extraTargets.entries()) {
      const problem = targetProblem(slot, i + 2);
      if (problem) return { ok: false, field: 'target_image', message: problem };
    }
    const targets = [forms.slots.target_image, ...batch.extraTargets];
    entries = targets.map((slot) => ({ ...base, input: { ...base.input, target_image: slotInput(slot) } }));
  }
  if (tab === 'song' && batch.songSplit) {
    const parts = lyricsParts(forms.song.lyrics);
    if (parts.length > 0) entries = parts.map((lyrics) => ({ ...base, input: { ...base.input, lyrics } }));
  }
  const variations = clampVariations(batch.variations[tab]);
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
  let micros: number | null = 0;
  for (const draft of drafts) {
    const cost = estimateCost({ model: draft.model, task_type: draft.taskType, input: draft.input }).micros;
    micros = micros === null || cost === null ? null : micros + cost;
  }
  return { ok: true, drafts, entries: entries.length, variations, seeds, micros };
}

/** The Queue button's words: "Queue", "Queue 4 variations", "Queue 12 tasks". */
export function queueLabel(plan: BatchPlan | null): string {
  if (!plan?.ok || plan.drafts.length <= 1) return 'Queue';
  if (plan.entries === 1) return `Queue ${plan.variations} variations`;
  return `Queue ${plan.drafts.length} tasks`;
}
