/**
 * `media-task create audio | face-swap | image-edit | raw`: a task draft from the command line,
 * queued in the library and sent; with --wait, followed until it ends.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TaskDraft } from '../main/engine/index.ts';
import { FINAL_STATES, modelIdProblem, type Task, type TaskState, taskTypeEntry } from '../shared/index.ts';
import { type ArgValues, FLAG, noPositionals, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import type { GlobalOptions } from './global-options.ts';
import { readInputFile } from './input-file.ts';
import { openSession } from './task-session.ts';
import { outcomeCode, report, waitForStates } from './task-waiting.ts';

/** The options every kind of create takes. */
const CREATE_COMMON = {
  model: VALUE,
  title: VALUE,
  'webhook-url': VALUE,
  'webhook-secret': VALUE,
  wait: FLAG,
  'accept-unknown-price': FLAG,
} as const;

/** A CLI value for a media field: URLs and Base64 as given, anything that names a file made absolute. */
function mediaValue(raw: string): string {
  if (/^https?:\/\//i.test(raw) || raw.startsWith('data:')) return raw;
  const abs = resolve(raw);
  if (existsSync(abs) || /[\\/]/.test(raw) || /\.[A-Za-z0-9]{2,5}$/.test(raw)) return abs;
  return raw;
}

function required(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** The draft of one kind of create, with the options every kind takes. */
interface KindArgs {
  draft: TaskDraft;
  common: ArgValues<typeof CREATE_COMMON>;
  positionals: string[];
}

function audioArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    style: VALUE,
    negative: VALUE,
    'lyrics-file': VALUE,
    duration: VALUE,
    reference: VALUE,
  });
  const input: Record<string, unknown> = {
    style_prompt: values.style ?? '',
    duration: numberValue('duration', values.duration) ?? 30,
  };
  if (values.negative !== undefined) input.negative_prompt = values.negative;
  if (values['lyrics-file']) input.lyrics = readInputFile('lyrics-file', values['lyrics-file']);
  if (values.reference) input.style_audio = mediaValue(values.reference);
  return {
    draft: { model: catalogModel('txt2audio'), taskType: 'txt2audio', input },
    common: values,
    positionals,
  };
}

function faceSwapArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, { ...CREATE_COMMON, target: VALUE, swap: VALUE });
  const draft: TaskDraft = {
    model: catalogModel('face-swap'),
    taskType: 'face-swap',
    input: {
      target_image: mediaValue(required('target', values.target)),
      swap_image: mediaValue(required('swap', values.swap)),
    },
  };
  return { draft, common: values, positionals };
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
  });
  const input: Record<string, unknown> = {
    image1: mediaValue(required('image1', values.image1)),
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
    draft: { model: catalogModel('image-edit'), taskType: 'image-edit', input },
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

export function draftFromCreateArgs(
  kind: string | undefined,
  argv: readonly string[],
): { draft: TaskDraft; wait: boolean } {
  let args: KindArgs;
  switch (kind) {
    case 'audio':
      args = audioArgs(argv);
      break;
    case 'face-swap':
      args = faceSwapArgs(argv);
      break;
    case 'image-edit':
      args = imageEditArgs(argv);
      break;
    case 'raw':
      args = rawArgs(argv);
      break;
    default:
      throw new UsageError('create what? audio, face-swap, image-edit or raw');
  }
  const { draft, common } = args;
  noPositionals(args.positionals);
  if (common.model !== undefined) draft.model = modelOption(common.model);
  if (common.title) draft.title = common.title;
  if (common['accept-unknown-price']) draft.acceptUnknownPrice = true;
  const hook = common['webhook-url'];
  if (hook) draft.webhook = { endpoint: hook, secret: common['webhook-secret'] ?? '' };
  return { draft, wait: common.wait === true };
}

/** The catalog's model name of a task type (the profile adds the vendor). */
function catalogModel(taskType: string): string {
  return taskTypeEntry(taskType)?.modelName ?? taskType;
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
  const { draft, wait } = draftFromCreateArgs(kind, rest);
  const session = await openSession(g, env);
  try {
    if (wait && !session.engine.status().serviceConfigured) {
      throw new UsageError(
        '--wait needs a service: set MEDIA_TASK_API_KEY and --base-url, or pass --sandbox',
      );
    }
    const task = await session.engine.queueTask(draft);
    let note: string | undefined;
    let tasks: Task[];
    if (!session.engine.status().serviceConfigured) {
      tasks = [task];
      note =
        'queued locally: no service is set up; it will be sent when the app or `media-task watch` runs with one';
    } else if (wait) {
      tasks = await waitForStates(session.engine, [task.id], [...FINAL_STATES, 'uncertain'], false);
    } else {
      tasks = await waitForStates(session.engine, [task.id], SETTLED_AFTER_SUBMIT, true);
      if (tasks[0]?.state === 'queued' && !session.engine.status().authProblem)
        note = 'queued: the service cannot be reached now; it will be sent later';
    }
    const status = session.engine.status();
    report(g, tasks, status, note);
    return outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}
