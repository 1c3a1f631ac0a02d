/**
 * Taking in what the user composes: the draft checked field by field, local files checked and
 * copied into the library (so the queue survives the original being moved), the budget checked,
 * and the task queued locally, online or not.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { familyOf, type Task, type TaskInput } from '../../shared/index.ts';
import {
  copyIntoLibrary,
  ensureFolderBelow,
  InputValidationError,
  type ValidatedInput,
  validateInput,
} from '../media/index.ts';
import type { LibraryStore } from '../store/index.ts';
import { isoNow } from './engine-clock.ts';
import { assertOpen, type EngineContext } from './engine-context.ts';
import { BudgetExceededError, PriceUnknownError } from './engine-errors.ts';
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

/**
 * Validates a draft and queues it locally. Always succeeds offline; local files are checked
 * (magic bytes, dimensions, size) and copied into the library so the queue survives the
 * original being moved.
 */
export async function queueTask(ctx: EngineContext, draft: TaskDraft): Promise<Task> {
  assertOpen(ctx);
  checkDraftFields(draft);
  const { clock, connection, events, libraryDir, loop, store } = ctx;
  const id = randomUUID();
  const sent = requestForProfile(draft, connection.profile);
  const input = sent.input;
  const validated: ValidatedInput[] = [];
  for (const rule of mediaFieldsOf(draft.taskType)) {
    const value = input[rule.field];
    if (typeof value !== 'string' || value.trim() === '') {
      delete input[rule.field];
      continue;
    }
    validated.push(
      await validateInput(value.trim(), {
        field: rule.field,
        kind: rule.kind,
        faceSwap: rule.faceSwap ?? false,
      }),
    );
  }
  const estimateMicros = estimateDraftCost(draft);
  checkBudget(store, estimateMicros, draft.acceptUnknownPrice === true, draft.taskType);
  const inputDir = join(libraryDir, 'inputs', id);
  try {
    const inputs: TaskInput[] = [];
    for (const v of validated) inputs.push(await keepInput(libraryDir, id, inputDir, v, input));
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
    events.changed(task);
    loop.kick();
    return task;
  } catch (err) {
    await rm(inputDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The task input of one validated value. A local file is copied into the task's input folder
 * and the request names the copy (`{ $file: <library path> }`) instead of the original.
 */
async function keepInput(
  libraryDir: string,
  id: string,
  inputDir: string,
  v: ValidatedInput,
  input: Record<string, unknown>,
): Promise<TaskInput> {
  if (v.source === 'file') {
    await ensureFolderBelow(libraryDir, inputDir); // mode 0700, no planted link followed
    const copy = await copyIntoLibrary(v, inputDir);
    const relativePath = `inputs/${id}/${copy.path.split(/[\\/]/).pop()}`;
    input[v.field] = { $file: relativePath };
    return {
      field: v.field,
      source: 'file',
      value: relativePath,
      mime: v.mime,
      size: copy.size,
      sha256: copy.sha256,
      width: v.width ?? null,
      height: v.height ?? null,
    };
  }
  if (v.source === 'base64') {
    return {
      field: v.field,
      source: 'base64',
      value: String(input[v.field]),
      mime: v.mime,
      size: v.bytes,
      sha256: null,
      width: v.width ?? null,
      height: v.height ?? null,
    };
  }
  return {
    field: v.field,
    source: 'url',
    value: v.url,
    mime: null,
    size: null,
    sha256: null,
    width: null,
    height: null,
  };
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
