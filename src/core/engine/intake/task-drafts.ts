/**
 * What a user composes (a draft) and the checks it passes before anything is queued. Each
 * failure names the field. Media fields may hold a URL, Base64 or a local file path; those are
 * checked by src/core/inputs (magic bytes, header dimensions, size caps).
 */
import {
  type CostEstimate,
  catalogEntry,
  draftInputSizeProblem,
  estimateCost,
  inputProblems,
  isEmptyValue,
  isHttpUrl,
  keyedProblemWords,
  type MediaFactsByField,
  type MediaFieldRule,
  mediaFieldsOfRules,
  modelIdProblem,
  type ServiceProfile,
  songEditChangesNothing,
  type TaskDraft,
  type TaskTypeEntry,
} from '../../../shared/index.ts';
import { webhookEndpointOf } from '../../../shared/task/webhook-config.ts';
import { InputValidationError } from '../../inputs/index.ts';
import type { LibraryStore } from '../../store/index.ts';

export type { MediaFieldRule };

/**
 * The catalog entry of a draft's model and task type under a profile (whose per-entry overrides
 * map an overridden model id back to its entry); undefined for a pair the catalog does not know.
 */
export function entryOfDraft(
  draft: { model: string; taskType: string },
  profile: Pick<ServiceProfile, 'modelOverrides'>,
): TaskTypeEntry | undefined {
  return catalogEntry(draft.model, draft.taskType, profile.modelOverrides);
}

/** Which input fields of an entry carry media, and what they must be (none for an unknown pair). */
export function mediaFieldsOf(entry: TaskTypeEntry | undefined): MediaFieldRule[] {
  return entry ? mediaFieldsOfRules(entry.input) : [];
}

function fail(field: string, message: string): never {
  throw new InputValidationError(field, `${field}: ${message}`);
}

/**
 * Checks a draft's non-media fields against its catalog entry. Throws InputValidationError
 * naming the field. `model` is a bare model name (the profile adds the vendor) or a full model
 * id. A pair the catalog does not know (`entry` undefined) is checked as JSON only: it has no
 * rules and no price, so it is asked about before queueing under a budget.
 */
/** The catalog entry of a song edit (song-edit.ts). */
const SONG_EDIT_ENTRY = 'ace-step/edit';

export function checkDraftFields(draft: TaskDraft, entry: TaskTypeEntry | undefined): void {
  if (typeof draft.model !== 'string' || draft.model.trim() === '') fail('model', 'is required');
  if (typeof draft.taskType !== 'string' || draft.taskType.trim() === '') fail('task_type', 'is required');
  if (!draft.input || typeof draft.input !== 'object' || Array.isArray(draft.input))
    fail('input', 'must be an object');
  const tooLarge = draftInputSizeProblem(draft.input, draft);
  if (tooLarge) fail('input', tooLarge);
  if (draft.model.includes('/')) {
    const problem = modelIdProblem(draft.model.trim());
    if (problem) fail('model', problem);
  }
  if (!entry) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(draft.taskType.trim()))
      fail('task_type', `"${draft.taskType.slice(0, 80)}" is not a task type (letters, digits, - . _)`);
    if (draft.webhook?.endpoint && !isHttpUrl(draft.webhook.endpoint))
      fail('webhook_config.endpoint', 'must be an http(s) URL');
    return;
  }
  const input = draft.input;
  for (const rule of mediaFieldsOfRules(entry.input)) {
    const value = input[rule.field];
    if (!isEmptyValue(value) && typeof value !== 'string')
      fail(rule.field, 'must be a URL, Base64 text or a file path');
  }
  // the catalog's rules, said in the one wording the composer shows beside the field
  const problem = inputProblems(input, entry.input, '')[0];
  if (problem) {
    const words = entry.input.fields[problem.field];
    throw new InputValidationError(problem.field, keyedProblemWords(problem, words));
  }
  // a song edit that keeps the style and the words would be billed for the same song: refused in
  // the composer's words (the composer and `create song-edit` refuse it before it comes here)
  if (entry.id === SONG_EDIT_ENTRY) {
    const nothing = songEditChangesNothing(input);
    if (nothing) fail('edit_style_prompt', nothing);
  }
  if (draft.webhook?.endpoint && !isHttpUrl(draft.webhook.endpoint)) {
    fail('webhook_config.endpoint', 'must be an http(s) URL');
  }
}

/**
 * The draft's webhook with the secret it is sent with. A re-run keeps the secret of the task it
 * re-runs (`sameSecretAs`) without the page ever reading it, and only for that task's own
 * endpoint: a page cannot have it sent anywhere else. A secret typed in replaces the kept one.
 */
export function webhookToSend(
  store: Pick<LibraryStore, 'getTask' | 'webhookSecretOf'>,
  webhook: TaskDraft['webhook'],
): TaskDraft['webhook'] {
  if (!webhook?.sameSecretAs) return webhook ?? null;
  const { sameSecretAs, ...given } = webhook;
  if (given.secret !== '' || given.endpoint === '') return given;
  const source = store.getTask(sameSecretAs);
  if (!source) {
    fail(
      'webhook_config.secret',
      'the task this re-runs is no longer in the library, so its webhook secret cannot be kept; type the secret again',
    );
  }
  const secret = store.webhookSecretOf(sameSecretAs);
  if (secret === '') return given;
  if (webhookEndpointOf(source.request) !== given.endpoint) {
    fail(
      'webhook_config.secret',
      'the secret of the task this re-runs is kept only for its own webhook endpoint; type the secret for this endpoint',
    );
  }
  return { ...given, secret };
}

/** A readable title for the library, from the draft's own words. */
export function titleOf(draft: TaskDraft): string {
  if (draft.title && draft.title.trim() !== '') return draft.title.trim().slice(0, 200);
  const input = draft.input;
  const pick = (name: string) => (typeof input[name] === 'string' ? (input[name] as string).trim() : '');
  const words = pick('style_prompt') || pick('prompt') || '';
  const label = catalogEntry(draft.model, draft.taskType)?.label ?? draft.taskType;
  if (words === '') return label;
  return words.length > 80 ? `${words.slice(0, 79)}…` : words;
}

/**
 * What a draft would cost under its entry's price (the profile's overrides map an overridden
 * model id back to its entry), given what is known of its media inputs (a picture's size, a
 * video's frames); a pair the catalog does not know has no price.
 */
export function estimateDraftCost(
  draft: { model: string; taskType: string; input: Record<string, unknown> },
  profile: Pick<ServiceProfile, 'modelOverrides'> = { modelOverrides: {} },
  media: MediaFactsByField = {},
): CostEstimate {
  return estimateCost(
    { model: draft.model, task_type: draft.taskType, input: draft.input },
    media,
    profile.modelOverrides,
  );
}
