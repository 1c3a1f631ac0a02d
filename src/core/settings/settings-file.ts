/**
 * The settings file (conf on Node, electron-store in the app: the same file format and the same
 * JSON schema): the schema it is validated with, generated from the one settings object
 * (src/shared/settings), and the check of what is read back: a value someone edited by hand
 * into something invalid reads as its default, with a warning naming the field.
 *
 * Files written by earlier versions read the same way. They may also hold `budgetMicros`, the
 * budget before it moved into the library: it is read here so the backend can move it there
 * (see `SettingsReading.budgetMicros`); and model-id overrides keyed by task type, from before
 * the catalog was keyed by model and task type: read as the entry each named then.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import {
  BudgetSchema,
  DEFAULT_SETTINGS,
  HOSTED_SERVICE,
  type Settings,
  SettingsSchema,
} from '../../shared/index.ts';

export const SETTINGS_FILE_NAME = 'settings';

/** The settings as the file holds them: a library folder must also be absolute on this system. */
const FileSettingsSchema = SettingsSchema.extend({
  libraryDir: SettingsSchema.shape.libraryDir.refine(
    (v) => v === '' || isAbsolute(v),
    'must be an absolute path',
  ),
});

const FIELDS = Object.keys(FileSettingsSchema.shape) as (keyof Settings)[];

/**
 * The JSON schema conf / electron-store validate the file with: their `schema` option is the
 * schema of each field (a key it does not name, such as an older version's, stays allowed).
 * What JSON schema cannot say (URLs, absolute paths, known task types) is checked by
 * `readPersistedSettings` before conf opens the file.
 */
export const SETTINGS_JSON_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze(
  z.toJSONSchema(FileSettingsSchema, { target: 'draft-7' }).properties ?? {},
);

export interface SettingsReading {
  settings: Settings;
  warnings: string[];
  /**
   * The budget an earlier version kept in the file (its home is now the library), when the file
   * holds a valid one; absent otherwise.
   */
  budgetMicros?: number | null;
  /** The file's model-id overrides were keyed by task type (an earlier version's): the file is rewritten once. */
  overrideKeysRead?: Record<string, string>;
}

/**
 * The catalog entry each task type named before the catalog was keyed by model and task type
 * (every task type had one entry then): the keys of an earlier version's model-id overrides.
 */
const OVERRIDE_KEYS_BY_TASK_TYPE: Readonly<Record<string, string>> = {
  txt2audio: 'ace-step/txt2audio',
  audio2audio: 'ace-step/audio2audio',
  edit: 'ace-step/edit',
  extend: 'ace-step/extend',
  'image-edit': 'qwen-image/image-edit',
  'face-swap': 'image-toolkit/face-swap',
  'multi-face-swap': 'image-toolkit/multi-face-swap',
  'background-remove': 'image-toolkit/background-remove',
  segment: 'image-toolkit/segment',
  upscale: 'image-toolkit/upscale',
};

/** Overrides keyed by entry id, an earlier version's task-type keys read as their entries; null when none was. */
function overridesByEntry(raw: unknown): Record<string, string> | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const entries = Object.entries(raw as Record<string, unknown>);
  if (!entries.some(([key]) => key in OVERRIDE_KEYS_BY_TASK_TYPE)) return null;
  const read: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const entryId = OVERRIDE_KEYS_BY_TASK_TYPE[key] ?? key;
    // an entry-id key written since wins over the old one
    if (!(entryId in read) || entryId === key) read[entryId] = value;
  }
  return read as Record<string, string>;
}

/** Checks what a settings file held, field by field; unknown fields are ignored. */
export function readPersistedSettings(raw: unknown, source = 'the settings file'): SettingsReading {
  const warnings: string[] = [];
  const settings: Settings = { ...DEFAULT_SETTINGS };
  if (raw === undefined || raw === null) return { settings, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(`${source} does not hold an object of settings; the defaults are used`);
    return { settings, warnings };
  }
  const record = { ...(raw as Record<string, unknown>) };
  if (!('serviceProfile' in record) && typeof record.baseUrl === 'string' && record.baseUrl !== '') {
    // written before profiles existed: a base URL the user entered means a custom service,
    // unless it is the hosted service's own
    record.serviceProfile = isHostedAddress(record.baseUrl) ? 'hosted' : 'custom';
  }
  const overrideKeysRead = overridesByEntry(record.modelOverrides);
  if (overrideKeysRead) record.modelOverrides = overrideKeysRead;
  const fieldValue = (field: string, schema: z.ZodType, fallback: unknown) => {
    const parsed = schema.safeParse(record[field]);
    if (parsed.success) return { value: parsed.data };
    const why = parsed.error.issues[0]?.message ?? 'invalid';
    warnings.push(
      `${source}: "${field}" holds ${shownValue(record[field])} (${why}); the default ${JSON.stringify(fallback)} is used`,
    );
    return null;
  };
  for (const field of FIELDS) {
    if (!(field in record)) continue;
    const read = fieldValue(field, FileSettingsSchema.shape[field], DEFAULT_SETTINGS[field]);
    if (read) (settings as Record<string, unknown>)[field] = read.value;
  }
  const reading: SettingsReading = { settings, warnings };
  if (overrideKeysRead) reading.overrideKeysRead = overrideKeysRead;
  if ('budgetMicros' in record) {
    const budget = fieldValue('budgetMicros', BudgetSchema, null);
    if (budget) reading.budgetMicros = budget.value as number | null;
  }
  return reading;
}

/** Keeps only the valid fields of a patch (a programming error otherwise). */
export function checkSettingsPatch(patch: Partial<Settings>): Partial<Settings> {
  const out: Partial<Settings> = {};
  for (const field of FIELDS) {
    if (!(field in patch) || patch[field] === undefined) continue;
    const parsed = FileSettingsSchema.shape[field].safeParse(patch[field]);
    if (!parsed.success) {
      throw new Error(`settings: "${field}" ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    }
    (out as Record<string, unknown>)[field] = parsed.data;
  }
  return out;
}

function isHostedAddress(url: string): boolean {
  try {
    return new URL(url).origin === new URL(HOSTED_SERVICE.baseUrl).origin;
  } catch {
    return false;
  }
}

function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
