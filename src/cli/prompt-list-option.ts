/**
 * Prompt lists on `create` (issue 22, item 3): `--prompt-list FILE` (one prompt per line, blank
 * lines left out) fills the command's prompt, and alternatives `{dawn|noon|dusk}` in any text
 * option make one task each (several groups multiply), as one batch of at most 100. Before
 * anything is queued the count and the total price are printed; like `import-file`, such a batch
 * is queued only with --yes (without it nothing is queued and the command exits 2). The
 * expansion is src/shared/compose (the composer reads the same).
 */
import type { TaskDraft } from '../core/engine/index.ts';
import {
  BATCH_MAX_DRAFTS,
  catalogEntry,
  estimateCost,
  expandDraftTexts,
  formatUsd,
  promptFieldOf,
  promptLines,
  tooManyTasks,
} from '../shared/index.ts';
import { UsageError } from './cli-args.ts';
import type { CreateCommand } from './create-parser.ts';
import { readInputFile } from './input-file.ts';

/** `--prompt-list FILE` taken out of a create's words, with its prompts; null prompts when absent. */
export interface PromptListWords {
  argv: string[];
  prompts: string[] | null;
}

const OPTION = '--prompt-list';

/** Takes `--prompt-list FILE` (or `--prompt-list=FILE`) out of `argv` and reads the file. */
export function takePromptList(argv: readonly string[]): PromptListWords {
  const rest: string[] = [];
  let file: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    let value: string | undefined;
    if (word === OPTION) value = argv[++i];
    else if (word.startsWith(`${OPTION}=`)) value = word.slice(OPTION.length + 1);
    else {
      rest.push(word);
      continue;
    }
    if (value === undefined || value === '')
      throw new UsageError(`${OPTION} needs a file: one prompt per line`);
    if (file !== null) throw new UsageError(`give ${OPTION} once`);
    file = value;
  }
  if (file === null) return { argv: rest, prompts: null };
  const prompts = promptLines(readInputFile('prompt-list', file));
  if (prompts.length === 0) {
    throw new UsageError(`${OPTION}: ${file} holds no prompt (write one per line; blank lines are left out)`);
  }
  return { argv: rest, prompts };
}

/**
 * The create's words with its prompt option set to the list (so a required prompt is given), and
 * the input field the list fills. Refused when the command has no prompt, or it is given too.
 */
export function withPromptList(
  command: CreateCommand | undefined,
  words: PromptListWords,
): { argv: string[]; field: string | null } {
  if (words.prompts === null) return { argv: words.argv, field: null };
  const list = words.prompts.join('\n');
  if (command === undefined) return { argv: words.argv, field: 'prompt' };
  const field = promptFieldOf(command.entry.input);
  const option = command.options.find((o) => o.field === field && o.read === 'text');
  if (field === null || option === undefined) {
    throw new UsageError(`${OPTION}: create ${command.name} has no prompt to fill`);
  }
  const given = words.argv.some((w) => w === `--${option.name}` || w.startsWith(`--${option.name}=`));
  if (given) throw new UsageError(`give --${option.name} or ${OPTION}, not both`);
  return { argv: [...words.argv, `--${option.name}=${list}`], field };
}

/**
 * Every draft the drafts make with their alternatives (and, with `linesField`, one per line of
 * that field), in order; refused in words over BATCH_MAX_DRAFTS or for text that cannot be read.
 */
export function expandCreateDrafts(
  drafts: readonly TaskDraft[],
  linesField: string | null,
  prompts: readonly string[] | null,
): TaskDraft[] {
  const out: TaskDraft[] = [];
  for (const draft of drafts) {
    const entry = catalogEntry(draft.model, draft.taskType);
    if (!entry) {
      out.push(draft);
      continue;
    }
    const listed =
      linesField !== null && prompts !== null
        ? { ...draft, input: { ...draft.input, [linesField]: prompts.join('\n') } }
        : draft;
    const expanded = expandDraftTexts(listed, entry.input, { linesField, max: BATCH_MAX_DRAFTS });
    if (!expanded.ok) {
      const option =
        expanded.field === linesField && prompts !== null ? OPTION : `--${expanded.field.replace(/_/g, '-')}`;
      throw new UsageError(`${option}: ${expanded.message}`);
    }
    out.push(...expanded.drafts);
  }
  // each draft makes at most 100: all are counted, so the refusal says how many
  if (out.length > BATCH_MAX_DRAFTS) throw new UsageError(tooManyTasks(out.length, BATCH_MAX_DRAFTS));
  return out;
}

/** The texts that differ from task to task, as `field: text` (cut at 100 characters). */
function differing(drafts: readonly TaskDraft[], draft: TaskDraft): string {
  const first = drafts[0]?.input ?? {};
  return Object.entries(draft.input)
    .filter(
      ([field, value]) => typeof value === 'string' && drafts.some((d) => d.input[field] !== first[field]),
    )
    .map(([field, value]) => {
      const text = String(value).replace(/\s+/g, ' ');
      return `${field}: ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`;
    })
    .join('; ');
}

/** What a prompt list would queue, in lines: each task's own texts, then the count and the total price. */
export function promptListPlan(drafts: readonly TaskDraft[]): { lines: string[]; micros: number | null } {
  let micros: number | null = 0;
  const lines: string[] = [];
  for (const [i, d] of drafts.entries()) {
    const cost = estimateCost({ model: d.model, task_type: d.taskType, input: d.input }).micros;
    micros = micros === null || cost === null ? null : micros + cost;
    lines.push(`  ${i + 1}. ${differing(drafts, d)}`);
  }
  const total = micros === null ? 'the price of some is not known' : `${formatUsd(micros)} in all`;
  lines.push(`${drafts.length} tasks, ${total}`);
  return { lines, micros };
}
