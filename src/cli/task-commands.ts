/**
 * The task commands of `media-task`: create, get, list, watch, export, import. Each opens the
 * engine on the library, does its work, and closes it (tasks left running resume next time).
 * Long because the six commands share their session, waiting and reporting code; moving each
 * command to its own file is planned with the code-structure issue (issue 10).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EngineStatus, exportTasks, type TaskDraft, TaskEngine } from '../main/engine/index.ts';
import { type Sandbox, startSandbox } from '../sandbox/index.ts';
import {
  ENGINE_WORK_STATES,
  FINAL_STATES,
  isTaskState,
  modelIdProblem,
  type Task,
  type TaskState,
  taskTypeEntry,
} from '../shared/index.ts';
import { numberOption, type ParsedArgs, parseArgs, UsageError } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import { apiKeyFromEnv, type GlobalOptions, profileOfOptions } from './global-options.ts';
import { readInputFile } from './input-file.ts';
import { checkLibraryFolder } from './library-folder-check.ts';
import { printJson, taskLine } from './task-printing.ts';

interface Session {
  engine: TaskEngine;
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

async function openSession(g: GlobalOptions, env: NodeJS.ProcessEnv): Promise<Session> {
  const sandbox = g.sandbox
    ? await startSandbox({ apiKey: 'demo-key', timeScale: g.timeScale ?? 0.1 })
    : null;
  const profile = profileOfOptions(g, sandbox?.url ?? null);
  const key = sandbox ? 'demo-key' : apiKeyFromEnv(env);
  const service = key ? { baseUrl: profile.baseUrl, apiKey: key, uploadUrl: profile.uploadUrl } : null;
  let engine: TaskEngine;
  try {
    checkLibraryFolder(g.library);
    engine = await TaskEngine.open({ libraryDir: g.library, service, profile });
  } catch (err) {
    await sandbox?.stop();
    throw err;
  }
  return {
    engine,
    sandbox,
    async close() {
      await engine.close();
      await sandbox?.stop();
    },
  };
}

const CREATE_COMMON_VALUES = ['title', 'webhook-url', 'webhook-secret'] as const;

/** A CLI value for a media field: URLs and Base64 as given, anything that names a file made absolute. */
function mediaValue(raw: string): string {
  if (/^https?:\/\//i.test(raw) || raw.startsWith('data:')) return raw;
  const abs = resolve(raw);
  if (existsSync(abs) || /[\\/]/.test(raw) || /\.[A-Za-z0-9]{2,5}$/.test(raw)) return abs;
  return raw;
}

function required(args: ParsedArgs, name: string): string {
  const v = args.values.get(name);
  if (v === undefined || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function draftFromCreateArgs(
  kind: string | undefined,
  argv: string[],
): { draft: TaskDraft; wait: boolean } {
  const common = { values: [...CREATE_COMMON_VALUES, 'model'], flags: ['wait', 'accept-unknown-price'] };
  let args: ParsedArgs;
  let draft: TaskDraft;
  switch (kind) {
    case 'audio': {
      args = parseArgs(argv, {
        values: [...common.values, 'style', 'negative', 'lyrics-file', 'duration', 'reference'],
        flags: common.flags,
      });
      const input: Record<string, unknown> = {
        style_prompt: args.values.get('style') ?? '',
        duration: numberOption(args, 'duration') ?? 30,
      };
      if (args.values.has('negative')) input.negative_prompt = args.values.get('negative');
      const lyricsFile = args.values.get('lyrics-file');
      if (lyricsFile) input.lyrics = readInputFile('lyrics-file', lyricsFile);
      const ref = args.values.get('reference');
      if (ref) input.style_audio = mediaValue(ref);
      draft = { model: catalogModel('txt2audio'), taskType: 'txt2audio', input };
      break;
    }
    case 'face-swap': {
      args = parseArgs(argv, { values: [...common.values, 'target', 'swap'], flags: common.flags });
      draft = {
        model: catalogModel('face-swap'),
        taskType: 'face-swap',
        input: {
          target_image: mediaValue(required(args, 'target')),
          swap_image: mediaValue(required(args, 'swap')),
        },
      };
      break;
    }
    case 'image-edit': {
      args = parseArgs(argv, {
        values: [
          ...common.values,
          'image1',
          'image2',
          'image3',
          'prompt',
          'negative',
          'seed',
          'steps',
          'flow-shift',
        ],
        flags: common.flags,
      });
      const input: Record<string, unknown> = {
        image1: mediaValue(required(args, 'image1')),
        prompt: required(args, 'prompt'),
      };
      for (const f of ['image2', 'image3'] as const) {
        const v = args.values.get(f);
        if (v) input[f] = mediaValue(v);
      }
      if (args.values.has('negative')) input.negative_prompt = args.values.get('negative');
      const seed = numberOption(args, 'seed');
      const steps = numberOption(args, 'steps');
      const flow = numberOption(args, 'flow-shift');
      if (seed !== undefined) {
        if (!Number.isInteger(seed)) throw new UsageError('--seed must be a whole number');
        input.seed = seed;
      }
      if (steps !== undefined) {
        if (!Number.isInteger(steps)) throw new UsageError('--steps must be a whole number');
        input.steps = steps;
      }
      if (flow !== undefined) input.flow_shift = flow;
      draft = { model: catalogModel('image-edit'), taskType: 'image-edit', input };
      break;
    }
    case 'raw': {
      args = parseArgs(argv, {
        values: [...common.values, 'task-type', 'input-json'],
        flags: common.flags,
      });
      const file = required(args, 'input-json');
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
      draft = {
        model: required(args, 'model'),
        taskType: required(args, 'task-type'),
        input: input as Record<string, unknown>,
      };
      break;
    }
    default:
      throw new UsageError('create what? audio, face-swap, image-edit or raw');
  }
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const model = args.values.get('model');
  if (model !== undefined) draft.model = modelOption(model);
  const title = args.values.get('title');
  if (title) draft.title = title;
  if (args.flags.has('accept-unknown-price')) draft.acceptUnknownPrice = true;
  const hook = args.values.get('webhook-url');
  if (hook) draft.webhook = { endpoint: hook, secret: args.values.get('webhook-secret') ?? '' };
  return { draft, wait: args.flags.has('wait') };
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

const SETTLED_AFTER_SUBMIT: readonly TaskState[] = [
  'pending',
  'staged',
  'processing',
  'completed',
  'downloading',
  ...FINAL_STATES,
  'uncertain',
];

/**
 * Waits until every task is in one of `states`, or the service refuses the key. With
 * `giveUpOffline`, also stops waiting once the engine has found the service unreachable.
 */
function waitForStates(
  engine: TaskEngine,
  ids: readonly string[],
  states: readonly TaskState[],
  giveUpOffline: boolean,
): Promise<Task[]> {
  return new Promise((resolvePromise) => {
    const read = () => ids.map((id) => engine.store.getTask(id)).filter((t): t is Task => t !== null);
    let finished = false;
    let warnedOffline = false;
    let warnedStorage = false;
    const check = () => {
      if (finished) return;
      const tasks = read();
      const status: EngineStatus = engine.status();
      const done = tasks.every((t) => states.includes(t.state));
      if (done || status.authProblem || (giveUpOffline && !status.online) || !status.serviceConfigured) {
        finish();
      } else if (status.storageProblem && !warnedStorage) {
        // the engine waits for room and goes on by itself; so does this command
        warnedStorage = true;
        process.stderr.write(`media-task: ${status.storageProblem} Still waiting (Ctrl-C stops waiting).\n`);
      } else if (!status.online && !warnedOffline) {
        warnedOffline = true;
        process.stderr.write(
          'media-task: the service cannot be reached; still waiting (Ctrl-C stops waiting; the task stays queued and is sent later)\n',
        );
      }
    };
    // Ctrl-C stops waiting; the caller then closes the engine properly, so a create being sent
    // settles first instead of being cut off (which would leave the task uncertain)
    const finish = () => {
      if (finished) return;
      finished = true;
      offChanges();
      offStatus();
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      // the engine reports a refused key or an unreachable service just before it moves the
      // task back to queued: read the tasks again once that synchronous step is done
      setImmediate(() => resolvePromise(read()));
    };
    const offChanges = engine.onTaskChanges(check);
    const offStatus = engine.onStatus(check);
    process.on('SIGINT', finish);
    process.on('SIGTERM', finish);
    check();
  });
}

/** The engine's wording points at the app's Settings; on the command line the key is an environment variable. */
const CLI_AUTH_PROBLEM = 'the service refused the API key; check MEDIA_TASK_API_KEY';

function outcomeCode(tasks: readonly Task[], status: EngineStatus): number {
  if (status.authProblem) return EXIT.auth;
  if (tasks.some((t) => t.state === 'failed' && t.error?.kind === 'plan-refused')) return EXIT.planRefused;
  if (tasks.some((t) => ['failed', 'uncertain', 'expired'].includes(t.state))) return EXIT.serviceFailure;
  return EXIT.ok;
}

function report(g: GlobalOptions, tasks: readonly Task[], status: EngineStatus, note?: string): void {
  if (g.json) {
    printJson({ tasks, status });
    return;
  }
  for (const t of tasks) process.stdout.write(`${taskLine(t)}\n`);
  if (status.authProblem) process.stderr.write(`media-task: ${CLI_AUTH_PROBLEM}\n`);
  if (note) process.stderr.write(`${note}\n`);
}

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

function findTask(engine: TaskEngine, id: string): Task {
  const task = engine.store.getTask(id) ?? engine.store.getTaskByRemoteId(id);
  if (!task) throw new UsageError(`no task "${id}" in the library`);
  return task;
}

export async function runGet(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseArgs(argv, {});
  const id = args.positionals[0];
  if (!id || args.positionals.length > 1) throw new UsageError('usage: media-task get ID');
  const session = await openSession({ ...g, sandbox: false }, env);
  try {
    const task = findTask(session.engine, id);
    if (g.json) printJson({ task, events: session.engine.store.events(task.id) });
    else process.stdout.write(`${taskLine(task)}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function runList(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseArgs(argv, {
    values: ['state', 'type', 'search', 'limit'],
    flags: ['favorite', 'starred-first'],
  });
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const state = args.values.get('state');
  const states = state?.split(',').map((s) => s.trim());
  for (const s of states ?? []) if (!isTaskState(s)) throw new UsageError(`--state: unknown state "${s}"`);
  const limit = numberOption(args, 'limit') ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit must be 1 to 200');
  const session = await openSession({ ...g, sandbox: false }, env);
  try {
    const page = session.engine.store.listTasks({
      states: states as TaskState[] | undefined,
      taskType: args.values.get('type'),
      search: args.values.get('search'),
      favorite: args.flags.has('favorite') ? true : undefined,
      order: args.flags.has('starred-first') ? 'starredFirst' : 'newest',
      limit,
    });
    if (g.json) printJson(page);
    else {
      for (const t of page.items) process.stdout.write(`${taskLine(t)}\n`);
      if (page.items.length === 0) process.stderr.write('no tasks match\n');
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function runWatch(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseArgs(argv, { flags: ['until-idle'] });
  const untilIdle = args.flags.has('until-idle');
  const session = await openSession(g, env);
  const { engine } = session;
  const printTask = (task: Task) => {
    if (g.json) process.stdout.write(`${JSON.stringify({ event: 'task', task })}\n`);
    else process.stdout.write(`${taskLine(task)}\n`);
  };
  const printStatus = (status: EngineStatus) => {
    if (g.json) process.stdout.write(`${JSON.stringify({ event: 'status', status })}\n`);
    else {
      const problem = status.authProblem
        ? `, ${CLI_AUTH_PROBLEM}`
        : status.storageProblem
          ? `, ${status.storageProblem}`
          : '';
      process.stderr.write(`status: ${status.online ? 'online' : 'offline'}${problem}\n`);
    }
  };
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const checkIdle = () => {
    if (!untilIdle) return;
    const status = engine.status();
    if (status.authProblem || !status.serviceConfigured) stop();
    else if (engine.store.countInStates(ENGINE_WORK_STATES) === 0) stop();
  };
  // listeners stay subscribed until the engine is closed, so its last batch is printed too
  const offChanges = engine.onTaskChanges((batch) => {
    for (const change of batch) if (change.task) printTask(change.task);
    checkIdle();
  });
  const offStatus = engine.onStatus((status) => {
    printStatus(status);
    checkIdle();
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    checkIdle();
    await stopped;
    const status = engine.status();
    if (!status.serviceConfigured) {
      process.stderr.write(
        'media-task: no service is set up, so nothing can be sent (set MEDIA_TASK_API_KEY and --base-url)\n',
      );
    }
    return status.authProblem ? EXIT.auth : EXIT.ok;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await session.close();
    offChanges();
    offStatus();
  }
}

export async function runExport(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseArgs(argv, {});
  const [dir, ...ids] = args.positionals;
  if (!dir) throw new UsageError('usage: media-task export DIR [IDS...]');
  const session = await openSession({ ...g, sandbox: false }, env);
  try {
    const store = session.engine.store;
    let tasks: Task[];
    if (ids.length) tasks = ids.map((id) => findTask(session.engine, id));
    else {
      tasks = [];
      let cursor: string | null = null;
      do {
        const page = store.listTasks({ limit: 200, cursor });
        for (const item of page.items) {
          const full = store.getTask(item.id);
          if (full) tasks.push(full);
        }
        cursor = page.nextCursor;
      } while (cursor);
    }
    const result = await exportTasks(session.engine.libraryDir, tasks, dir);
    if (g.json) printJson(result);
    else process.stdout.write(`exported ${result.tasks.length} task(s) to ${result.folder}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function runImport(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseArgs(argv, { flags: ['wait'] });
  const id = args.positionals[0];
  if (!id || args.positionals.length > 1) throw new UsageError('usage: media-task import TASK_ID [--wait]');
  const session = await openSession(g, env);
  try {
    if (!session.engine.status().serviceConfigured) {
      throw new UsageError('import needs a service: set MEDIA_TASK_API_KEY and --base-url');
    }
    const task = await session.engine.importRemote(id);
    const tasks = args.flags.has('wait')
      ? await waitForStates(session.engine, [task.id], [...FINAL_STATES, 'uncertain'], false)
      : [task];
    const status = session.engine.status();
    report(g, tasks, status);
    return outcomeCode(tasks, status);
  } finally {
    await session.close();
  }
}
