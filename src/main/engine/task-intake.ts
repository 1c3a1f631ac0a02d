/**
 * Taking in what the user composes: the draft checked field by field, local files and Base64
 * checked and kept as library input files (one per content: input-files.ts), so the queue
 * survives the original being moved and no task row carries a whole picture, the budget
 * checked, and the task queued locally, online or not.
 */
import { randomUUID } from 'node:crypto';
import { familyOf, type Task, type TaskInput } from '../../shared/index.ts';
import { type InputRule, InputValidationError, type ValidatedInput, validateInput } from '../media/index.ts';
import type { LibraryStore } from '../store/index.ts';
import { isoNow } from './engine-clock.ts';
import { assertOpen, type EngineContext } from './engine-context.ts';
import { BudgetExceededError, PriceUnknownError } from './engine-errors.ts';
import type { InputHold } from './input-files.ts';
import { requestForProfile } from './profile-request.ts';
import {
  checkDraftFields,
  estimateDraftCost,
  mediaFieldsOf,
  type TaskDraft,
  titleOf,
} from './task-drafts.ts';

/** The library setting that holds the budget. */
const BUDGET_SETTING = 'budgetMicros';

/** A media field's value once checked: an input the library already records, or a validated value. */
type CheckedValue = { known: TaskInput } | { validated: ValidatedInput; text: string };

/**
 * Validates a draft and queues it locally. Always succeeds offline; local files and Base64 are
 * checked (magic bytes, dimensions, size) and kept in the library's input folder, and the
 * request names the library file (`{ $file: <library path> }`) instead.
 */
export async function queueTask(ctx: EngineContext, draft: TaskDraft): Promise<Task> {
  assertOpen(ctx);
  checkDraftFields(draft);
  const { clock, connection, events, inputFiles, loop, store } = ctx;
  const id = randomUUID();
  const sent = requestForProfile(draft, connection.profile);
  const input = sent.input;
  const hold = inputFiles.hold();
  let queued = false;
  try {
    const checked: CheckedValue[] = [];
    for (const media of mediaFieldsOf(draft.taskType)) {
      const value = input[media.field];
      if (typeof value !== 'string' || value.trim() === '') {
        delete input[media.field];
        continue;
      }
      const text = value.trim();
      const rule: InputRule = { field: media.field, kind: media.kind, faceSwap: media.faceSwap ?? false };
      const known = await inputFiles.knownInput(text, rule, hold);
      checked.push(known ? { known } : { validated: await validateInput(text, rule), text });
    }
    const estimateMicros = estimateDraftCost(draft);
    checkBudget(store, estimateMicros, draft.acceptUnknownPrice === true, draft.taskType);
    const inputs = await keepInputs(ctx, checked, hold);
    for (const inp of inputs) if (inp.source === 'file') input[inp.field] = { $file: inp.value };
    const config = draft.webhook?.endpoint
      ? { webhook_config: { endpoint: draft.webhook.endpoint, secret: draft.webhook.secret ?? '' } }
      : undefined;
    const estimate = ctx.estimates.estimateFor(sent.model, draft.taskType, input);
    const task = store.insertTask({
      id,
      model: sent.model,
      taskType: draft.taskType,
      family: familyOf(draft.taskType),
      title: titleOf(draft),
      request: { model: sent.model, task_type: draft.taskType, input, ...(config ? { config } : {}) },
      inputs,
      estimateMicros,
      expectedMs: Math.round(estimate.expectedMs),
      rerunOf: draft.rerunOf ?? null,
      createdAt: isoNow(clock),
    });
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

/** Throws when a task estimated at `estimate` would take the money spent past the budget. */
function checkBudget(
  store: LibraryStore,
  estimate: number | null,
  acceptUnknownPrice: boolean,
  taskType: string,
): void {
  const budget = readBudget(store);
  if (budget === null) return;
  if (estimate === null && !acceptUnknownPrice) {
    // an unknown price never counts as $0 against a budget: the user decides
    throw new PriceUnknownError(
      `the service publishes no price for ${taskType}, so the app cannot tell whether it fits your budget; confirm to queue it anyway`,
    );
  }
  const spent = store.costSummary().spentMicros;
  const next = estimate ?? 0;
  if (spent + next > budget) {
    const usd = (m: number) => `$${(m / 1_000_000).toFixed(4).replace(/0{1,2}$/, '')}`;
    throw new BudgetExceededError(
      `this task (${usd(next)}) would take the total to ${usd(spent + next)}, over your budget of ${usd(budget)}; raise the budget in Settings to queue it`,
    );
  }
}
