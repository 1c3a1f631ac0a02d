/**
 * One model of a task as the service reports it, whatever envelope it came in, and the
 * normaliser that produces it. The normaliser never throws: it returns a task or a reason.
 */
import type { z } from 'zod';
import type { OutputKind } from '../catalog/task-types.ts';
import { formatOfExtension, mediaKindOfMime } from '../media/media-kinds.ts';
import {
  type ErrorObject,
  FormASchema,
  FormBSchema,
  FormCSchema,
  ImageEditCreateSchema,
  type TaskDataSchema,
} from './wire.ts';

/**
 * Status values the app tells apart. Other spellings the service and its model families use
 * are read as one of these (see STATUS_ALIASES); anything else is kept as its own lower-cased
 * string, stays visible, and is not terminal.
 */
export const KNOWN_REMOTE_STATUSES = [
  'pending',
  'staged',
  'processing',
  'completed',
  'failed',
  'cancelled',
] as const;
export type KnownRemoteStatus = (typeof KNOWN_REMOTE_STATUSES)[number];

/** Statuses the service will not leave. */
export const TERMINAL_REMOTE_STATUSES: readonly KnownRemoteStatus[] = ['completed', 'failed', 'cancelled'];

/** Other spellings seen from the service, its model families and history lists (field notes). */
export const STATUS_ALIASES: Readonly<Record<string, KnownRemoteStatus>> = {
  success: 'completed',
  succeeded: 'completed',
  finished: 'completed',
  canceled: 'cancelled',
  error: 'failed',
  in_progress: 'processing',
  starting: 'pending',
  // a create answer of flux and segment carries `status: ""` for a task that is fine (field notes)
  '': 'pending',
};

export interface RemoteOutput {
  kind: OutputKind;
  url: string;
  /** Where in the record it came from, e.g. `output.image_urls[1]` or `works[0].resource.resource`. */
  field: string;
}

export interface RemoteUsage {
  type: string | null;
  frozen: number | null;
  consume: number | null;
}

export interface RemoteError {
  code: number;
  message: string;
  rawMessage: string;
  detail: unknown;
}

export interface RemoteTask {
  id: string;
  model: string | null;
  taskType: string | null;
  /** Normalised status; one of KNOWN_REMOTE_STATUSES or an unknown value kept lower-cased. */
  status: string;
  /** The status as the service wrote it, trimmed and lower-cased (e.g. `success`, `canceled`). */
  serviceStatus: string;
  input: Record<string, unknown> | string | null;
  outputs: RemoteOutput[];
  usage: RemoteUsage | null;
  createdAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  error: RemoteError | null;
  /** Which envelope the service used. */
  form: 'A' | 'B' | 'C' | 'image-edit-create';
}

export type NormaliseResult = { ok: true; task: RemoteTask } | { ok: false; reason: string };

/** A status as the service wrote it, only trimmed and lower-cased. */
function serviceWordOf(value: string): string {
  return value.trim().toLowerCase();
}

/** Lower-cased and trimmed, with known other spellings read as the status they stand for. */
export function normaliseStatus(value: string): string {
  const s = serviceWordOf(value);
  return Object.hasOwn(STATUS_ALIASES, s) ? (STATUS_ALIASES[s] as string) : s;
}

/** True for completed, failed and cancelled, in any spelling normaliseStatus knows. */
export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_REMOTE_STATUSES as readonly string[]).includes(normaliseStatus(status));
}

/**
 * ISO 8601 time, or null for absent, empty, unparseable or the zero time `0001-01-01T00:00:00Z`
 * ("not yet"). Fractions finer than a millisecond (`.673594+08:00`, `.845623268Z`) are cut to
 * milliseconds first, so every JavaScript engine reads them the same way.
 */
export function readTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (value.startsWith('0001-01-01')) return null;
  const ms = Date.parse(value.trim().replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString();
}

/** The kinds a field's name may say, in the order they are looked for (`image_to_video_url` is a video). */
const KINDS_NAMED_IN_FIELDS = ['audio', 'video', 'image'] as const;

/** The kind of an output from its content type, its field name, or its URL's extension (the media table's). */
export function outputKindOf(field: string, url: string, contentType?: string): OutputKind {
  const byType = mediaKindOfMime(contentType ?? '');
  if (byType !== 'file') return byType;
  const name = field.toLowerCase();
  const named = KINDS_NAMED_IN_FIELDS.find((kind) => name.includes(kind));
  if (named) return named;
  if (url.startsWith('data:')) {
    const byData = mediaKindOfMime(url.slice(5, url.indexOf(';') > 0 ? url.indexOf(';') : 5));
    if (byData !== 'file') return byData;
  }
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // keep the text
  }
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1];
  return (ext && formatOfExtension(ext)?.kind) || 'file';
}

function looksLikeUrl(value: string): boolean {
  return /^https?:\/\//i.test(value) || value.startsWith('data:');
}

/** A URL given as a string or as an object `{url}` (e.g. luma's `video: {url, width, height}`). */
function urlIn(value: unknown): string | null {
  if (typeof value === 'string') return looksLikeUrl(value) ? value : null;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const url = (value as Record<string, unknown>).url;
    return typeof url === 'string' && looksLikeUrl(url) ? url : null;
  }
  return null;
}

/** Fields named after the medium itself: `video`, `image`, `audio` and their plurals. */
const BARE_MEDIA_FIELD = /^(image|video|audio)s?$/i;

/**
 * Output fields without a `_url` suffix that models of the service fill (field notes): trellis's
 * `model_file` (a GLB), `combined_video` (its turntable MP4) and `no_background_image` (a PNG).
 */
export const NAMED_OUTPUT_FIELDS: readonly string[] = ['model_file', 'combined_video', 'no_background_image'];

/** How deep and how many addresses the last pass reads under `output` (a hostile answer stays cheap). */
const LAST_PASS_DEPTH = 6;
const LAST_PASS_MAX = 20;

/**
 * The last pass: every http(s) address anywhere under `output`, in document order, with its path
 * (`works[0].video.resource`), for an answer no named field holds a result in: so that no model
 * the app sends ends with no result (the vendor's own CLI reads outputs so).
 */
function anyAddressesUnder(value: unknown, path: string, depth: number, found: [string, string][]): void {
  if (found.length >= LAST_PASS_MAX || depth > LAST_PASS_DEPTH) return;
  if (typeof value === 'string') {
    if (/^https?:\/\//i.test(value.trim())) found.push([path, value.trim()]);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      anyAddressesUnder(item, `${path}[${i}]`, depth + 1, found);
    });
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      anyAddressesUnder(item, path ? `${path}.${key}` : key, depth + 1, found);
    }
  }
}

/**
 * Outputs of a form A/B `output` object: `audio_url`, `image_url`, `image_urls`, `video_url`,
 * `image_base64`, any other `*_url` / `*_urls` field holding URLs, fields named after the
 * medium (`video: "https://…"`, `video: {url}`, `images: [...]`) and the named fields of
 * NAMED_OUTPUT_FIELDS; an empty string is no result yet. When none of these holds one, every
 * http(s) address under `output` is a result (the last pass), its kind from its URL's extension.
 */
export function outputsFromOutputObject(output: Record<string, unknown> | null | undefined): RemoteOutput[] {
  if (!output) return [];
  const found: RemoteOutput[] = [];
  const seen = new Set<string>();
  const add = (field: string, url: string, kind?: OutputKind) => {
    if (seen.has(url)) return;
    seen.add(url);
    found.push({ kind: kind ?? outputKindOf(field, url), url, field: `output.${field}` });
  };
  for (const [key, value] of Object.entries(output)) {
    if (key === 'image_base64' && typeof value === 'string' && value.length > 0) {
      const url = value.startsWith('data:') ? value : `data:image/png;base64,${value}`;
      add(key, url, 'image');
    } else if (
      typeof value === 'string' &&
      (/_url$/i.test(key) || NAMED_OUTPUT_FIELDS.includes(key)) &&
      looksLikeUrl(value)
    ) {
      add(key, value);
    } else if (Array.isArray(value) && (/_urls$/i.test(key) || BARE_MEDIA_FIELD.test(key))) {
      value.forEach((item, i) => {
        const url = urlIn(item);
        if (url) add(`${key}[${i}]`, url);
      });
    } else if (BARE_MEDIA_FIELD.test(key)) {
      const url = urlIn(value);
      if (url) add(typeof value === 'string' ? key : `${key}.url`, url);
    }
  }
  if (found.length > 0) return found;
  const anywhere: [string, string][] = [];
  anyAddressesUnder(output, '', 0, anywhere);
  for (const [path, url] of anywhere) add(path, url);
  return found;
}

function numberOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The service's error of a record, or null. A code without words is no error unless the record
 * failed: a flux create answers `error: {code: 1100, message: ""}` for a task that is fine.
 */
function errorOf(e: ErrorObject | null | undefined, status: string) {
  if (!e) return null;
  const code = typeof e.code === 'number' ? e.code : 0;
  const message = e.message ?? '';
  const rawMessage = e.raw_message ?? '';
  if (message === '' && rawMessage === '' && (code === 0 || status !== 'failed')) return null;
  return { code, message: message || rawMessage || `error ${code}`, rawMessage, detail: e.detail ?? null };
}

function fromTaskData(data: z.infer<typeof TaskDataSchema>, form: 'A' | 'B'): RemoteTask {
  const status = normaliseStatus(data.status);
  const meta = data.meta ?? {};
  const usage = meta.usage
    ? {
        type: meta.usage.type ?? null,
        frozen: numberOrNull(meta.usage.frozen),
        consume: numberOrNull(meta.usage.consume),
      }
    : null;
  return {
    id: data.task_id,
    model: data.model ?? null,
    taskType: data.task_type ?? null,
    status,
    serviceStatus: serviceWordOf(data.status),
    input: data.input ?? null,
    outputs: outputsFromOutputObject(data.output),
    usage,
    createdAt: readTimestamp(meta.created_at),
    startedAt: readTimestamp(meta.started_at),
    endedAt: readTimestamp(meta.ended_at),
    error: errorOf(data.error, status),
    form,
  };
}

function fromFormC(parsed: z.infer<typeof FormCSchema>): RemoteTask {
  const d = parsed.data;
  const status = normaliseStatus(d.status);
  const outputs: RemoteOutput[] = [];
  (d.works ?? []).forEach((work, i) => {
    const url = work?.resource?.resource;
    if (typeof url === 'string' && url.length > 0) {
      outputs.push({
        kind: outputKindOf(work?.type ?? '', url, work?.contentType),
        url,
        field: `works[${i}].resource.resource`,
      });
    }
  });
  const m = d.metadata ?? {};
  let input: RemoteTask['input'] = d.input ?? null;
  if (typeof input === 'string') {
    try {
      const obj: unknown = JSON.parse(input);
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) input = obj as Record<string, unknown>;
    } catch {
      // keep the string as the service gave it
    }
  }
  const frozen = numberOrNull(m.quota_frozen);
  const consume = numberOrNull(m.quota_usage);
  return {
    id: d.task_id,
    model: null,
    taskType: d.task?.type ?? d.task?.taskInfo?.type ?? null,
    status,
    serviceStatus: serviceWordOf(d.status),
    input,
    outputs,
    usage: frozen === null && consume === null ? null : { type: 'quota', frozen, consume },
    createdAt: readTimestamp(m.created_at),
    startedAt: readTimestamp(m.started_at),
    endedAt: readTimestamp(m.ended_at),
    error: null,
    form: 'C',
  };
}

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'unrecognised shape';
  const path = first.path.length ? first.path.join('.') : '(root)';
  return `${path}: ${first.message}`;
}

/**
 * Turns any response form of the spec (A, B, C, the image-edit create form) into a RemoteTask.
 * Never throws: a payload none of the forms accepts gives `{ok: false, reason}`.
 */
export function normaliseTaskResponse(payload: unknown): NormaliseResult {
  try {
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) {
      const obj = payload as Record<string, unknown>;
      const data = obj.data;
      if (data && typeof data === 'object' && !Array.isArray(data)) {
        const d = data as Record<string, unknown>;
        if ('works' in d || 'task' in d) {
          const c = FormCSchema.safeParse(payload);
          if (c.success) return { ok: true, task: fromFormC(c.data) };
          return { ok: false, reason: `detailed record (form C) rejected: ${describeIssues(c.error)}` };
        }
        const a = FormASchema.safeParse(payload);
        if (a.success) {
          // form B carries only task_id, status and output (the video fetch)
          const d2 = a.data.data;
          const isB = d2.model === undefined && d2.task_type === undefined && d2.meta === undefined;
          return { ok: true, task: fromTaskData(a.data.data, isB ? 'B' : 'A') };
        }
        const b = FormBSchema.safeParse(payload);
        if (b.success) {
          // only the fields form B checked: the rest of `data` failed form A and is not read
          const { task_id, status, output } = b.data.data;
          return { ok: true, task: fromTaskData({ task_id, status, output: output ?? null }, 'B') };
        }
        return { ok: false, reason: `task record rejected: ${describeIssues(a.error)}` };
      }
      if ('task_id' in obj) {
        const e = ImageEditCreateSchema.safeParse(payload);
        if (e.success) {
          const status = normaliseStatus(e.data.status);
          return {
            ok: true,
            task: {
              id: e.data.task_id,
              model: null,
              taskType: null,
              status,
              serviceStatus: serviceWordOf(e.data.status),
              input: null,
              outputs: [],
              usage: null,
              createdAt: readTimestamp(e.data.created_at),
              startedAt: null,
              endedAt: null,
              error: null,
              form: 'image-edit-create',
            },
          };
        }
        return { ok: false, reason: `image-edit record rejected: ${describeIssues(e.error)}` };
      }
      return { ok: false, reason: 'no task in the response: neither `data` nor `task_id` is present' };
    }
    return {
      ok: false,
      reason: `expected a JSON object, got ${Array.isArray(payload) ? 'an array' : typeof payload}`,
    };
  } catch (err) {
    return {
      ok: false,
      reason: `unreadable task record: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
