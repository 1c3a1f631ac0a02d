/**
 * Compare any two to four results of one kind (issue 22, item 5), opened from the library's
 * selection toolbar: which tasks are compared (null: the gallery shows), and the rule that says
 * whether a selection can be compared, or why not in words. The rule is pure (unit-tested); the
 * view is CompareView.tsx.
 */
import { create } from 'zustand';
import type { OutputKind } from '../../../../shared/index.ts';
import { KIND_PLURALS } from '../../../../shared/task/retention.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import { mainOutput, pictureNotShown } from '../library/task-media.ts';

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/** The kinds Compare shows, with their plural for its words (as the library's size line says them). */
export const COMPARED_KINDS: Readonly<Partial<Record<OutputKind, string>>> = {
  image: KIND_PLURALS.image,
  audio: KIND_PLURALS.audio,
  video: KIND_PLURALS.video,
};

/** A kind's plural in Compare's words: "3D models", "other files". */
const pluralOf = (kind: OutputKind) => (kind === 'file' ? 'other files' : KIND_PLURALS[kind]);

export type CompareCheck = { ok: true; kind: OutputKind } | { ok: false; why: string };

/**
 * Whether these selected tasks can be compared: 2 to 4 picked by hand (not Select all), each with
 * a saved result, all of one kind Compare shows. `tasks` holds the loaded ones (undefined: not
 * loaded, which a selection by hand never has).
 */
export function compareCheck(
  count: number,
  allMatching: boolean,
  tasks: readonly (LoadedTask | undefined)[],
): CompareCheck {
  if (allMatching) return { ok: false, why: 'Compare takes 2 to 4 results ticked by hand, not Select all' };
  if (count < COMPARE_MIN) return { ok: false, why: 'Tick 2 to 4 results to compare them' };
  if (count > COMPARE_MAX)
    return { ok: false, why: `Compare takes at most 4 results; ${count} are selected` };
  const kinds = new Set<OutputKind>();
  for (const task of tasks) {
    const output = task ? mainOutput(task) : null;
    if (!task || output?.state !== 'saved' || !output.path)
      return { ok: false, why: `“${task?.title ?? 'A task'}” has no saved result to compare` };
    if (pictureNotShown(output) !== null)
      return { ok: false, why: `“${task.title}” is too large to show here` };
    kinds.add(output.kind);
  }
  const [kind] = kinds;
  if (kinds.size > 1 || kind === undefined) {
    const names = [...kinds].map(pluralOf);
    return { ok: false, why: `Compare results of one kind: these are ${names.join(' and ')}` };
  }
  if (!COMPARED_KINDS[kind]) return { ok: false, why: 'Compare shows pictures, songs and videos' };
  return { ok: true, kind };
}

/** The song switch's hint before a song is heard (2 to 4 songs, lettered A to D). */
export function songSwitchHint(count: number): string {
  const letters = ['A', 'B', 'C', 'D'].slice(0, Math.max(2, Math.min(COMPARE_MAX, count)));
  const last = letters.pop();
  const rest = letters.length === 1 ? 'the other starts' : 'the others start';
  return `Choose ${letters.join(', ')} or ${last}: ${rest} where this one is.`;
}

export interface CompareState {
  /** The compared tasks, in the order they were ticked; empty: the gallery shows. */
  taskIds: string[];
  kind: OutputKind | null;
  open(ids: readonly string[], kind: OutputKind): void;
  close(): void;
}

export const useCompare = create<CompareState>()((set) => ({
  taskIds: [],
  kind: null,
  open: (ids, kind) => set({ taskIds: [...ids], kind }),
  close: () => set({ taskIds: [], kind: null }),
}));
