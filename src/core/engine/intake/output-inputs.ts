/**
 * A previous result as an input: a draft's media field holding `{ $output: { taskId, index } }`
 * is resolved when the task is queued, to the text a media field takes:
 * - the output's service URL while the service still keeps it (the service fetches it itself,
 *   nothing is uploaded or sent inline);
 * - else the output's saved library file, taken in exactly as a local file is (checked, kept as
 *   the library input file of its content, then uploaded or sent inline when the task is sent).
 * Which of the two is recorded in the task's first event. The output must be of the kind the
 * field takes (audio for audio fields, image for image fields), and saved or still at the
 * service, else the refusal says why.
 *
 * How long a URL is trusted: the field notes say the service keeps images about 3 days, derived
 * images (the toolkit's results) about 3 hours, and publish nothing for audio. A URL is used only
 * while its task ended less than OUTPUT_URL_TRUSTED_MS ago (1 hour), so that even a task that
 * waits in the queue for a while is sent before the shortest of those ends; an older result goes
 * from the library file. A loopback URL (a sandbox on this computer) is used only while that same
 * address is the service: another run's sandbox is gone.
 */

import {
  type InputMediaKind,
  isHttpUrl,
  looksLikeOutputRef,
  mediaKind,
  type OutputRef,
  outputRefOf,
  type Task,
  type TaskDraft,
} from '../../../shared/index.ts';
import { addressKindOf } from '../../downloads/index.ts';
import { InputValidationError } from '../../inputs/index.ts';
import { libraryFileOf } from '../../library/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { entryOfDraft, mediaFieldsOf } from './task-drafts.ts';

/** A result's service URL is used as an input while its task ended less than this long ago. */
export const OUTPUT_URL_TRUSTED_MS = 60 * 60 * 1000;

/** A draft with its previous results resolved, and the lineage they imply. */
export interface ResolvedOutputs {
  /** The draft's input with every `{ $output }` replaced by a URL or a library file's absolute path. */
  input: Record<string, unknown>;
  parentId: string | null;
  parentOutput: number | null;
  /** One line per resolved field, for the task's first event. */
  notes: string[];
}

function refused(field: string, message: string): InputValidationError {
  return new InputValidationError(field, `${field}: ${message}`);
}

/** Whether a URL answers on this computer only (a sandbox's). */
function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return addressKindOf(host) === 'loopback';
}

/** Why output `index` of `task` cannot be fetched by the service at its URL now, or null when it can. */
function urlProblem(ctx: EngineContext, task: Task, index: number): string | null {
  const output = task.outputs.find((o) => o.index === index);
  if (!output || !isHttpUrl(output.url)) return 'the service sent it inline (it has no URL)';
  if (output.state === 'expired' || task.state === 'expired') return 'the service no longer keeps it';
  const ended = Date.parse(task.endedAt ?? task.savedAt ?? task.updatedAt);
  if (!Number.isFinite(ended) || ctx.clock.now() - ended >= OUTPUT_URL_TRUSTED_MS) {
    return 'its URL may have expired at the service';
  }
  const url = new URL(output.url);
  if (isLoopbackUrl(url)) {
    const service = ctx.connection.settings?.baseUrl ?? ctx.connection.profile.baseUrl;
    const serviceOrigin = URL.canParse(service) ? new URL(service).origin : null;
    if (url.origin !== serviceOrigin)
      return 'its URL is on this computer, at a service that is no longer in use';
  }
  return null;
}

/** The text a media field gets for `ref`, and the note saying how it is sent. */
function resolveOne(
  ctx: EngineContext,
  field: string,
  kind: InputMediaKind,
  ref: OutputRef,
): { text: string; note: string; viaUrl: boolean } {
  const task = ctx.store.getTask(ref.taskId);
  if (!task) throw refused(field, `the result it names is gone: no task ${ref.taskId} in the library`);
  const name = `output ${ref.index} of "${task.title}"`;
  const output = task.outputs.find((o) => o.index === ref.index);
  if (!output) {
    const has = task.outputs.length === 0 ? 'no outputs yet' : `outputs 0 to ${task.outputs.length - 1}`;
    throw refused(field, `"${task.title}" has no output ${ref.index} (it has ${has})`);
  }
  if (output.kind !== kind) {
    throw refused(field, `takes ${mediaKind(kind).words.takes}, and ${name} is ${output.kind}`);
  }
  const problem = urlProblem(ctx, task, ref.index);
  if (problem === null) {
    return { text: output.url, note: `${field}: ${name} sent as the service's URL`, viaUrl: true };
  }
  if (output.state === 'saved' && output.path) {
    const file = libraryFileOf(ctx.libraryDir, output.path, name);
    return {
      text: file,
      note: `${field}: ${name} sent from the library file (${problem})`,
      viaUrl: false,
    };
  }
  throw refused(
    field,
    `${name} is not saved in the library (${output.state}) and ${problem}; use it once it is saved`,
  );
}

/**
 * Resolves the draft's `{ $output }` values (media fields only) and works out its lineage: the
 * draft's own parentId/parentOutput when given, else the first result it uses. Throws
 * InputValidationError naming the field for a malformed reference, one in a field that takes no
 * media, or a result that cannot be used.
 */
export function resolveOutputRefs(ctx: EngineContext, draft: TaskDraft): ResolvedOutputs {
  const input: Record<string, unknown> = { ...draft.input };
  const notes: string[] = [];
  const entry = entryOfDraft(draft, ctx.connection.profile);
  if (!entry) {
    // a pair the catalog does not know has no media fields to take a previous result
    const ref = Object.keys(input).find((field) => looksLikeOutputRef(input[field]));
    if (ref !== undefined) {
      throw refused(
        'task_type',
        `"${draft.taskType}" is not a task type the app knows for ${draft.model}, so it cannot say which of its fields takes a previous result (${ref}); give a URL instead`,
      );
    }
    return { input, parentId: null, parentOutput: null, notes };
  }
  const media = new Map(mediaFieldsOf(entry).map((m) => [m.field, m]));
  let first: OutputRef | null = null;
  const used: OutputRef[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (!looksLikeOutputRef(value)) continue;
    const ref = outputRefOf(value);
    if (ref === null)
      throw refused(field, 'a previous result is written { "$output": { "taskId": "…", "index": 0 } }');
    const rule = media.get(field);
    if (!rule) throw refused(field, 'takes no picture or audio, so a previous result cannot go here');
    const resolved = resolveOne(ctx, field, rule.kind, ref);
    input[field] = resolved.text;
    notes.push(resolved.note);
    used.push(ref);
    first ??= ref;
  }
  const lineage = lineageOf(ctx, draft, first, used);
  return { input, ...lineage, notes };
}

/** The draft's parent: as given (checked), else the first result it uses, else none. */
function lineageOf(
  ctx: EngineContext,
  draft: TaskDraft,
  first: OutputRef | null,
  used: readonly OutputRef[],
): { parentId: string | null; parentOutput: number | null } {
  const givenId = draft.parentId ?? null;
  const givenOutput = draft.parentOutput ?? null;
  if (givenId === null) {
    if (givenOutput !== null) throw refused('parentOutput', 'is given without parentId');
    return first
      ? { parentId: first.taskId, parentOutput: first.index }
      : { parentId: null, parentOutput: null };
  }
  const parent = ctx.store.getTask(givenId);
  if (!parent) throw refused('parentId', `no task ${givenId} in the library`);
  if (givenOutput !== null) {
    if (!parent.outputs.some((o) => o.index === givenOutput)) {
      throw refused('parentOutput', `"${parent.title}" has no output ${givenOutput}`);
    }
    return { parentId: givenId, parentOutput: givenOutput };
  }
  // parentOutput absent: the output of that task the draft uses, if it uses one
  if (draft.parentOutput === undefined) {
    const own = used.find((r) => r.taskId === givenId);
    if (own) return { parentId: givenId, parentOutput: own.index };
  }
  return { parentId: givenId, parentOutput: null };
}
