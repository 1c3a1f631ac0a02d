/**
 * Retention (issue 22, item 4): the user's rules for moving old results to Recently deleted
 * ("keep favourites and boards; move the rest older than N days"), what a run of them would move
 * (its preview) or did, and the library's size on disk by kind. Nothing is moved until the user
 * switches the rules on; a run only ever moves to Recently deleted (kept there with its files for
 * TRASH_DAYS), never a task still running, uncertain or not saved yet.
 */
import { z } from 'zod';
import { MAKES_FILTER_KINDS } from '../catalog/entry-lookup.ts';
import { MEDIA_KINDS, type MediaKind } from '../media/media-kinds.ts';
import { countWord } from './task-count-words.ts';

export const RetentionRulesSchema = z.strictObject({
  /** Off until the user switches the rules on (after seeing their preview). */
  enabled: z.boolean(),
  /** A task made more than this many days ago goes, unless a rule below keeps it. */
  olderThanDays: z.number().int().min(1).max(3650),
  keepFavorites: z.boolean(),
  /** A task on any board stays. */
  keepBoards: z.boolean(),
  /** A task whose result another task was made from (its parent with an output used) stays. */
  keepUsedAsInputs: z.boolean(),
  /** Tasks that make these kinds stay (what the library's Makes filter groups). */
  keepKinds: z.array(z.enum(MAKES_FILTER_KINDS)).max(MAKES_FILTER_KINDS.length),
});
export type RetentionRules = z.infer<typeof RetentionRulesSchema>;

export const DEFAULT_RETENTION_RULES: Readonly<RetentionRules> = Object.freeze({
  enabled: false,
  olderThanDays: 90,
  keepFavorites: true,
  keepBoards: true,
  keepUsedAsInputs: true,
  keepKinds: [],
});

/** How often the rules run while the app (or `media-task watch`) is open. */
export const RETENTION_EVERY_MS = 86_400_000;

/** Tasks and bytes of one media kind (what a task makes; a result's file for sizes). */
export interface KindAmount {
  kind: MediaKind;
  tasks: number;
  bytes: number;
}

/** What the rules would move now (a preview) or moved (a run). */
export interface RetentionOutcome {
  /** Tasks made before this time (ISO) were looked at. */
  before: string;
  tasks: number;
  /** The bytes of their saved results, freed once they leave Recently deleted. */
  bytes: number;
  /** By what each task makes, in MEDIA_KINDS order, kinds with no task left out. */
  byKind: KindAmount[];
  /** A run's deletedAt (restores all it moved at once); absent for a preview. */
  deletedAt?: string;
  /**
   * A preview that stopped after the oldest tasks (a page's time at a million tasks): more may go,
   * so its figures are "at least". Absent when it looked at every task.
   */
  atLeast?: true;
  /** With atLeast: how many of the oldest tasks (made before `before`) it looked at. */
  looked?: number;
}

/**
 * A run under way, as the engine's status tells it while the run goes on (null otherwise): its
 * deletedAt (Undo takes back all it moved) and what it has moved so far.
 */
export interface RetentionRunProgress {
  deletedAt: string;
  tasks: number;
  bytes: number;
}

/** The rules as kept, with the last run's outcome (null before the first). */
export interface RetentionView {
  rules: RetentionRules;
  lastRun: (RetentionOutcome & { at: string }) | null;
}

/** The saved results' files of the library by kind, from the sizes recorded when each was saved. */
export interface LibrarySize {
  /** Every kind in MEDIA_KINDS order (`file` is "other"), with `tasks` meaning files here. */
  byKind: KindAmount[];
  bytes: number;
  /** Of `bytes`, what the tasks in Recently deleted hold. */
  trashedBytes: number;
}

/** A kind's plural name in the library's size line and a retention preview. */
export const KIND_PLURALS: Readonly<Record<MediaKind, string>> = {
  image: 'pictures',
  audio: 'songs',
  video: 'videos',
  '3d': '3D models',
  file: 'other',
};

/** Bytes as a person reads them: `0 bytes`, `12 KB`, `3.4 MB`, `1.25 GB`. */
export function diskSizeText(bytes: number): string {
  const kb = 1024;
  if (bytes < kb) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < kb * kb) return `${Math.round(bytes / kb)} KB`;
  if (bytes < kb * kb * kb) return `${(bytes / (kb * kb)).toFixed(1)} MB`;
  return `${(bytes / (kb * kb * kb)).toFixed(2)} GB`;
}

/** "12 pictures, 3 songs" for the kinds of an outcome (tasks), in MEDIA_KINDS order. */
export function kindCountsText(byKind: readonly KindAmount[]): string {
  const parts = MEDIA_KINDS.flatMap((kind) => {
    const n = byKind.find((k) => k.kind === kind)?.tasks ?? 0;
    if (n === 0) return [];
    const plural = KIND_PLURALS[kind];
    return [
      kind === 'file' ? countWord(n, 'other', 'other') : countWord(n, plural.replace(/s$/, ''), plural),
    ];
  });
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}

/**
 * What a preview that found nothing to move says, in the window and the CLI alike. A preview that
 * stopped at the oldest tasks (`atLeast`: the window's, to answer at once) knows nothing of the
 * newer ones, so it says only what it looked at.
 */
export function nothingToMoveText(preview: Pick<RetentionOutcome, 'atLeast' | 'looked'>): string {
  if (preview.atLeast)
    return `A run now would move nothing of the ${preview.looked === undefined ? '' : `${preview.looked.toLocaleString('en-US')} `}oldest tasks it looked at.`;
  return 'A run now would move nothing: no ended task is that old and left by the keep rules.';
}

/**
 * What the rules do with a task taken back out of Recently deleted (a restore says the user wants
 * it): its days count from its last restore, so the next run keeps it.
 */
export const RESTORED_RULE_TEXT =
  'A task restored from Recently deleted counts its days from its restore, not from when it was made';

/** The rules in one sentence: "Move tasks older than 90 days, except favourites and tasks on a board". */
export function retentionRulesText(rules: RetentionRules): string {
  const kept = [
    rules.keepFavorites ? 'favourites' : null,
    rules.keepBoards ? 'tasks on a board' : null,
    rules.keepUsedAsInputs ? 'results used by another task' : null,
    ...rules.keepKinds.map((k) => KIND_PLURALS[k]),
  ].filter((k) => k !== null);
  const except = kept.length > 0 ? `, except ${kept.join(', ').replace(/, ([^,]*)$/, ' and $1')}` : '';
  return `Move tasks older than ${rules.olderThanDays} day${rules.olderThanDays === 1 ? '' : 's'} to Recently deleted${except}`;
}
