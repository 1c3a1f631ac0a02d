/**
 * Retention (issue 22, item 4), the engine's side: the user's rules (kept in the library, off
 * until switched on), their preview (what would go, by kind, and the bytes it frees), and their
 * run: at open when a day has passed since the last run, then every RETENTION_EVERY_MS while the
 * engine is open, and at once when the rules are switched on. A run moves tasks to Recently
 * deleted (kept there with their files for TRASH_DAYS), all with one deletedAt, page by page in
 * one transaction each; only ended tasks (saved, failed, cancelled, expired) are ever looked at, so
 * a task running, uncertain or not saved yet is never touched. Timers come from the engine's
 * clock, so a test moves a day in an instant.
 */
import { entryOfTask, MEDIA_KINDS, type MediaKind, type TaskFamily } from '../../../shared/index.ts';
import {
  DEFAULT_RETENTION_RULES,
  type KindAmount,
  type LibrarySize,
  RETENTION_EVERY_MS,
  type RetentionOutcome,
  type RetentionRules,
  RetentionRulesSchema,
  type RetentionView,
} from '../../../shared/task/retention.ts';
import type { RetentionCandidate } from '../../store/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { tellChanged } from './trash-actions.ts';

const RULES_SETTING = 'retention.rules';
const LAST_RUN_SETTING = 'retention.lastRun';
const DAY_MS = 86_400_000;
/** Tasks per page (and per transaction) of a run. */
const PAGE = 500;

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

function emptyOutcome(before: string): RetentionOutcome {
  return { before, tasks: 0, bytes: 0, byKind: [] };
}

function add(outcome: RetentionOutcome, kind: MediaKind, bytes: number): void {
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

export class LibraryRetention {
  readonly #ctx: EngineContext;
  #cancelTimer: (() => void) | null = null;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
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

  /** What these rules would move now (whether they are on or not); nothing changes. */
  preview(rules: RetentionRules): RetentionOutcome {
    const before = this.#before(rules);
    const outcome = emptyOutcome(before);
    this.#walk(rules, before, (page) => {
      for (const c of page) add(outcome, kindOfTask(c), c.bytes);
    });
    return outcome;
  }

  /** Keeps the rules; switched on, they run at once (and daily after). */
  setRules(rules: RetentionRules): RetentionView {
    const checked = RetentionRulesSchema.parse(rules);
    this.#ctx.store.setSetting(RULES_SETTING, checked);
    this.#cancel();
    if (checked.enabled) this.run();
    return this.view();
  }

  /**
   * Runs the rules when they are on: moves what they select to Recently deleted, all with one
   * deletedAt, and keeps the outcome as the last run. Null when they are off (nothing moves).
   */
  run(): RetentionOutcome | null {
    const { rules } = this.view();
    this.#cancel();
    if (!rules.enabled) return null;
    const { clock, store } = this.#ctx;
    const deletedAt = new Date(clock.now()).toISOString();
    const before = this.#before(rules);
    const outcome: RetentionOutcome = { ...emptyOutcome(before), deletedAt };
    this.#walk(rules, before, (page) => {
      const moved = new Set(
        store.trashTasks(
          page.map((c) => c.id),
          deletedAt,
        ),
      );
      for (const c of page) if (moved.has(c.id)) add(outcome, kindOfTask(c), c.bytes);
      tellChanged(this.#ctx, [...moved]);
    });
    store.setSetting(LAST_RUN_SETTING, { ...outcome, at: deletedAt });
    if (outcome.tasks > 0)
      this.#ctx.log(`retention moved ${outcome.tasks} task(s) to Recently deleted (made before ${before})`);
    this.#schedule(RETENTION_EVERY_MS);
    return outcome;
  }

  /** At open: runs the rules when on and a day has passed since the last run; else waits for it. */
  start(): void {
    const { rules, lastRun } = this.view();
    if (!rules.enabled) return;
    const since = lastRun ? this.#ctx.clock.now() - Date.parse(lastRun.at) : Number.POSITIVE_INFINITY;
    if (!(since < RETENTION_EVERY_MS) || since < 0) this.#runLogged();
    else this.#schedule(RETENTION_EVERY_MS - since);
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

  close(): void {
    this.#cancel();
  }

  #before(rules: RetentionRules): string {
    return new Date(this.#ctx.clock.now() - rules.olderThanDays * DAY_MS).toISOString();
  }

  /**
   * Walks the tasks the rules select by seq (a keyset: moving a page's tasks changes nothing
   * after it), a page at a time with the kinds they keep left out, each page in one transaction.
   */
  #walk(rules: RetentionRules, before: string, take: (page: RetentionCandidate[]) => void): void {
    const { store } = this.#ctx;
    const kept = new Set<MediaKind>(rules.keepKinds);
    let after: number | null = null;
    for (;;) {
      const last = store.transaction(() => {
        const page = store.retention.candidates({ before, ...rules }, after, PAGE);
        take(page.filter((c) => !kept.has(kindOfTask(c))));
        return page[page.length - 1]?.seq ?? null;
      });
      if (last === null) return;
      after = last;
    }
  }

  #runLogged(): void {
    try {
      this.run();
    } catch (err) {
      this.#ctx.log(`retention could not run: ${String(err)}`);
      this.#schedule(RETENTION_EVERY_MS);
    }
  }

  #schedule(ms: number): void {
    this.#cancel();
    this.#cancelTimer = this.#ctx.clock.schedule(ms, () => {
      this.#cancelTimer = null;
      this.#runLogged();
    });
  }

  #cancel(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
  }
}
