/**
 * The app's settings as one zod object: the settings file holds exactly these fields, their
 * type is inferred from it, the argument of `settings.update` is its partial (with the stricter
 * checks a value typed in Settings gets), and the settings file's JSON schema is generated from
 * it (src/core/settings). The budget is not a field of the file: it is kept in the library
 * with the spending it limits, and only travels with the settings calls.
 */
import { z } from 'zod';
import { entryById } from '../catalog/entry-lookup.ts';
import { isHttpUrl, keyTransportProblem } from '../catalog/limits.ts';
import {
  HOSTED_SERVICE,
  MODEL_ID_PATTERN,
  readBaseUrl,
  type ServiceProfileName,
  VENDOR_PATTERN,
} from '../catalog/service-profiles.ts';

/** The profiles a user picks in Settings (the sandbox is demo mode's, chosen by `demoMode`). */
export const CHOSEN_PROFILES = ['hosted', 'custom'] as const satisfies readonly ServiceProfileName[];
export type ChosenProfile = (typeof CHOSEN_PROFILES)[number];

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** How the API key is kept: the OS keychain, a weak fallback (basic_text), or not at all. */
export const KEY_STORAGES = ['os', 'weak', 'unavailable'] as const;
export type KeyStorage = (typeof KEY_STORAGES)[number];

const httpUrlOrEmpty = z
  .string()
  .max(2000)
  .refine((v) => v === '' || isHttpUrl(v), 'must be an http(s) URL, or empty for none');

export const SettingsSchema = z.object({
  /** Which service a stored key is used with: the real hosted one, or a custom address. */
  serviceProfile: z.enum(CHOSEN_PROFILES),
  /** The custom service's base URL (the hosted profile has its own); '' until entered. */
  baseUrl: httpUrlOrEmpty,
  /** The custom service's vendor, the first part of its model ids (`<vendor>/<model name>`). */
  vendor: z.string().regex(VENDOR_PATTERN, 'must be a vendor name such as Qubico'),
  /** The custom service's file upload endpoint; '' for none (local files go inline). */
  uploadUrl: httpUrlOrEmpty,
  /**
   * Per catalog entry id (`qwen-image/image-edit`), a model id that replaces the profile's
   * default (hosted and custom). Files of earlier versions keyed them by task type: the settings
   * file reads those keys once (settings-file.ts).
   */
  modelOverrides: z
    .record(
      z.string(),
      z.string().regex(MODEL_ID_PATTERN, 'must be a model id written vendor/model, e.g. Qubico/ace-step'),
    )
    .superRefine((overrides, ctx) => {
      for (const entryId of Object.keys(overrides)) {
        if (entryById(entryId) === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [entryId],
            message:
              'is not a model and task type the app knows (write it as model/task type, e.g. qwen-image/image-edit)',
          });
      }
    }),
  /** Use the built-in sandbox service. On by default, so the app works before any key is set. */
  demoMode: z.boolean(),
  /** How many tasks may run at the service at once. */
  maxActiveRemote: z.number().int().min(1).max(50),
  /** The library folder; '' means the default `<user data>/library`. */
  libraryDir: z.string().max(4000),
  theme: z.enum(THEMES),
  /** True until the user has made the first-run choice (demo or key). */
  firstRun: z.boolean(),
  /** A short tone when a task ends or the queue is done (off by default). */
  notifySound: z.boolean(),
  /**
   * Catalog entry ids (`video-toolkit/face-swap`) whose unknown price the user said not to ask
   * about again ("Don't ask again for this task type"): the composer queues them with that word.
   */
  unknownPriceAccepted: z
    .array(z.string().max(200))
    .max(500)
    .superRefine((ids, ctx) => {
      for (const [i, entryId] of ids.entries()) {
        if (entryById(entryId) === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `${entryId} is not a model and task type the app knows`,
          });
      }
    }),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  serviceProfile: 'hosted',
  baseUrl: '',
  vendor: HOSTED_SERVICE.vendor,
  uploadUrl: '',
  modelOverrides: {},
  demoMode: true,
  maxActiveRemote: 5,
  libraryDir: '',
  theme: 'system',
  firstRun: true,
  notifySound: false,
  unknownPriceAccepted: [],
});

/** A budget in micro-dollars; null for none. */
export const BudgetSchema = z.number().int().min(0).max(1e12).nullable();

/** A base URL as pasted: checked, and a trailing `/api/v1` or `/api/v1/task` dropped. */
const BaseUrlSchema = z
  .string()
  .max(2000)
  .transform((value, ctx) => {
    try {
      return readBaseUrl(value).url;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });

/**
 * The argument of `settings.update`: any of the settings, with what the user types checked as
 * it is sent (the address read and refused when it would carry the key in the clear, a library
 * folder named, the first-run choice only ever made), and the budget.
 */
export const SettingsUpdateSchema = SettingsSchema.partial()
  .extend({
    baseUrl: BaseUrlSchema.optional(),
    uploadUrl: SettingsSchema.shape.uploadUrl
      .superRefine((v, ctx) => {
        const problem = v === '' ? null : keyTransportProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    libraryDir: SettingsSchema.shape.libraryDir.min(1).optional(),
    firstRun: z.literal(false).optional(),
    budgetMicros: BudgetSchema.optional(),
  })
  .strict();
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

/** Settings as the renderer sees them. The API key itself never crosses the bridge. */
export interface StudioSettings extends Settings {
  /** The library folder in use when demo mode is off (the default one when none was chosen). */
  libraryDir: string;
  /** The library the app shows and works on now: `libraryDir`, or demo mode's own. */
  libraryInUse: string;
  /** True when `libraryInUse` is demo mode's library (sandbox results, nothing billed). */
  demoLibrary: boolean;
  /** The budget of the library in use, in micro-dollars; null for none. */
  budgetMicros: number | null;
  hasApiKey: boolean;
  /** Why the stored key is not used now (e.g. it was stored for another service), or null. */
  keyProblem: string | null;
  /**
   * Every address the settings would send the stored key to (in full), while the user has not
   * confirmed them for it (a key stored by an earlier version, an address edited elsewhere);
   * `settings.confirmKeyAddresses` asks in a native dialog. Null when there is nothing to confirm.
   */
  keyAddressesToConfirm: string[] | null;
  keyStorage: KeyStorage;
}
