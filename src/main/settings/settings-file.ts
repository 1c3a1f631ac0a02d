/**
 * The settings kept on disk (conf on Node, electron-store in the app: the same file format and
 * the same JSON schema), their defaults, and the check of what is read back: a value someone
 * edited by hand into something invalid reads as its default, with a warning naming the field.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import {
  HOSTED_SERVICE,
  isHttpUrl,
  MODEL_ID_PATTERN,
  type ServiceProfileName,
  type Theme,
  taskTypeEntry,
  VENDOR_PATTERN,
} from '../../shared/index.ts';

/** The profiles a user picks in Settings (the sandbox is demo mode's, chosen by `demoMode`). */
export type ChosenProfile = Exclude<ServiceProfileName, 'sandbox'>;

export interface PersistedSettings {
  /** Which service a stored key is used with: the real hosted one, or a custom address. */
  serviceProfile: ChosenProfile;
  /** The custom service's base URL (the hosted profile has its own); '' until entered. */
  baseUrl: string;
  /** The custom service's vendor, the first part of its model ids. */
  vendor: string;
  /** The custom service's file upload endpoint; '' for none (local files go inline). */
  uploadUrl: string;
  /** Per task type, a model id that replaces `<vendor>/<model name>` (hosted and custom). */
  modelOverrides: Record<string, string>;
  /** Use the built-in sandbox service. On by default, so the app works before any key is set. */
  demoMode: boolean;
  maxActiveRemote: number;
  /** Absolute path of the library folder; '' means the default `<user data>/library`. */
  libraryDir: string;
  theme: Theme;
  /** Budget in micro-dollars; null for none. */
  budgetMicros: number | null;
  /** True until the user has made the first-run choice (demo or key). */
  firstRun: boolean;
}

export const SETTINGS_FILE_NAME = 'settings';

export const DEFAULT_SETTINGS: Readonly<PersistedSettings> = Object.freeze({
  serviceProfile: 'hosted',
  baseUrl: '',
  vendor: HOSTED_SERVICE.vendor,
  uploadUrl: '',
  modelOverrides: {},
  demoMode: true,
  maxActiveRemote: 5,
  libraryDir: '',
  theme: 'system',
  budgetMicros: null,
  firstRun: true,
});

const httpUrlOrEmpty = z
  .string()
  .max(2000)
  .refine((v) => v === '' || isHttpUrl(v), 'must be an http(s) URL');

/** One zod schema per field, so one bad field does not cost the others. */
const FIELD_SCHEMAS: { [K in keyof PersistedSettings]: z.ZodType<PersistedSettings[K]> } = {
  serviceProfile: z.enum(['hosted', 'custom']),
  baseUrl: httpUrlOrEmpty,
  vendor: z.string().regex(VENDOR_PATTERN, 'must be a vendor name such as Qubico'),
  uploadUrl: httpUrlOrEmpty,
  modelOverrides: z
    .record(z.string(), z.string().regex(MODEL_ID_PATTERN, 'must be a model id such as Qubico/ace-step'))
    .refine((r) => Object.keys(r).every((t) => taskTypeEntry(t) !== undefined), 'names an unknown task type'),
  demoMode: z.boolean(),
  maxActiveRemote: z.number().int().min(1).max(50),
  libraryDir: z
    .string()
    .max(4000)
    .refine((v) => v === '' || isAbsolute(v), 'must be an absolute path'),
  theme: z.enum(['system', 'light', 'dark']),
  budgetMicros: z.number().int().min(0).max(1e12).nullable(),
  firstRun: z.boolean(),
};

const FIELDS = Object.keys(DEFAULT_SETTINGS) as (keyof PersistedSettings)[];

/** The JSON schema conf / electron-store validate the file with (their `schema` option). */
export const SETTINGS_JSON_SCHEMA = {
  serviceProfile: { type: 'string', enum: ['hosted', 'custom'] },
  baseUrl: { type: 'string', maxLength: 2000 },
  vendor: { type: 'string', maxLength: 64 },
  uploadUrl: { type: 'string', maxLength: 2000 },
  modelOverrides: { type: 'object', additionalProperties: { type: 'string', maxLength: 200 } },
  demoMode: { type: 'boolean' },
  maxActiveRemote: { type: 'integer', minimum: 1, maximum: 50 },
  libraryDir: { type: 'string', maxLength: 4000 },
  theme: { type: 'string', enum: ['system', 'light', 'dark'] },
  budgetMicros: { type: ['integer', 'null'], minimum: 0, maximum: 1e12 },
  firstRun: { type: 'boolean' },
} as const;

export interface SettingsReading {
  settings: PersistedSettings;
  warnings: string[];
}

/** Checks what a settings file held, field by field; unknown fields are ignored. */
export function readPersistedSettings(raw: unknown, source = 'the settings file'): SettingsReading {
  const warnings: string[] = [];
  const settings: PersistedSettings = { ...DEFAULT_SETTINGS };
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
  for (const field of FIELDS) {
    if (!(field in record)) continue;
    const parsed = FIELD_SCHEMAS[field].safeParse(record[field]);
    if (parsed.success) {
      (settings as unknown as Record<string, unknown>)[field] = parsed.data;
    } else {
      const why = parsed.error.issues[0]?.message ?? 'invalid';
      warnings.push(
        `${source}: "${field}" holds ${shownValue(record[field])} (${why}); the default ${JSON.stringify(DEFAULT_SETTINGS[field])} is used`,
      );
    }
  }
  return { settings, warnings };
}

/** Keeps only the valid fields of a patch (a programming error otherwise). */
export function checkSettingsPatch(patch: Partial<PersistedSettings>): Partial<PersistedSettings> {
  const out: Partial<PersistedSettings> = {};
  for (const field of FIELDS) {
    if (!(field in patch) || patch[field] === undefined) continue;
    const parsed = FIELD_SCHEMAS[field].safeParse(patch[field]);
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
