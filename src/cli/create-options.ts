/**
 * What every `media-task create` shares: the common options, how a media value and a previous
 * result (`--from TASK_ID[:OUTPUT]`) are read, and the shape each kind of create gives back.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TaskDraft, TaskEngine } from '../core/engine/index.ts';
import { entryById, type OutputRefValue, outputRefOf } from '../shared/index.ts';
import { type ArgValues, FLAG, UsageError, VALUE } from './cli-args.ts';
import { findTask } from './task-session.ts';

/** The options every kind of create takes. */
export const CREATE_COMMON = {
  model: VALUE,
  title: VALUE,
  'webhook-url': VALUE,
  'webhook-secret': VALUE,
  wait: FLAG,
  'accept-unknown-price': FLAG,
  variants: VALUE,
  /** A prompt list or alternatives make several tasks: queue them (prompt-list-option.ts). */
  yes: FLAG,
} as const;

/** The draft(s) of one kind of create, with the options every kind takes. */
export interface KindArgs {
  draft: TaskDraft;
  common: ArgValues<typeof CREATE_COMMON>;
  positionals: string[];
  /** The drafts of a batch the kind makes by itself (face-swap --target-dir), instead of `draft`. */
  batch?: TaskDraft[];
  /** Fills in what needs the library (a previous result's own words), once it is open. */
  complete?: (engine: TaskEngine, draft: TaskDraft) => void;
}

/** A CLI value for a media field: URLs and Base64 as given, anything that names a file made absolute. */
export function mediaValue(raw: string): string {
  if (/^https?:\/\//i.test(raw) || raw.startsWith('data:')) return raw;
  const abs = resolve(raw);
  if (existsSync(abs) || /[\\/]/.test(raw) || /\.[A-Za-z0-9]{2,5}$/.test(raw)) return abs;
  return raw;
}

export function required(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A draft of catalog entry `entryId` (`ace-step/txt2audio`): its model name (the profile adds the vendor) and task type. */
export function entryDraft(entryId: string, input: Record<string, unknown>): TaskDraft {
  const entry = entryById(entryId);
  if (!entry) throw new Error(`the catalog has no entry ${entryId}`);
  return { model: entry.modelName, taskType: entry.taskType, input };
}

/**
 * `--from TASK_ID[:OUTPUT]`: output OUTPUT (0 when absent) of a library task, as a draft's media
 * value. The id may be the service's; it is made the local one once the library is open
 * (localFromIds).
 */
export function fromValue(raw: string): OutputRefValue {
  const text = raw.trim();
  const colon = text.lastIndexOf(':');
  const hasIndex = colon > 0 && /^\d+$/.test(text.slice(colon + 1));
  const taskId = hasIndex ? text.slice(0, colon) : text;
  const index = hasIndex ? Number(text.slice(colon + 1)) : 0;
  if (taskId === '' || !Number.isSafeInteger(index) || index > 100) {
    throw new UsageError(`--from: "${raw}" is not TASK_ID or TASK_ID:OUTPUT (an output number from 0)`);
  }
  return { $output: { taskId, index } };
}

/**
 * A media field's value from either its own option (a file or URL) or `--from`; exactly one of
 * them when `missing` is given: the refusal when neither is.
 */
export function mediaOrFrom(
  option: string,
  value: string | undefined,
  from: string | undefined,
  missing: string | null,
): string | OutputRefValue | undefined {
  if (value !== undefined && from !== undefined) throw new UsageError(`give --${option} or --from, not both`);
  if (from !== undefined) return fromValue(from);
  if (value !== undefined) return mediaValue(value);
  if (missing !== null) throw new UsageError(missing);
  return undefined;
}

/** Makes each `--from` id of the draft the library's own id (a service id is looked up); throws for an unknown one. */
export function localFromIds(engine: TaskEngine, draft: TaskDraft): void {
  for (const [field, value] of Object.entries(draft.input)) {
    const ref = outputRefOf(value);
    if (ref === null) continue;
    const task = findTask(engine, ref.taskId);
    draft.input[field] = { $output: { taskId: task.id, index: ref.index } };
  }
}

/** The previous result a draft starts from (its first `--from`), as a library task; null when none. */
export function fromTaskOf(engine: TaskEngine, draft: TaskDraft) {
  for (const value of Object.values(draft.input)) {
    const ref = outputRefOf(value);
    if (ref) return engine.store.getTask(ref.taskId);
  }
  return null;
}
