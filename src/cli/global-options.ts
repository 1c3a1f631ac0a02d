/**
 * The options every `media-task` command takes: the library, the service (hosted by default, a
 * custom --base-url, or an in-process --sandbox), the vendor of model ids, and --json.
 */
import { resolve } from 'node:path';
import { defaultDemoLibraryDir, defaultLibraryDir } from '../core/library/index.ts';
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
import { FLAG, numberValue, type ParsedArgs, pickOptions, readArgs, UsageError, VALUE } from './cli-args.ts';
import { printErr } from './terminal-output.ts';

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

const GLOBAL_OPTIONS = {
  library: VALUE,
  'base-url': VALUE,
  vendor: VALUE,
  'upload-url': VALUE,
  'time-scale': VALUE,
  json: FLAG,
  sandbox: FLAG,
} as const;

/**
 * Reads the global options, which may stand anywhere on the line, and splits off the command
 * (the first other word) and its own arguments.
 */
export function splitGlobalOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { globals: GlobalOptions; command: string | undefined; rest: string[] } {
  const { picked, others } = pickOptions(argv, GLOBAL_OPTIONS);
  const [command, ...rest] = others;
  return { globals: globalOptionsOf(readArgs(picked, GLOBAL_OPTIONS), env), command, rest };
}

function globalOptionsOf(args: ParsedArgs<typeof GLOBAL_OPTIONS>, env: NodeJS.ProcessEnv): GlobalOptions {
  const { values } = args;
  return {
    // --sandbox results go to the demo library, as in the app, never among paid ones
    library: resolve(
      values.library ?? (values.sandbox ? defaultDemoLibraryDir(env) : defaultLibraryDir(env)),
    ),
    baseUrl: baseUrlOption(values['base-url'] ?? env.MEDIA_TASK_BASE_URL ?? null),
    vendor: vendorOption(values.vendor ?? env.MEDIA_TASK_VENDOR ?? null),
    uploadUrl: uploadUrlOption(values['upload-url'] ?? env.MEDIA_TASK_UPLOAD_URL ?? null),
    json: values.json === true,
    sandbox: values.sandbox === true,
    timeScale: numberValue('time-scale', values['time-scale']),
  };
}

/** A base URL as the user pasted it: checked, `/api/v1…` dropped with a note on stderr. */
function baseUrlOption(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  try {
    const reading = readBaseUrl(raw);
    if (reading.note) printErr(`${reading.note}\n`);
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
