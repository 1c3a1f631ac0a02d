/**
 * `media-task create <name>`: a task draft from the command line, queued in the library and sent;
 * with --wait, followed until it ends. The name is what it makes (image, video, 3d: its --model
 * chooses among the catalog's entries of that kind, create-kinds.ts), a hand-named preset (audio, face-swap,
 * image-edit, extend, song-edit, remix, upscale, background-remove, segment: create-presets.ts),
 * `raw`, or any catalog entry by its id or short name (`create flux1-schnell/txt2img`, `create
 * flux`), whose options come from its fields; all but raw go through one parser
 * (create-parser.ts), and `create NAME --help` lists a command's options. `--variants N` queues N
 * copies as one batch (an entry with a whole-number seed sweeps it: seed, seed+1, …);
 * `face-swap --target-dir DIR` puts one face onto every picture in DIR, as one batch.
 * `--prompt-list FILE` (one prompt per line) and alternatives `{a|b}` in any text option make one
 * task each, as one batch queued only with --yes (prompt-list-option.ts).
 */
import type { TaskDraft, TaskEngine } from '../core/engine/index.ts';
import {
  BATCH_MAX_DRAFTS,
  catalogEntry,
  entryById,
  FINAL_STATES,
  modelIdProblem,
  TASK_TYPES,
  type Task,
  type TaskState,
} from '../shared/index.ts';
import { acceptAsTheAppDoes, acceptedByTheAppLines, unknownPriceAccepted } from './app-settings.ts';
import { noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import { KIND_COMMANDS, kindCommand } from './create-kinds.ts';
import { CREATE_COMMON, type KindArgs, localFromIds, required } from './create-options.ts';
import { type CreateCommand, entryCommand, readCreateCommand } from './create-parser.ts';
import { PRESETS } from './create-presets.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { readInputFile } from './input-file.ts';
import { mapDraftLyrics } from './lyrics-notes.ts';
import { expandCreateDrafts, promptListPlan, takePromptList, withPromptList } from './prompt-list-option.ts';
import { openSession } from './task-session.ts';
import { outcomeCode, report, waitForStates } from './task-waiting.ts';
import { printErr, printOut } from './terminal-output.ts';

function rawArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    'task-type': VALUE,
    'input-json': VALUE,
  });
  const file = required('input-json', values['input-json']);
  const text = readInputFile('input-json', file);
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--input-json: ${file} is not valid JSON (${(err as Error).message})`);
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    const got = Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input;
    throw new UsageError(`--input-json: ${file} must hold a JSON object, got ${got}`);
  }
  const draft: TaskDraft = {
    model: required('model', values.model),
    taskType: required('task-type', values['task-type']),
    input: input as Record<string, unknown>,
  };
  return { draft, common: values, positionals };
}

/** The create command a word names: a preset, else a catalog entry by its short name or id. */
function commandNamed(word: string): CreateCommand | undefined {
  if (Object.hasOwn(PRESETS, word)) return PRESETS[word];
  const entry = entryById(word) ?? TASK_TYPES.find((e) => e.shortName === word);
  return entry ? entryCommand(entry, word) : undefined;
}

/** The words `create` takes, for its error: the presets, raw, and each entry's short name. */
function createWords(): string {
  const names = new Set([...Object.keys(PRESETS), ...Object.keys(KIND_COMMANDS), 'raw']);
  for (const e of TASK_TYPES) if (e.shortName) names.add(e.shortName);
  return `${[...names].join(', ')}, or an entry id such as ${TASK_TYPES[0]?.id} (create NAME --help lists its options)`;
}

/** What a create queues: one draft, or the drafts of a batch (`--variants`, `--target-dir`). */
export interface CreatePlan {
  /** The help `--help` asked for: nothing is queued. */
  help?: string;
  drafts: TaskDraft[];
  batch: boolean;
  wait: boolean;
  acceptUnknownPrice: boolean;
  complete: ((engine: TaskEngine, draft: TaskDraft) => void) | null;
  /** More tasks than the command alone makes, from a prompt list or alternatives: queued only with --yes. */
  listed: boolean;
  yes: boolean;
}

export function planFromCreateArgs(kind: string | undefined, argv: readonly string[]): CreatePlan {
  // create image|video|3d: the entry its --model and inputs choose (create-kinds.ts)
  const byKind = kind === undefined ? undefined : kindCommand(kind, argv);
  const command = byKind?.command ?? (kind === undefined || kind === 'raw' ? undefined : commandNamed(kind));
  if (kind !== 'raw' && !command) throw new UsageError(`create what? ${createWords()}`);
  const words = takePromptList(byKind?.argv ?? argv);
  const listed = withPromptList(command, words);
  const read = command ? readCreateCommand(command, listed.argv) : rawArgs(listed.argv);
  if ('help' in read)
    return {
      help: read.help,
      drafts: [],
      batch: false,
      wait: false,
      acceptUnknownPrice: false,
      complete: null,
      listed: false,
      yes: false,
    };
  const args = read;
  const { draft, common } = args;
  noPositionals(args.positionals);
  const drafts = args.batch ?? [draft];
  for (const d of drafts) {
    if (common.model !== undefined) d.model = modelOption(common.model);
    if (common.title) d.title = common.title;
    if (common['accept-unknown-price']) d.acceptUnknownPrice = true;
    const hook = common['webhook-url'];
    if (hook) d.webhook = { endpoint: hook, secret: common['webhook-secret'] ?? '' };
  }
  const variants = variantsOption(common.variants);
  const made = variants === null ? drafts : variantDrafts(draft, variants);
  const expanded = expandCreateDrafts(made, listed.field, words.prompts);
  return {
    drafts: expanded,
    listed: expanded.length > made.length,
    yes: common.yes === true,
    batch: args.batch !== undefined || variants !== null || expanded.length > made.length,
    wait: common.wait === true,
    acceptUnknownPrice: common['accept-unknown-price'] === true,
    complete: args.complete ?? null,
  };
}

/** `--variants N`: 1 to BATCH_MAX_DRAFTS, or null when not given. */
function variantsOption(raw: string | undefined): number | null {
  const n = numberValue('variants', raw);
  if (n === undefined) return null;
  if (!Number.isInteger(n) || n < 1 || n > BATCH_MAX_DRAFTS) {
    throw new UsageError(`--variants must be a whole number from 1 to ${BATCH_MAX_DRAFTS}`);
  }
  return n;
}

/**
 * N copies of a draft. An image edit sweeps its seed (the given one, else a random one, then +1
 * each); a song differs from run to run by itself, so the others are the same draft N times.
 */
function variantDrafts(draft: TaskDraft, n: number): TaskDraft[] {
  const sweep = catalogEntry(draft.model, draft.taskType)?.input.fields.seed?.type === 'integer';
  const given = draft.input.seed;
  const base = typeof given === 'number' ? given : Math.floor(Math.random() * 1_000_000);
  return Array.from({ length: n }, (_, k) => ({
    ...draft,
    input: sweep ? { ...draft.input, seed: base + k } : { ...draft.input },
  }));
}

/** --model: a full id (`vendor/model`) as given, or a model name the profile's vendor is put before. */
function modelOption(raw: string): string {
  const model = raw.trim();
  if (model === '') throw new UsageError('--model needs a model id, e.g. Qubico/ace-step');
  if (model.includes('/')) {
    const problem = modelIdProblem(model);
    if (problem) throw new UsageError(`--model: ${problem}`);
  }
  return model;
}

/** Where a create without --wait stops waiting: the service has the task (or answered for it). */
const SETTLED_AFTER_SUBMIT: readonly TaskState[] = [
  'pending',
  'staged',
  'processing',
  'completed',
  'downloading',
  ...FINAL_STATES,
  'uncertain',
];

export async function runCreate(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [kind, ...rest] = argv;
  const plan = planFromCreateArgs(kind, rest);
  if (plan.help !== undefined) {
    printOut(plan.help);
    return EXIT.ok;
  }
  const session = await openSession(g, env);
  try {
    const { engine } = session;
    if (plan.wait && !engine.status().serviceConfigured) {
      throw new UsageError(
        '--wait needs a service: set MEDIA_TASK_API_KEY and --base-url, or pass --sandbox',
      );
    }
    const lyricsNotes = new Set<string>();
    for (const draft of plan.drafts) {
      localFromIds(engine, draft);
      plan.complete?.(engine, draft);
      for (const line of mapDraftLyrics(draft)) lyricsNotes.add(line);
    }
    for (const line of lyricsNotes) printErr(line);
    const byTheApp = acceptAsTheAppDoes(plan.drafts, unknownPriceAccepted(env));
    if (plan.listed) {
      const { lines } = promptListPlan(plan.drafts);
      const print = g.json ? printErr : printOut;
      for (const line of lines) print(`${line}\n`);
      if (!plan.yes) {
        printErr(
          'nothing was queued: read the tasks above, then run the same command with --yes to queue them as one batch\n',
        );
        return EXIT.badInput;
      }
    }
    let queued: Task[];
    let batchId: string | null = null;
    if (plan.batch) {
      const batch = await engine.queueBatch(plan.drafts, { acceptUnknownPrice: plan.acceptUnknownPrice });
      queued = batch.tasks;
      batchId = batch.batchId;
    } else queued = [await engine.queueTask(plan.drafts[0] as TaskDraft)];
    const ids = queued.map((t) => t.id);
    let note: string | undefined;
    let tasks: Task[];
    if (!engine.status().serviceConfigured) {
      tasks = queued;
      note =
        'queued locally: no service is set up; it will be sent when the app or `media-task watch` runs with one';
    } else if (plan.wait) {
      tasks = await waitForStates(engine, ids, [...FINAL_STATES, 'uncertain'], false);
    } else {
      tasks = await waitForStates(engine, ids, SETTLED_AFTER_SUBMIT, true);
      if (tasks.some((t) => t.state === 'queued') && !engine.status().authProblem)
        note = 'queued: the service cannot be reached now; it will be sent later';
    }
    for (const line of acceptedByTheAppLines(queued, byTheApp)) printErr(line);
    const status = engine.status();
    report(g, tasks, status, note, batchId);
    return outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}
