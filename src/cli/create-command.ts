/**
 * `media-task create <kind>`: a task draft from the command line, queued in the library and sent;
 * with --wait, followed until it ends. The kinds: audio, face-swap, image-edit, raw, and the ones
 * that keep going from a result (result-create-kinds.ts). `--variants N` queues N copies as one
 * batch (image-edit sweeps the seed: seed, seed+1, …); `face-swap --target-dir DIR` puts one face
 * onto every picture in DIR, as one batch.
 */
import { readdirSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import type { TaskDraft, TaskEngine } from '../main/engine/index.ts';
import {
  BATCH_MAX_DRAFTS,
  FINAL_STATES,
  modelIdProblem,
  type Task,
  type TaskState,
} from '../shared/index.ts';
import { noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import {
  CREATE_COMMON,
  entryDraft,
  type KindArgs,
  localFromIds,
  mediaOrFrom,
  mediaValue,
  required,
} from './create-options.ts';
import type { GlobalOptions } from './global-options.ts';
import { readInputFile } from './input-file.ts';
import {
  backgroundRemoveArgs,
  extendArgs,
  remixArgs,
  segmentArgs,
  songEditArgs,
  upscaleArgs,
} from './result-create-kinds.ts';
import { openSession } from './task-session.ts';
import { outcomeCode, report, waitForStates } from './task-waiting.ts';

function audioArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    style: VALUE,
    negative: VALUE,
    'lyrics-file': VALUE,
    duration: VALUE,
    reference: VALUE,
    from: VALUE,
  });
  const input: Record<string, unknown> = {
    style_prompt: values.style ?? '',
    duration: numberValue('duration', values.duration) ?? 30,
  };
  if (values.negative !== undefined) input.negative_prompt = values.negative;
  if (values['lyrics-file']) input.lyrics = readInputFile('lyrics-file', values['lyrics-file']);
  const reference = mediaOrFrom('reference', values.reference || undefined, values.from, false);
  if (reference !== undefined) input.style_audio = reference;
  return {
    draft: entryDraft('ace-step/txt2audio', input),
    common: values,
    positionals,
  };
}

/** Pictures a face swap can target, by extension (the checks read their bytes when queued). */
const PICTURE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);

function faceSwapArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    target: VALUE,
    swap: VALUE,
    from: VALUE,
    'target-dir': VALUE,
  });
  const swap = mediaValue(required('swap', values.swap));
  const draftFor = (target: unknown): TaskDraft =>
    entryDraft('image-toolkit/face-swap', { target_image: target, swap_image: swap });
  const dir = values['target-dir'];
  if (dir === undefined) {
    const target = mediaOrFrom('target', values.target, values.from, true);
    return { draft: draftFor(target), common: values, positionals };
  }
  if (values.target !== undefined || values.from !== undefined) {
    throw new UsageError('--target-dir takes the place of --target and --from: give one of them');
  }
  if (values.variants !== undefined)
    throw new UsageError('--target-dir makes its own batch: leave out --variants');
  const batch = picturesIn(dir).map((file) => ({ ...draftFor(file), title: `Face swap: ${basename(file)}` }));
  return { draft: batch[0] as TaskDraft, batch, common: values, positionals };
}

/** The pictures in a folder (not its sub-folders), by name; refuses an empty or overfull one. */
function picturesIn(dir: string): string[] {
  const folder = resolve(dir);
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isFile() && PICTURE_EXTENSIONS.has(extname(e.name).toLowerCase()))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : String(code ?? err);
    throw new UsageError(`--target-dir: cannot read ${dir}: ${why}`);
  }
  if (names.length === 0)
    throw new UsageError(`--target-dir: ${dir} has no .jpg, .jpeg, .png or .webp pictures`);
  if (names.length > BATCH_MAX_DRAFTS) {
    throw new UsageError(
      `--target-dir: ${dir} has ${names.length} pictures; a batch takes at most ${BATCH_MAX_DRAFTS}`,
    );
  }
  return names.map((name) => join(folder, name));
}

function imageEditArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    image1: VALUE,
    image2: VALUE,
    image3: VALUE,
    prompt: VALUE,
    negative: VALUE,
    seed: VALUE,
    steps: VALUE,
    'flow-shift': VALUE,
    from: VALUE,
  });
  const input: Record<string, unknown> = {
    image1: mediaOrFrom('image1', values.image1, values.from, true),
    prompt: required('prompt', values.prompt),
  };
  for (const f of ['image2', 'image3'] as const) {
    const v = values[f];
    if (v) input[f] = mediaValue(v);
  }
  if (values.negative !== undefined) input.negative_prompt = values.negative;
  const seed = numberValue('seed', values.seed);
  const steps = numberValue('steps', values.steps);
  const flow = numberValue('flow-shift', values['flow-shift']);
  if (seed !== undefined) {
    if (!Number.isInteger(seed)) throw new UsageError('--seed must be a whole number');
    input.seed = seed;
  }
  if (steps !== undefined) {
    if (!Number.isInteger(steps)) throw new UsageError('--steps must be a whole number');
    input.steps = steps;
  }
  if (flow !== undefined) input.flow_shift = flow;
  return {
    draft: entryDraft('qwen-image/image-edit', input),
    common: values,
    positionals,
  };
}

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

/** The kinds of create, by the word after `create`. */
const KINDS: Record<string, (argv: readonly string[]) => KindArgs> = {
  audio: audioArgs,
  'face-swap': faceSwapArgs,
  'image-edit': imageEditArgs,
  raw: rawArgs,
  extend: extendArgs,
  'song-edit': songEditArgs,
  remix: remixArgs,
  upscale: upscaleArgs,
  'background-remove': backgroundRemoveArgs,
  segment: segmentArgs,
};

/** What a create queues: one draft, or the drafts of a batch (`--variants`, `--target-dir`). */
export interface CreatePlan {
  drafts: TaskDraft[];
  batch: boolean;
  wait: boolean;
  acceptUnknownPrice: boolean;
  complete: ((engine: TaskEngine, draft: TaskDraft) => void) | null;
}

export function planFromCreateArgs(kind: string | undefined, argv: readonly string[]): CreatePlan {
  const read = kind === undefined ? undefined : KINDS[kind];
  if (!read) throw new UsageError(`create what? ${Object.keys(KINDS).join(', ')}`);
  const args = read(argv);
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
  return {
    drafts: variants === null ? drafts : variantDrafts(draft, variants),
    batch: args.batch !== undefined || variants !== null,
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
  const sweep = draft.taskType === 'image-edit';
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
  const session = await openSession(g, env);
  try {
    const { engine } = session;
    if (plan.wait && !engine.status().serviceConfigured) {
      throw new UsageError(
        '--wait needs a service: set MEDIA_TASK_API_KEY and --base-url, or pass --sandbox',
      );
    }
    for (const draft of plan.drafts) {
      localFromIds(engine, draft);
      plan.complete?.(engine, draft);
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
    const status = engine.status();
    report(g, tasks, status, note, batchId);
    return outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}
