/**
 * The options every `media-task` command takes: the library, the service (hosted by default, a
 * custom --base-url, or an in-process --sandbox), the vendor of model ids, and --json.
 */
import { resolve } from 'node:path';
import { defaultDemoLibraryDir, defaultLibraryDir } from '../main/engine/index.ts';
import {
  apiKeyProblem,
  HOSTED_SERVICE,
  hostedProfile,
  isHttpUrl,
  readBaseUrl,
  type ServiceProfile,
  sandboxProfile,
  VENDOR_PATTERN,
} from '../shared/index.ts';
import { numberOption, type ParsedArgs, UsageError } from './cli-args.ts';

export interface GlobalOptions {
  library: string;
  /** The service's base URL; null for the hosted service's own. */
  baseUrl: string | null;
  /** The vendor of model ids; null for the profile's (Qubico, or `service` with --sandbox). */
  vendor: string | null;
  /** The upload endpoint of a custom --base-url; null for none (the hosted service has its own). */
  uploadUrl: string | null;
  json: boolean;
  /** Run an in-process sandbox and use it as the service. */
  sandbox: boolean;
  timeScale: number | undefined;
}

export const GLOBAL_VALUES = ['library', 'base-url', 'vendor', 'upload-url', 'time-scale'] as const;
export const GLOBAL_FLAGS = ['json', 'sandbox'] as const;

export function globalOptionsOf(args: ParsedArgs, env: NodeJS.ProcessEnv): GlobalOptions {
  return {
    // --sandbox results go to the demo library, as in the app, never among paid ones
    library: resolve(
      args.values.get('library') ??
        (args.flags.has('sandbox') ? defaultDemoLibraryDir(env) : defaultLibraryDir(env)),
    ),
    baseUrl: baseUrlOption(args.values.get('base-url') ?? env.MEDIA_TASK_BASE_URL ?? null),
    vendor: vendorOption(args.values.get('vendor') ?? env.MEDIA_TASK_VENDOR ?? null),
    uploadUrl: uploadUrlOption(args.values.get('upload-url') ?? env.MEDIA_TASK_UPLOAD_URL ?? null),
    json: args.flags.has('json'),
    sandbox: args.flags.has('sandbox'),
    timeScale: numberOption(args, 'time-scale'),
  };
}

/** A base URL as the user pasted it: checked, `/api/v1…` dropped with a note on stderr. */
function baseUrlOption(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  try {
    const reading = readBaseUrl(raw);
    if (reading.note) process.stderr.write(`${reading.note}\n`);
    return reading.url;
  } catch (err) {
    throw new UsageError(`--base-url: ${(err as Error).message}`);
  }
}

function uploadUrlOption(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  if (!isHttpUrl(raw.trim()))
    throw new UsageError(`--upload-url: must be an http(s) URL, got "${raw.slice(0, 80)}"`);
  return raw.trim();
}

function vendorOption(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  const vendor = raw.trim();
  if (!VENDOR_PATTERN.test(vendor)) {
    throw new UsageError(
      `--vendor: "${vendor.slice(0, 40)}" is not a vendor name (e.g. ${HOSTED_SERVICE.vendor})`,
    );
  }
  return vendor;
}

/** MEDIA_TASK_API_KEY, trimmed and checked by the one rule for a key; null when unset. */
export function apiKeyFromEnv(env: NodeJS.ProcessEnv): string | null {
  const key = env.MEDIA_TASK_API_KEY?.trim();
  if (!key) return null;
  const problem = apiKeyProblem(key);
  if (problem) throw new UsageError(`MEDIA_TASK_API_KEY: ${problem}`);
  return key;
}

/**
 * The profile tasks are sent with: the sandbox's with --sandbox, the hosted service's by
 * default, a custom one for another --base-url; --vendor replaces the vendor in each.
 */
export function profileOfOptions(g: GlobalOptions, sandboxUrl: string | null): ServiceProfile {
  let profile: ServiceProfile;
  if (sandboxUrl !== null) profile = sandboxProfile(sandboxUrl);
  else if (g.baseUrl === null || new URL(g.baseUrl).origin === new URL(HOSTED_SERVICE.baseUrl).origin) {
    profile = hostedProfile();
  } else {
    profile = { ...hostedProfile(), name: 'custom', baseUrl: g.baseUrl, uploadUrl: g.uploadUrl ?? '' };
  }
  return g.vendor ? { ...profile, vendor: g.vendor } : profile;
}
