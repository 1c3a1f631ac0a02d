/**
 * Retention's reading side (issue 22, item 4): the rules as kept and the last run, what the rules
 * would move now (by kind, and the bytes it frees), and the library's size by kind. It only reads
 * the library, so the engine's retention (retention-actions.ts, which runs the rules) and a library
 * opened only to read beside the app (library-reading.ts) answer with this one code.
 */
import { entryOfTask, MEDIA_KINDS, type MediaKind, type TaskFamily } from '../../../shared/index.ts';
import {
  DEFAULT_RETENTION_RULES,
  type KindAmount,
  type LibrarySize,
  type RetentionOutcome,
  type RetentionRules,
  RetentionRulesSchema,
  type RetentionView,
} from '../../../shared/task/retention.ts';
import type { RetentionCandidate } from '../../store/index.ts';
import type { ReadingContext } from '../engine-context.ts';

export const RULES_SETTING = 'retention.rules';
export const LAST_RUN_SETTING = 'retention.lastRun';
const DAY_MS = 86_400_000;
/** Tasks a preview looks at in one read when it looks at all of them (the CLI's). */
const PREVIEW_WINDOW = 5_000;

/** What a task of a family the catalog does not know makes. */
const FAMILY_KINDS: Readonly<Record<TaskFamily, MediaKind>> = {
  song: 'audio',
  'face-swap': 'image',
  'image-edit': 'image',
  other: 'file',
};

/** What a task makes: its catalog entry's output kind, else its family's. */
export function kindOfTask(
  task: Pick<RetentionCandidate, 'entryId' | 'model' | 'taskType' | 'family'>,
): MediaKind {
  return entryOfTask(task)?.outputKind ?? FAMILY_KINDS[task.family as TaskFamily] ?? 'file';
}

export function emptyOutcome(before: string): RetentionOutcome {
  return { before, tasks: 0, bytes: 0, byKind: [] };
}

/** Counts one task of `kind` and its `bytes` into `outcome`. */
export function addToOutcome(outcome: RetentionOutcome, kind: MediaKind, bytes: number): void {
  outcome.tasks += 1;
  outcome.bytes += bytes;
  const row = outcome.byKind.find((k) => k.kind === kind);
  if (row) {
    row.tasks += 1;
    row.bytes += bytes;
  } else {
    outcome.byKind.push({ kind, tasks: 1, bytes });
    outcome.byKind.sort((a, b) => MEDIA_KINDS.indexOf(a.kind) - MEDIA_KINDS.indexOf(b.kind));
  }
}

export class RetentionReading {
  readonly #ctx: ReadingContext;
  readonly #previewTasks: number;

  /** `previewTasks`: how many of the oldest tasks a preview looks at unless told (see preview). */
  constructor(ctx: ReadingContext, previewTasks: number) {
    this.#ctx = ctx;
    this.#previewTasks = previewTasks;
  }

  /** The rules as kept (the defaults, off, until the user sets them) and the last run. */
  view(): RetentionView {
    const { store } = this.#ctx;
    let rules: RetentionRules = { ...DEFAULT_RETENTION_RULES };
    try {
      rules = store.getSetting(RULES_SETTING, RetentionRulesSchema) ?? rules;
    } catch (err) {
      // rules that cannot be read move nothing: the defaults are off
      this.#ctx.log(`retention rules could not be read, so they are off: ${String(err)}`);
    }
    const lastRun = store.getSetting<RetentionView['lastRun']>(LAST_RUN_SETTING);
    return { rules, lastRun };
  }

  /**
   * What these rules would move now (whether they are on or not); nothing changes. Looks at the
   * oldest `upTo` tasks at most (default: previewTasks); past them the outcome says `atLeast`.
   */
  preview(rules: RetentionRules, upTo = this.#previewTasks): RetentionOutcome {
    const { store } = this.#ctx;
    const before = this.before(rules);
    const outcome = emptyOutcome(before);
    const kept = new Set<MediaKind>(rules.keepKinds);
    const query = { before, ...rules };
    let after: number | null = null;
    for (let looked = 0; looked < upTo; looked += PREVIEW_WINDOW) {
      const window = store.retention.candidates(query, after, Math.min(PREVIEW_WINDOW, upTo - looked));
      if (window.lastSeq === null) return outcome;
      for (const c of window.items)
        if (!kept.has(kindOfTask(c))) addToOutcome(outcome, kindOfTask(c), c.bytes);
      after = window.lastSeq;
    }
    // stopped at upTo (the oldest upTo tasks looked at): more may go when a task is left to look at
    if (store.retention.candidates(query, after, 1).lastSeq !== null) {
      outcome.atLeast = true;
      outcome.looked = upTo;
    }
    return outcome;
  }

  /** The saved results' files by kind (every kind, in MEDIA_KINDS order). */
  librarySize(): LibrarySize {
    const { byKind, trashedBytes } = this.#ctx.store.retention.sizes();
    const rows: KindAmount[] = MEDIA_KINDS.map((kind) => ({ kind, tasks: 0, bytes: 0 }));
    for (const r of byKind) {
      const row = rows.find((k) => k.kind === r.kind) ?? rows[rows.length - 1]!;
      row.tasks += r.files;
      row.bytes += r.bytes;
    }
    return { byKind: rows, bytes: rows.reduce((sum, r) => sum + r.bytes, 0), trashedBytes };
  }

  /** Tasks made before this time (ISO) are the rules' to move, now. */
  protected before(rules: RetentionRules): string {
    return new Date(this.#ctx.clock.now() - rules.olderThanDays * DAY_MS).toISOString();
  }
}
