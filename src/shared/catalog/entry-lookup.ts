/**
 * Finding a catalog entry: by its id (what a task stores), or by the pair a request names (model
 * and task type). A task type alone names no operation: `upscale` is a picture's on
 * image-toolkit and a video's on video-toolkit, `txt2img` is Flux's and the sandbox's own model's.
 * A pair the catalog does not know has no entry: it still goes through the JSON editor and
 * `create raw`, checked only as JSON and asked about before queueing (it has no price).
 */
import type { TaskFamily, TaskTypeEntry } from './task-types.ts';
import { modelNameOf, TASK_TYPES } from './task-types.ts';

const BY_ID: ReadonlyMap<string, TaskTypeEntry> = new Map(TASK_TYPES.map((e) => [e.id, e]));

/** The entry with this id (`image-toolkit/upscale`), if the catalog has it. */
export function entryById(id: string | null | undefined): TaskTypeEntry | undefined {
  return id ? BY_ID.get(id) : undefined;
}

/** Per entry id, a model id sent instead of `<vendor>/<model name>` (settings' modelOverrides). */
export type ModelOverrides = Readonly<Record<string, string>>;

/**
 * The entry of a model and task type. `model` is a model name (`flux1-schnell`) or a full id
 * (`Qubico/flux1-schnell`; the vendor does not matter). A full id that is some entry's override
 * (`Qubico/qwen-edit-image` for `qwen-image/image-edit`) finds that entry when its task type is
 * the one given.
 */
export function catalogEntry(
  model: string,
  taskType: string,
  overrides: ModelOverrides = {},
): TaskTypeEntry | undefined {
  const id = model.trim();
  const name = modelNameOf(id);
  const direct = TASK_TYPES.find(
    (e) => e.taskType === taskType && (e.modelName === name || e.modelAliases?.includes(name)),
  );
  if (direct) return direct;
  for (const [entryId, overrideId] of Object.entries(overrides)) {
    const entry = BY_ID.get(entryId);
    if (entry?.taskType === taskType && overrideId === id) return entry;
  }
  return undefined;
}

/** The entry a stored task was made from: its recorded id, else its model and task type. */
export function entryOfTask(task: {
  entryId?: string | null;
  model: string;
  taskType: string;
}): TaskTypeEntry | undefined {
  return entryById(task.entryId) ?? catalogEntry(task.model, task.taskType);
}

/** The composer family of an entry; a pair the catalog does not know is `other`. */
export function familyOf(entry: TaskTypeEntry | undefined): TaskFamily {
  return entry?.family ?? 'other';
}

/**
 * The Type filter group a stored task is listed under: what its entry makes; a task the catalog
 * does not know goes by the family it was stored with.
 */
export function typeGroupOf(task: {
  entryId?: string | null;
  model: string;
  taskType: string;
  family: TaskFamily;
}): TaskFamily {
  return entryOfTask(task)?.makes ?? task.family;
}

/**
 * The stored tasks of a Type filter group: those of family `family` but of none of `exceptTypes`,
 * and those of any of `alsoTypes` (of another family, making what the group makes). By task
 * type: no task type is listed under two groups yet (a test checks it).
 */
export interface TypeGroupMembers {
  family: TaskFamily;
  exceptTypes: string[];
  alsoTypes: string[];
}

export function typeGroupMembers(group: TaskFamily): TypeGroupMembers {
  return {
    family: group,
    exceptTypes: TASK_TYPES.filter((e) => e.family === group && e.makes !== group).map((e) => e.taskType),
    alsoTypes: TASK_TYPES.filter((e) => e.family !== group && e.makes === group).map((e) => e.taskType),
  };
}

/** The number that scales a task's duration (e.g. a song's seconds), if its entry has one. */
export function sizeParameterOf(
  entry: TaskTypeEntry | undefined,
  input: Record<string, unknown>,
): number | null {
  const name = entry?.sizeParameter;
  if (!name) return null;
  const value = input[name];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** What the library's Makes filter offers: every kind a catalog entry makes but the plain file. */
export const MAKES_FILTER_KINDS = ['image', 'video', '3d', 'audio'] as const;
export type MakesFilterKind = (typeof MAKES_FILTER_KINDS)[number];

/** The catalog's model names, each once, in catalog order (the library's Model filter). */
export function catalogModelNames(): string[] {
  return [...new Set(TASK_TYPES.map((e) => e.modelName))];
}

/**
 * The entry ids a library filter on what a task makes and on its model stands for (both must
 * hold), or null when the filter has neither. An empty list matches no task. A task is found by
 * the entry it stored (entry_id): a pair the catalog does not know is under no kind or model.
 */
export function entryIdsOfFilter(filter: { makes?: string; model?: string }): string[] | null {
  if (filter.makes === undefined && filter.model === undefined) return null;
  return TASK_TYPES.filter(
    (e) =>
      (filter.makes === undefined || e.outputKind === filter.makes) &&
      (filter.model === undefined || e.modelName === filter.model),
  ).map((e) => e.id);
}
