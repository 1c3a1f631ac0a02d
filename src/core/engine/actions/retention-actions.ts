/**
 * Retention (issue 22, item 4), the engine's side: the user's rules (kept in the library, off
 * until switched on), their preview (what would go, by kind, and the bytes it frees), and their
 * run: after the opening when a day has passed since the last run, then every RETENTION_EVERY_MS
 * while the engine is open, and at once when the rules are switched on. A run moves tasks to
 * Recently deleted (kept there with their files for TRASH_DAYS), all with one deletedAt; only
 * ended tasks (saved, failed, cancelled, expired) are ever looked at, so a task running,
 * uncertain or not saved yet is never touched. Timers come from the engine's clock, so a test
 * moves a day in an instant.
 *
 * At a million tasks (issue 22, item 6) neither holds the library: the opening never waits for a
 * run, which goes on after it in batches (a few dozen tasks looked at, one short transaction each,
 * the event loop free between them, so page reads and state changes stay fast); each batch keeps
 * where the run is in the library ('retention.running', in its own transaction), so a run the app
 * quit in the middle of goes on at the next opening with the same deletedAt, nothing moved twice
 * or lost. The window's preview looks at the oldest previewTasks tasks at most and then says "at
 * least" (a page's time); the CLI's looks at all.
 */
import type { MediaKind } from '../../../shared/index.ts';
import {
  RETENTION_EVERY_MS,
  type RetentionOutcome,
  type RetentionRules,
  RetentionRulesSchema,
  type RetentionRunProgress,
  type RetentionView,
} from '../../../shared/task/retention.ts';
import { tasksWord } from '../../../shared/task/task-count-words.ts';
import type { EngineContext } from '../engine-context.ts';
import type { RetentionTuning } from '../engine-options.ts';
import { nextTurn } from '../work-loop.ts';
import {
  addToOutcome,
  emptyOutcome,
  kindOfTask,
  LAST_RUN_SETTING,
  RetentionReading,
  RULES_SETTING,
} from './retention-reading.ts';
import { tellChanged } from './trash-actions.ts';

/** Where a run is: kept with each batch, so the next opening goes on with a run the app quit in. */
const RUN_SETTING = 'retention.running';

export const DEFAULT_RETENTION_TUNING: Readonly<RetentionTuning> = Object.freeze({
  batchTasks: 25,
  batchPauseMs: 0,
  previewTasks: 2_000,
});

/** A run under way, as kept in the library after each batch. */
interface RunRecord {
  deletedAt: string;
  /** Tasks made before this time (ISO) go. */
  before: string;
  /** The last task looked at (null: none yet). */
  afterSeq: number | null;
  /** What it moved so far. */
  outcome: RetentionOutcome;
}

/** The run under way (one at a time): where it is, and whether it was told to stop after its batch. */
interface Running {
  done: Promise<RetentionOutcome | null>;
  stop: boolean;
  /** Null until the run has read where it starts. */
  record: RunRecord | null;
}

/** The rules' view and preview (RetentionReading), and their runs. */
export class LibraryRetention extends RetentionReading {
  readonly #ctx: EngineContext;
  readonly #tuning: RetentionTuning;
  #cancelTimer: (() => void) | null = null;
  #running: Running | null = null;

  constructor(ctx: EngineContext, tuning: Partial<RetentionTuning> = {}) {
    const checked = { ...DEFAULT_RETENTION_TUNING, ...tuning };
    super(ctx, checked.previewTasks);
    this.#ctx = ctx;
    this.#tuning = checked;
  }

  /**
   * Keeps the rules; switched on, they run at once (and daily after): resolves once that run has
   * ended, or (`wait: false`, the window's) once it has started, its progress in the engine's
   * status. A run under way stops first (what it moved stays its last run).
   */
  async setRules(rules: RetentionRules, { wait = true }: { wait?: boolean } = {}): Promise<RetentionView> {
    const checked = RetentionRulesSchema.parse(rules);
    await this.#stopRun();
    this.#ctx.store.setSetting(RULES_SETTING, checked);
    this.#cancel();
    if (checked.enabled && wait) await this.run();
    else if (checked.enabled) this.#runLogged();
    return this.view();
  }

  /** The run under way in this engine: its deletedAt and what it moved so far (null: none). */
  progress(): RetentionRunProgress | null {
    const record = this.#running?.record;
    if (!record) return null;
    return { deletedAt: record.deletedAt, tasks: record.outcome.tasks, bytes: record.outcome.bytes };
  }

  /**
   * Runs the rules when they are on (or goes on with the run under way, or one the app quit in):
   * moves what they select to Recently deleted, all with one deletedAt, a batch at a time, and
   * keeps the outcome as the last run. Resolves with it; null when the rules are off or the
   * engine closed first (the next opening goes on with it).
   */
  run(): Promise<RetentionOutcome | null> {
    if (this.#running) return this.#running.done;
    const { rules } = this.view();
    this.#cancel();
    if (!rules.enabled || this.#ctx.loop.closed) return Promise.resolve(null);
    const running: Running = { done: Promise.resolve(null), stop: false, record: null };
    this.#running = running;
    running.done = this.#batches(rules, running).finally(() => {
      if (this.#running === running) this.#running = null;
      this.#ctx.events.emitStatus(); // the window's progress line ends
    });
    // idle and closing wait for it; its failure is said by whoever started it
    this.#ctx.loop.track(
      running.done.catch(() => null),
      { background: true },
    );
    return running.done;
  }

  /**
   * After the opening: goes on with a run the app quit in, or runs the rules when on and a day
   * has passed since the last run, else waits for it. Never waits for the run itself.
   */
  start(): void {
    const { rules, lastRun } = this.view();
    if (!rules.enabled) return;
    const since = lastRun ? this.#ctx.clock.now() - Date.parse(lastRun.at) : Number.POSITIVE_INFINITY;
    if (this.#record() !== null || !(since < RETENTION_EVERY_MS) || since < 0) this.#runLogged();
    else this.#schedule(RETENTION_EVERY_MS - since);
  }

  /** No run starts again; the one under way stops after its batch (the next opening goes on). */
  close(): void {
    this.#cancel();
    if (this.#running) this.#running.stop = true;
  }

  /** The run a quit app left (null: none, or one that cannot be read, which is dropped). */
  #record(): RunRecord | null {
    try {
      return this.#ctx.store.getSetting<RunRecord>(RUN_SETTING);
    } catch (err) {
      this.#ctx.log(`retention's run under way could not be read, so it starts again: ${String(err)}`);
      this.#ctx.store.deleteSetting(RUN_SETTING);
      return null;
    }
  }

  async #batches(rules: RetentionRules, running: Running): Promise<RetentionOutcome | null> {
    const { clock, store } = this.#ctx;
    let record = this.#record();
    if (record === null) {
      const deletedAt = new Date(clock.now()).toISOString();
      const before = this.before(rules);
      record = { deletedAt, before, afterSeq: null, outcome: { ...emptyOutcome(before), deletedAt } };
    }
    const query = { ...rules, before: record.before };
    const kept = new Set<MediaKind>(rules.keepKinds);
    running.record = record;
    this.#ctx.events.emitStatus(); // the window shows it going; each batch's changes tell the rest
    for (let first = true; ; first = false) {
      await (first ? nextTurn() : this.#pause());
      if (running.stop || this.#ctx.loop.closed) return null;
      const at: RunRecord = record;
      const next: RunRecord = { ...at, outcome: structuredClone(at.outcome) };
      const moved = store.transaction(() => {
        const window = store.retention.candidates(query, at.afterSeq, this.#tuning.batchTasks);
        if (window.lastSeq === null) {
          store.setSetting(LAST_RUN_SETTING, { ...next.outcome, at: next.deletedAt });
          store.deleteSetting(RUN_SETTING);
          return null;
        }
        const page = window.items.filter((c) => !kept.has(kindOfTask(c)));
        const ids = new Set(
          store.trashTasks(
            page.map((c) => c.id),
            at.deletedAt,
          ),
        );
        for (const c of page) if (ids.has(c.id)) addToOutcome(next.outcome, kindOfTask(c), c.bytes);
        next.afterSeq = window.lastSeq;
        store.setSetting(RUN_SETTING, next);
        return [...ids];
      });
      if (moved === null) break;
      record = next;
      running.record = next;
      tellChanged(this.#ctx, moved);
    }
    const { outcome } = record;
    if (outcome.tasks > 0)
      this.#ctx.log(
        `retention moved ${tasksWord(outcome.tasks)} to Recently deleted (made before ${outcome.before})`,
      );
    this.#schedule(RETENTION_EVERY_MS);
    return outcome;
  }

  /** Stops the run under way after its batch; a run left unfinished becomes the last run. */
  async #stopRun(): Promise<void> {
    const running = this.#running;
    if (running) {
      running.stop = true;
      await running.done.catch(() => null);
    }
    const record = this.#record();
    if (record === null) return;
    this.#ctx.store.transaction(() => {
      this.#ctx.store.setSetting(LAST_RUN_SETTING, { ...record.outcome, at: record.deletedAt });
      this.#ctx.store.deleteSetting(RUN_SETTING);
    });
  }

  /** Between two batches: a turn of the event loop, or the tuning's pause. */
  #pause(): Promise<void> {
    const ms = this.#tuning.batchPauseMs;
    if (ms <= 0) return nextTurn();
    return new Promise((resolve) => this.#ctx.clock.schedule(ms, resolve));
  }

  #runLogged(): void {
    this.run().catch((err: unknown) => {
      this.#ctx.log(`retention could not run: ${String(err)}`);
      if (!this.#ctx.loop.closed) this.#schedule(RETENTION_EVERY_MS);
    });
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
