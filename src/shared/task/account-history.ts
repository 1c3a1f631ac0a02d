/**
 * The account's task history as the window and the CLI see it (issue 20, item 2): a page of the
 * tasks the key created anywhere (the vendor's web workspace, another computer, this app), each
 * marked with the library task that holds it, and the outcome of bringing some of them in.
 */
import { z } from 'zod';
import { TASK_TYPES } from '../catalog/task-types.ts';

/** Rows a page of the history holds. */
export const HISTORY_PAGE_SIZE = 20;

/** The states the history's filter offers (the service's words: `finished` when done). */
export const HISTORY_STATES = ['finished', 'failed', 'processing', 'pending'] as const;
export type HistoryState = (typeof HISTORY_STATES)[number];

/** The history families the catalog's entries are listed under (`llm`, `flux`…), sorted. */
export function historyFamilies(): string[] {
  const names = new Set<string>();
  for (const entry of TASK_TYPES) if (entry.historyFamily) names.add(entry.historyFamily);
  return [...names].sort();
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

export const AccountHistoryQuerySchema = z.strictObject({
  page: z.number().int().min(1).max(100_000),
  /** A history family (`llm`, `flux`…); every family when absent. */
  family: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/, 'a family name such as llm or flux')
    .optional(),
  /** Created on or after this day (UTC). */
  since: day.optional(),
  /** Created on or before this day (UTC). */
  until: day.optional(),
  /** Only tasks in this state (the service's word); the page's rows are filtered. */
  state: z.enum(HISTORY_STATES).optional(),
});
export type AccountHistoryQuery = z.infer<typeof AccountHistoryQuerySchema>;

/** One task of the account's history. Every string is the service's, made safe (service-strings.ts). */
export interface AccountHistoryRow {
  remoteId: string;
  /** The model id (vendor/model, as the service wrote it) or its family when the record names no model. */
  model: string | null;
  /** The task type (`txt2audio`). */
  taskType: string | null;
  /** The service's word, lower-cased (`finished`, `failed`, `processing`…). */
  status: string | null;
  /** ISO time; null when the record has none. */
  createdAt: string | null;
  /** The library task that holds it, or null when the library does not have it. */
  inLibrary: string | null;
}

export interface AccountHistoryPage {
  page: number;
  rows: AccountHistoryRow[];
  /** How many tasks match over all pages (before the state filter); null when the service does not say. */
  total: number | null;
  /** Whether a next page may hold more. */
  hasMore: boolean;
}

export const RemoteImportSchema = z.strictObject({
  ids: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9-]{1,64}$/, 'a task id as the service writes them'),
    )
    .min(1)
    .max(100),
});

/** What became of one id asked to be brought in. */
export interface RemoteImportOutcome {
  remoteId: string;
  /** queued: recorded, its outputs on their way; skipped: already in the library; failed: see message. */
  outcome: 'queued' | 'skipped' | 'failed';
  /** The library task (queued or skipped). */
  taskId: string | null;
  /** In plain words: what happened. */
  message: string;
}

/** The time bounds of a history query in epoch ms (a day's start, the until day's end, UTC). */
export function historyBoundsMs(query: Pick<AccountHistoryQuery, 'since' | 'until'>): {
  fromMs?: number;
  toMs?: number;
} {
  const bounds: { fromMs?: number; toMs?: number } = {};
  if (query.since) bounds.fromMs = Date.parse(`${query.since}T00:00:00Z`);
  if (query.until) bounds.toMs = Date.parse(`${query.until}T23:59:59Z`);
  return bounds;
}
