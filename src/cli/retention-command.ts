/**
 * `media-task retention` (issue 22, item 4), as Settings › Retention in the window: the rules that
 * move old results to Recently deleted, off until switched on. `retention` shows the rules, their
 * last run, what a run now would move and the library's size by kind, moving nothing; `--run`
 * runs the rules now (when on); `--preview` says what the rules
 * (as kept, or as given with `--older-than` and `--keep`) would move, by kind, and the space it
 * frees, moving nothing; `--on --older-than DAYS [--keep …] --yes` switches them on (they run at
 * once, then once a day while the app or a command that changes the library has it open); `--on`
 * without `--yes` only previews and exits 2; `--off` switches them off. Opens the library without a service: nothing is sent. The show and
 * `--preview` only read, so they answer while the app has the library open (task-session.ts
 * openToRead); `--run`, `--on` and `--off` change it, so they need the app closed.
 */
import type { LibraryReader } from '../core/engine/index.ts';
import { MAKES_FILTER_KINDS, type MakesFilterKind, TRASH_DAYS } from '../shared/index.ts';
import {
  diskSizeText,
  KIND_PLURALS,
  kindCountsText,
  nothingToMoveText,
  RESTORED_RULE_TEXT,
  RETENTION_EVERY_MS,
  type RetentionOutcome,
  type RetentionRules,
  type RetentionView,
  retentionRulesText,
} from '../shared/task/retention.ts';
import { tasksWord } from '../shared/task/task-count-words.ts';
import { FLAG, noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { openSession, openToRead } from './task-session.ts';
import { printErr, printOut } from './terminal-output.ts';

const KEEP_WORDS = ['favorites', 'boards', 'inputs', 'pictures', 'songs', 'videos', '3d', 'none'] as const;
/** Other spellings taken for a keep word (the CLI's options say `favorite`, as `list --favorite`). */
const KEEP_ALIASES: Readonly<Record<string, (typeof KEEP_WORDS)[number]>> = { favourites: 'favorites' };
const KIND_OF_WORD: Readonly<Record<string, MakesFilterKind>> = {
  pictures: 'image',
  songs: 'audio',
  videos: 'video',
  '3d': '3d',
};

/** `--keep favorites,boards,songs` (or `none`) as the rules' keep fields. */
function keepOf(
  raw: string,
): Pick<RetentionRules, 'keepFavorites' | 'keepBoards' | 'keepUsedAsInputs' | 'keepKinds'> {
  const words = raw
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '')
    .map((w) => KEEP_ALIASES[w] ?? w);
  for (const w of words) {
    if (!(KEEP_WORDS as readonly string[]).includes(w))
      throw new UsageError(`--keep: "${w}" is not one of ${KEEP_WORDS.join(', ')}`);
  }
  if (words.includes('none') && words.length > 1) throw new UsageError('--keep: none goes alone');
  return {
    keepFavorites: words.includes('favorites'),
    keepBoards: words.includes('boards'),
    keepUsedAsInputs: words.includes('inputs'),
    keepKinds: MAKES_FILTER_KINDS.filter((k) => words.some((w) => KIND_OF_WORD[w] === k)),
  };
}

/** The rules kept, changed by `--older-than` and `--keep` when given. */
function rulesOf(
  kept: RetentionRules,
  olderThan: string | undefined,
  keep: string | undefined,
): RetentionRules {
  const days = numberValue('older-than', olderThan);
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3650))
    throw new UsageError('--older-than must be a whole number of days from 1 to 3650');
  return { ...kept, ...(days === undefined ? {} : { olderThanDays: days }), ...(keep ? keepOf(keep) : {}) };
}

const OFF_TEXT = 'retention is off';

/** Whether the daily run is due (the opening then started it): on, and a day since the last run. */
function dailyRunDue(view: RetentionView, now: number): boolean {
  if (!view.rules.enabled) return false;
  if (!view.lastRun) return true;
  const since = now - Date.parse(view.lastRun.at);
  return !(since < RETENTION_EVERY_MS) || since < 0;
}

const lowerFirst = (text: string): string => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

const NO_OUTCOME: RetentionOutcome = { before: '', tasks: 0, bytes: 0, byKind: [] };

function outcomeText(o: RetentionOutcome): string {
  return o.tasks === 0
    ? 'nothing'
    : `${tasksWord(o.tasks)} (${kindCountsText(o.byKind)}), ${diskSizeText(o.bytes)} of results`;
}

function sizeLines(reader: LibraryReader): string {
  const size = reader.retention.librarySize();
  const kinds = size.byKind
    .filter((k) => k.tasks > 0)
    .map((k) => `${KIND_PLURALS[k.kind]} ${diskSizeText(k.bytes)}`)
    .join(', ');
  const trash = size.trashedBytes > 0 ? ` (${diskSizeText(size.trashedBytes)} in Recently deleted)` : '';
  return `library: ${diskSizeText(size.bytes)} of results${kinds ? `: ${kinds}` : ''}${trash}\n`;
}

export async function runRetention(
  g: GlobalOptions,
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    preview: FLAG,
    run: FLAG,
    on: FLAG,
    off: FLAG,
    yes: FLAG,
    'older-than': VALUE,
    keep: VALUE,
  });
  noPositionals(positionals);
  if ([values.preview, values.run, values.on, values.off].filter(Boolean).length > 1)
    throw new UsageError('retention: give one of --preview, --run, --on and --off');
  const changes = values['older-than'] !== undefined || values.keep !== undefined;
  if (changes && !values.preview && !values.on)
    throw new UsageError('--older-than and --keep go with --preview or --on');
  // the show and --preview only read: they answer while the app has the library open
  if (!values.run && !values.on && !values.off) return showRetention(g, env, values);
  const session = await openSession(g, env, { libraryOnly: true });
  try {
    const { engine } = session;
    const kept = engine.retention.view();
    const rules = rulesOf(kept.rules, values['older-than'], values.keep);
    if (values.off) {
      const view = await engine.retention.setRules({ ...rules, enabled: false });
      if (g.json) printJson(view);
      else printOut('retention is off: nothing is moved to Recently deleted by it\n');
      return EXIT.ok;
    }
    if (values.on && !values.yes) {
      printPreview(g, rules, engine);
      printErr('retention is not switched on: add --yes to switch it on (it runs at once, then daily)\n');
      return EXIT.badInput;
    }
    if (values.on) {
      const view = await engine.retention.setRules({ ...rules, enabled: true });
      if (g.json) printJson(view);
      else
        printOut(
          `retention is on: ${retentionRulesText(rules)}.\nmoved ${outcomeText(view.lastRun ?? NO_OUTCOME)} to Recently deleted\n`,
        );
      return EXIT.ok;
    }
    if (!kept.rules.enabled) {
      printErr(`${OFF_TEXT}: switch it on first (media-task retention --on --older-than DAYS --yes)\n`);
      return EXIT.badInput;
    }
    const ran = await engine.retention.run();
    if (g.json) printJson({ ...engine.retention.view(), ran });
    else printOut(`moved ${outcomeText(ran ?? NO_OUTCOME)} to Recently deleted\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

/** What `rules` would move to Recently deleted, by kind, and the space it frees: moves nothing. */
function printPreview(g: GlobalOptions, rules: RetentionRules, reader: LibraryReader): void {
  // the command waits for its answer: it looks at every task, not only the oldest
  const preview = reader.retention.preview(rules, Number.POSITIVE_INFINITY);
  if (g.json) printJson({ rules, preview });
  else {
    printOut(`${retentionRulesText(rules)}.\n`);
    printOut(`would move ${outcomeText(preview)} to Recently deleted (made before ${preview.before})\n`);
    printOut(`${RESTORED_RULE_TEXT}.\n`);
    if (preview.bytes > 0)
      printOut(
        `frees ${diskSizeText(preview.bytes)} once they leave Recently deleted (after ${TRASH_DAYS} days)\n`,
      );
  }
}

/**
 * `retention` and `retention --preview`: the rules as kept, their last run, what a run now would
 * move and the library's size; or what the rules (as given) would move. Reads the library beside
 * whoever has it open and starts nothing: its daily run is the app's (or a command's that opens
 * the library to work in it). Only an engine this command had to open (no library yet, or one to
 * migrate) may have started a due run at its opening: that run is waited for and is the last run.
 */
async function showRetention(
  g: GlobalOptions,
  env: NodeJS.ProcessEnv,
  values: { preview?: boolean; 'older-than'?: string; keep?: string },
): Promise<number> {
  const session = await openToRead(g, env);
  try {
    const { reader, engine } = session;
    const kept = reader.retention.view();
    if (values.preview) {
      printPreview(g, rulesOf(kept.rules, values['older-than'], values.keep), reader);
      return EXIT.ok;
    }
    if (engine && dailyRunDue(kept, Date.now())) await engine.retention.run();
    const view = reader.retention.view();
    const preview = view.rules.enabled
      ? reader.retention.preview(view.rules, Number.POSITIVE_INFINITY)
      : null;
    if (g.json) printJson({ ...view, preview, size: reader.retention.librarySize() });
    else {
      if (!view.rules.enabled)
        printOut(
          `${OFF_TEXT}: nothing is moved until it is set up (Settings › Retention in the app, or media-task retention --on --older-than DAYS --yes)\n`,
        );
      else printOut(`retention is on: ${retentionRulesText(view.rules)}, once a day.\n`);
      if (view.lastRun)
        printOut(`last run ${view.lastRun.at}: moved ${outcomeText(view.lastRun)} to Recently deleted\n`);
      // the window's sentence, as a line of the CLI (lower case first)
      if (preview?.tasks === 0) printOut(`${lowerFirst(nothingToMoveText(preview))}\n`);
      else if (preview)
        printOut(
          `a run now would move ${outcomeText(preview)} (made before ${preview.before}); media-task retention --run runs it\n`,
        );
      if (view.rules.enabled) printOut(`${RESTORED_RULE_TEXT}.\n`);
      printOut(sizeLines(reader));
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
