/**
 * The ledger as `GET /_sandbox/ledger` shows it: every accepted create without the API key,
 * webhook secrets hidden and long values (Base64 images, data URIs, long texts) cut to a short
 * summary, so no program reading it learns the key or gets the user's pictures. The in-process
 * `ledger()` keeps everything, for tests.
 */
import type { LedgerEntry } from './options.ts';

/** A ledger entry as served over HTTP. */
export interface LedgerView {
  taskId: string;
  model: string;
  taskType: string;
  body: unknown;
  receivedAt: string;
}

/** Strings longer than this are shortened to their first PREFIX characters and their length. */
const LONG_TEXT = 256;
const PREFIX = 48;
/** Keys whose values are never shown. */
const SECRET_KEYS = new Set(['secret', 'x-api-key', 'api_key', 'apiKey']);
/** Deeper structures than this are summarised (create bodies are shallow). */
const MAX_DEPTH = 8;

function summaryOf(text: string): string {
  return `${text.slice(0, PREFIX)}… (${text.length.toLocaleString('en-US')} characters, not shown)`;
}

/** A copy of a JSON value with secrets hidden and long strings summarised. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > LONG_TEXT ? summaryOf(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '(nested too deep, not shown)';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key) && item !== '' ? '(not shown)' : redactValue(item, depth + 1);
  }
  return out;
}

export function ledgerView(entries: readonly LedgerEntry[]): LedgerView[] {
  return entries.map((e) => ({
    taskId: e.taskId,
    model: e.model,
    taskType: e.taskType,
    body: redactValue(e.body),
    receivedAt: e.receivedAt,
  }));
}
