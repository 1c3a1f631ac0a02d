/**
 * Taking in what the user composes: the draft checked field by field, previous results resolved
 * (output-inputs.ts), local files and Base64 checked and kept as library input files (one per
 * content: input-files.ts), so the queue survives the original being moved and no task row
 * carries a whole picture, the budget checked, and the task queued locally, online or not. A
 * batch is all of that for many drafts: every one checked, the budget checked for all together,
 * then all recorded in one transaction, or none.
 */
import { randomUUID } from 'node:crypto';
import type { BatchPlace, TaskDraft } from '../../../shared/index.ts';
import {
  BATCH_MAX_DRAFTS,
  familyOf,
  type MediaFacts,
  type MediaFactsByField,
  type Task,
  type TaskInput,
  type TaskTypeEntry,
} from '../../../shared/index.ts';
import {
  type InputRule,
  InputValidationError,
  type ValidatedInput,
  validateInput,
} from '../../inputs/index.ts';
import type { LibraryStore, NewTask } from '../../store/index.ts';
import { isoNow } from '../engine-clock.ts';
import { assertOpen, type EngineContext } from '../engine-context.ts';
import { BudgetExceededError, PriceUnknownError } from '../engine-errors.ts';
import type { InputHold } from './input-files.ts';
import { madeFromFiles } from './made-from.ts';
import { resolveOutputRefs } from './output-inputs.ts';
import { requestForProfile } from './profile-request.ts';
import {
  checkDraftFields,
  entryOfDraft,
  estimateDraftCost,
  mediaFieldsOf,
  titleOf,
  webhookToSend,
} from './task-drafts.ts';

/** The library setting that holds the budget. */
const BUDGET_SETTING = 'budgetMicros';

/** A media field's value once checked: an input the library already records, or a validated value. */
type CheckedValue = { known: TaskInput } | { validated: ValidatedInput; text: string };

/** A draft checked in full (fields, media, lineage, price), nothing written yet. */
interface CheckedDraft {
  draft: TaskDraft;
  /** The catalog entry of its model and task type; undefined for a pair the catalog does not know. */
  entry: TaskTypeEntry | undefined;
  model: string;
  input: Record<string, unknown>;
  checked: CheckedValue[];
  estimateMicros: number | null;
  /** Why the price is what it is (or unknown), for the question asked under a budget. */
  priceWords: string;
  parentId: string | null;
  parentOutput: number | null;
  /** How previous results are sent, for the task's first event. */
  notes: string[];
}

/**
 * Validates a draft and queues it locally. Always succeeds offline; local files and Base64 are
 * checked (magic bytes, dimensions, size) and kept in the library's input folder, and the
 * request names the library file (`{ $file: <library path> }`) instead. A previous result
 * (`{ $output }`) is sent as its service URL or its library file (output-inputs.ts).
 */
export async function queueTask(ctx: EngineContext, draft: TaskDraft): Promise<Task> {
  assertOpen(ctx);
  const { events, inputFiles, loop, store } = ctx;
  const hold = inputFiles.hold();
  let queued = false;
  try {
    const checked = await checkDraft(ctx, draft, hold);
    checkBudget(store, [checked], draft.acceptUnknownPrice === true);
    const task = store.insertTask(await newTaskOf(ctx, checked, hold, null));
    queued = true;
    events.changed(task);
    loop.kick();
    return task;
  } finally {
    hold.release();
    // files written for a task that was not queued go, unless another task uses them
    if (!queued) await inputFiles.removeUnused(hold.paths).catch(() => []);
  }
}

/**
 * Queues every draft as one batch, or none: each draft is checked first (a refusal names it:
 * `draft 3 of 12: …`), then the total price against the budget, then the input files are kept
 * and all tasks recorded in one transaction.
 */
export async function queueBatch(
  ctx: EngineContext,
  drafts: readonly TaskDraft[],
  options: {
    acceptUnknownPrice?: boolean;
    /** Runs in the transaction that records the tasks, before them: it may refuse (throw). */
    beforeInsert?: () => void;
  } = {},
): Promise<{ batchId: string; tasks: Task[] }> {
  assertOpen(ctx);
  if (drafts.length < 1 || drafts.length > BATCH_MAX_DRAFTS) {
    throw new InputValidationError(
      'drafts',
      `drafts: a batch takes 1 to ${BATCH_MAX_DRAFTS} drafts (got ${drafts.length})`,
    );
  }
  const { events, inputFiles, loop, store } = ctx;
  const batchId = randomUUID();
  const hold = inputFiles.hold();
  let queued = false;
  const each = async <T>(fn: (draft: TaskDraft, i: number) => Promise<T> | T): Promise<T[]> => {
    const out: T[] = [];
    for (const [i, draft] of drafts.entries()) {
      try {
        out.push(await fn(draft, i));
      } catch (err) {
        throw namingDraft(err, i, drafts.length);
      }
    }
    return out;
  };
  try {
    const checked = await each((draft) => checkDraft(ctx, draft, hold));
    const accepted = checked.map(
      (c) => options.acceptUnknownPrice === true || c.draft.acceptUnknownPrice === true,
    );
    checkBudget(store, checked, accepted);
    const rows = await each((_, i) =>
      newTaskOf(ctx, checked[i] as CheckedDraft, hold, batchId, { index: i + 1, count: drafts.length }),
    );
    const tasks = store.transaction(() => {
      options.beforeInsert?.();
      return rows.map((row, i) => {
        try {
          return store.insertTask(row);
        } catch (err) {
          throw namingDraft(err, i, rows.length);
        }
      });
    });
    queued = true;
    for (const task of tasks) events.changed(task);
    loop.kick();
    return { batchId, tasks };
  } finally {
    hold.release();
    if (!queued) await inputFiles.removeUnused(hold.paths).catch(() => []);
  }
}

/** The error of draft `i` of `n`, its message starting `draft i+1 of n: ` (its kind and field kept). */
function namingDraft(err: unknown, i: number, n: number): unknown {
  if (err instanceof Error) err.message = `draft ${i + 1} of ${n}: ${err.message}`;
  return err;
}

/**
 * Checks one draft in full without writing anything: previous results resolved, the fields
 * against the catalog, each media value (local files and Base64 read and checked; a library input
 * file a re-run names taken from its record and held by `hold`), and its price.
 */
async function checkDraft(ctx: EngineContext, draft: TaskDraft, hold: InputHold): Promise<CheckedDraft> {
  const outputs = resolveOutputRefs(ctx, draft);
  const resolved: TaskDraft = {
    ...draft,
    input: outputs.input,
    webhook: webhookToSend(ctx.store, draft.webhook),
  };
  const entry = entryOfDraft(resolved, ctx.connection.profile);
  checkDraftFields(resolved, entry);
  const sent = requestForProfile(resolved, ctx.connection.profile, entry);
  const input = sent.input;
  const checked: CheckedValue[] = [];
  for (const media of mediaFieldsOf(entry)) {
    const value = input[media.field];
    if (typeof value !== 'string' || value.trim() === '') {
      delete input[media.field];
      continue;
    }
    const text = value.trim();
    const rule: InputRule = {
      field: media.field,
      kind: media.kind,
      faceSwap: media.faceSwap ?? false,
      ...(media.limits ? { limits: media.limits } : {}),
    };
    const known = await ctx.inputFiles.knownInput(text, rule, hold);
    checked.push(known ? { known } : { validated: await validateInput(text, rule), text });
  }
  const estimate = estimateDraftCost(resolved, ctx.connection.profile, mediaFactsOf(checked));
  return {
    draft: resolved,
    entry,
    model: sent.model,
    input,
    checked,
    estimateMicros: estimate.micros,
    priceWords: estimate.explanation,
    parentId: outputs.parentId,
    parentOutput: outputs.parentOutput,
    notes: outputs.notes,
  };
}

/** What the checked media inputs say of their contents, by field: a picture's size, a video's frames (for a price per megapixel or frame). */
function mediaFactsOf(checked: readonly CheckedValue[]): MediaFactsByField {
  const facts: Record<string, MediaFacts> = {};
  for (const c of checked) {
    const input = 'known' in c ? c.known : c.validated;
    const fact: MediaFacts = {};
    if ('width' in input) fact.width = input.width ?? null;
    if ('height' in input) fact.height = input.height ?? null;
    if ('frames' in input) fact.frames = input.frames ?? null;
    facts[input.field] = fact;
  }
  return facts;
}

/** The new task of a checked draft, its local files and Base64 kept as library files (held by `hold`). */
async function newTaskOf(
  ctx: EngineContext,
  c: CheckedDraft,
  hold: InputHold,
  batchId: string | null,
  batchPlace?: BatchPlace,
): Promise<NewTask> {
  const { draft, input } = c;
  const kept = await keepInputs(ctx, c.checked, hold);
  // a file the app made, given as an input, records the task it came from ("made from")
  const madeFrom =
    c.parentId === null
      ? await madeFromFiles(
          ctx,
          c.checked.map((v) => ('validated' in v ? v.validated : null)),
          kept,
        )
      : null;
  const parentId = madeFrom?.parentId ?? c.parentId;
  const parentOutput = madeFrom?.parentOutput ?? c.parentOutput;
  const inputs = namedAsInParent(ctx, kept, c.parentId);
  for (const inp of inputs) if (inp.source === 'file') input[inp.field] = { $file: inp.value };
  const config = draft.webhook?.endpoint
    ? { webhook_config: { endpoint: draft.webhook.endpoint, secret: draft.webhook.secret ?? '' } }
    : undefined;
  const estimate = ctx.estimates.estimateFor(c.model, draft.taskType, input, c.entry);
  return {
    id: randomUUID(),
    model: c.model,
    taskType: draft.taskType,
    entryId: c.entry?.id ?? null,
    family: familyOf(c.entry),
    title: titleOf(draft),
    request: { model: c.model, task_type: draft.taskType, input, ...(config ? { config } : {}) },
    inputs,
    estimateMicros: c.estimateMicros,
    expectedMs: Math.round(estimate.expectedMs),
    parentId,
    parentOutput,
    batchId,
    ...(batchPlace ? { batchPlace } : {}),
    queuedDetail: c.notes.length > 0 ? c.notes.join('; ') : null,
    createdAt: isoNow(ctx.clock),
  };
}

/** The task inputs of the checked values, each file kept in the library (and held by `hold`). */
async function keepInputs(
  ctx: EngineContext,
  checked: readonly CheckedValue[],
  hold: InputHold,
): Promise<TaskInput[]> {
  const inputs: TaskInput[] = [];
  for (const c of checked) {
    inputs.push('known' in c ? c.known : await ctx.inputFiles.keep(c.validated, c.text, hold));
  }
  return inputs;
}

/**
 * A library copy a draft names (a re-run's) is called what its parent task called it: the same
 * bytes may have come under several names, and the record found by content is any task's.
 */
function namedAsInParent(ctx: EngineContext, inputs: TaskInput[], parentId: string | null): TaskInput[] {
  const parent = parentId ? ctx.store.getTask(parentId) : null;
  if (!parent) return inputs;
  return inputs.map((inp) => {
    const same = parent.inputs.find((p) => p.source === 'file' && p.value === inp.value && p.name);
    return inp.source === 'file' && same ? { ...inp, name: same.name } : inp;
  });
}

/** Budget in micro-dollars, or null for none. */
export function readBudget(store: LibraryStore): number | null {
  return store.getSetting<number>(BUDGET_SETTING);
}

export function writeBudget(store: LibraryStore, micros: number | null): void {
  if (micros !== null && (!Number.isFinite(micros) || micros < 0)) {
    throw new InputValidationError('budget', 'budget: must be a positive amount');
  }
  store.setSetting(BUDGET_SETTING, micros);
}

const usd = (m: number) => `$${(m / 1_000_000).toFixed(4).replace(/0{1,2}$/, '')}`;

/**
 * Throws when the drafts together would take the money spent past the budget, or when one has no
 * published price and the user did not accept that (`accepted`: for all, or per draft).
 */
function checkBudget(
  store: LibraryStore,
  drafts: readonly CheckedDraft[],
  accepted: boolean | boolean[],
): void {
  const budget = readBudget(store);
  if (budget === null) return;
  for (const [i, c] of drafts.entries()) {
    const ok = Array.isArray(accepted) ? accepted[i] === true : accepted;
    if (c.estimateMicros === null && !ok) {
      // an unknown price never counts as $0 against a budget: the user decides
      const why = c.entry?.price
        ? `the price of ${c.draft.taskType} is not known before it runs (${c.priceWords})`
        : `the service publishes no price for ${c.draft.taskType}`;
      const problem = new PriceUnknownError(
        `${why}, so the app cannot tell whether it fits your budget; confirm to queue it anyway`,
      );
      throw drafts.length > 1 ? namingDraft(problem, i, drafts.length) : problem;
    }
  }
  const spent = store.costSummary().spentMicros;
  const next = drafts.reduce((sum, c) => sum + (c.estimateMicros ?? 0), 0);
  if (spent + next > budget) {
    const what = drafts.length > 1 ? `this batch of ${drafts.length} tasks` : 'this task';
    throw new BudgetExceededError(
      `${what} (${usd(next)}) would take the total to ${usd(spent + next)}, over your budget of ${usd(budget)}; raise the budget in Settings to queue ${drafts.length > 1 ? 'them' : 'it'}`,
    );
  }
}
