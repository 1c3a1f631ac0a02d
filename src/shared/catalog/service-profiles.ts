/**
 * Which service the app talks to, and how that service names things:
 * - hosted: the real hosted service (PiAPI): its public base URL, vendor `Qubico`, the upload
 *   host; the default once an API key is stored;
 * - sandbox: the built-in emulator of demo mode, vendor `service` as the spec writes it;
 * - custom: any base URL and vendor (a proxy, a self-hosted gateway).
 * A model id is `<vendor>/<model name>`, unless the user overrides it for a catalog entry.
 */
import { catalogEntry, type ModelOverrides } from './entry-lookup.ts';
import { isHttpUrl, keyTransportProblem } from './limits.ts';
import type { TaskTypeEntry } from './task-types.ts';

export const SERVICE_PROFILE_NAMES = ['hosted', 'sandbox', 'custom'] as const;
export type ServiceProfileName = (typeof SERVICE_PROFILE_NAMES)[number];

/** What the song's negative prompt is called on the wire. */
export type NegativePromptField = 'negative_prompt' | 'negative_style_prompt';

export interface ServiceProfile {
  name: ServiceProfileName;
  /** Base URL of the task API, without `/api/v1`; '' when not set up yet. */
  baseUrl: string;
  /** The file upload endpoint; '' when the profile has none (local files then go inline). */
  uploadUrl: string;
  vendor: string;
  /** Per catalog entry id (`qwen-image/image-edit`), a model id that replaces `<vendor>/<model name>`. */
  modelOverrides: ModelOverrides;
  negativePromptField: NegativePromptField;
}

/** The real service, from its public documentation (see ../shared/notes/service-field-notes.md). */
export const HOSTED_SERVICE = {
  baseUrl: 'https://api.piapi.ai',
  uploadUrl: 'https://upload.theapi.app/api/ephemeral_resource',
  vendor: 'Qubico',
} as const;

/** The spec's vendor, which the built-in sandbox uses. */
export const SANDBOX_VENDOR = 'service';

/** Where the upload endpoint sits under a service's base URL (the sandbox serves it there). */
export const UPLOAD_PATH = '/api/ephemeral_resource';

export function hostedProfile(modelOverrides: Record<string, string> = {}): ServiceProfile {
  return {
    name: 'hosted',
    baseUrl: HOSTED_SERVICE.baseUrl,
    uploadUrl: HOSTED_SERVICE.uploadUrl,
    vendor: HOSTED_SERVICE.vendor,
    modelOverrides,
    // the real service's records and public clients use this name (the spec says negative_prompt)
    negativePromptField: 'negative_style_prompt',
  };
}

/** The built-in sandbox at `baseUrl` (it serves the upload endpoint too). */
export function sandboxProfile(baseUrl: string, modelOverrides: Record<string, string> = {}): ServiceProfile {
  return {
    name: 'sandbox',
    baseUrl,
    uploadUrl: baseUrl ? `${baseUrl.replace(/\/+$/, '')}${UPLOAD_PATH}` : '',
    vendor: SANDBOX_VENDOR,
    modelOverrides,
    negativePromptField: 'negative_prompt',
  };
}

export const VENDOR_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** `<vendor>/<model name>`: visible characters, one slash between two non-empty parts. */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\/[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Why a model id cannot be used, or null when it can. */
export function modelIdProblem(id: string): string | null {
  if (id.trim() === '') return 'a model id is needed';
  return MODEL_ID_PATTERN.test(id)
    ? null
    : `"${id.slice(0, 80)}" is not a model id: write it as vendor/model, e.g. Qubico/ace-step`;
}

/**
 * The model id to send for a draft's model. A full id (`vendor/name`) is kept as the user gave
 * it; a bare model name gets the profile's override for its catalog entry, or the profile's
 * vendor.
 */
export function resolveModelId(model: string, taskType: string, profile: ServiceProfile): string {
  const name = model.trim();
  if (name.includes('/')) return name;
  const entry = catalogEntry(name, taskType);
  const override = entry ? profile.modelOverrides[entry.id] : undefined;
  return override ?? `${profile.vendor}/${name}`;
}

/** The model id an entry is sent with under a profile (its default, or the override). */
export function defaultModelIdOf(entry: TaskTypeEntry, profile: ServiceProfile): string {
  return resolveModelId(entry.modelName, entry.taskType, profile);
}

export interface BaseUrlReading {
  /** The base URL to use: scheme, host, port and any path prefix, without `/api/v1…`. */
  url: string;
  /** A sentence telling the user what was changed, or null when nothing was. */
  note: string | null;
}

/**
 * A base URL as the user may paste it, checked: https (http only on this computer), no user
 * name, query or fragment;
 * a `/api/v1` or `/api/v1/task` on the end (the docs' curl lines show full URLs) is dropped
 * and the user told. Throws a TypeError with a sentence for anything else.
 */
export function readBaseUrl(input: string): BaseUrlReading {
  const trimmed = input.trim();
  if (trimmed === '') throw new TypeError('The service address is empty.');
  if (!isHttpUrl(trimmed)) {
    throw new TypeError(
      `The service address must start with https:// (or http:// for a service on this computer), got "${trimmed.slice(0, 80)}".`,
    );
  }
  const insecure = keyTransportProblem(trimmed);
  if (insecure) throw new TypeError(`The service address is refused: ${insecure}.`);
  const url = new URL(trimmed);
  if (url.username || url.password) {
    throw new TypeError('The service address must not carry a user name or password.');
  }
  if (url.search || url.hash)
    throw new TypeError('The service address must not carry a query or a fragment.');
  const path = url.pathname.replace(/\/+$/, '');
  const suffix = /\/api\/v1(\/task)?$/i.exec(path);
  const prefix = suffix ? path.slice(0, suffix.index) : path;
  const clean = `${url.origin}${prefix}`;
  return {
    url: clean,
    note: suffix ? `The address ends in ${suffix[0]}, which the app adds itself; using ${clean}.` : null,
  };
}

/** The built-in sandbox's model ids (the spec's vendor), by role: what tests and the CLI's --sandbox send. */
export const MODELS = {
  audio: `${SANDBOX_VENDOR}/ace-step`,
  imageToolkit: `${SANDBOX_VENDOR}/image-toolkit`,
  imageEdit: `${SANDBOX_VENDOR}/qwen-image`,
  imageGen: `${SANDBOX_VENDOR}/image-gen`,
  video: `${SANDBOX_VENDOR}/video-gen`,
} as const;
