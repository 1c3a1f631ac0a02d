/**
 * The schema of a library database as numbered migrations. An applied migration is recorded in
 * `schema_migrations` with the sha256 of its SQL, so NEVER edit one that has shipped: add a new
 * one. The runner refuses a database whose recorded hash differs from the SQL here. The SQL of
 * each group of versions is in `migrations/` (one file per group); this file lists them in order.
 *
 * Design notes (v1):
 * - `tasks.id` is the local UUID (TEXT PRIMARY KEY). `seq` is an immutable, unique integer made
 *   from created_at (see sort-key.ts), so `seq` order is "created_at, then insertion order": every
 *   list is ordered by it through one of the `(…, seq)` indexes, and it is the FTS rowid (the hidden
 *   rowid of a table with a TEXT key may change on VACUUM; `seq` never does).
 * - Timestamps are ISO text normalised to UTC by the store, so text order is time order.
 * - `task_events` has NO foreign key: the log outlives a deleted task (a record that something was
 *   sent to the paid service is worth keeping); deleting a task appends a last `deleted` event.
 * - `task_totals` holds counts and sums per (family, task_type, state, favorite), kept by triggers
 *   in the same transaction as the change, so counts and the cost summary cost the same with 100 or
 *   100,000 tasks.
 * - `tasks_fts` is an external-content FTS5 table over title, prompt and lyrics (rowid = seq), kept
 *   in sync by triggers that only fire when one of those columns really changes.
 * - The state lists in the partial indexes must equal REMOTE_ACTIVE_STATES and the states
 *   durationHistory reads (a test checks this); changing them needs a new migration.
 */

import { V1_SCHEMA } from './migrations/v1-initial-schema.ts';
import { V2_SPENT, V3_ORDERS } from './migrations/v2-v3-cost-and-orders.ts';
import { V4_SHARED_INPUTS, V5_LINEAGE, V6_PARENT_GONE } from './migrations/v4-v6-inputs-and-lineage.ts';
import { V7_RECENTLY_DELETED } from './migrations/v7-recently-deleted.ts';
import { V8_UNREADABLE_ANSWERS } from './migrations/v8-unreadable-answers.ts';
import { V9_CATALOG_ENTRY } from './migrations/v9-catalog-entry.ts';
import { V10_CREATE_SETTLEMENT } from './migrations/v10-create-settlement.ts';
import { V11_ENTRY_INDEX } from './migrations/v11-entry-index.ts';
import { V12_BILLED_COST } from './migrations/v12-billed-cost.ts';
import { V13_BOARDS } from './migrations/v13-boards.ts';
import { V14_LLM_BILLED_SONGS } from './migrations/v14-llm-billed-songs.ts';
import { V15_INPUT_NAMES } from './migrations/v15-input-names.ts';
import { V16_BATCH_PLACE } from './migrations/v16-batch-place.ts';
import { V17_OUTPUTS_BY_CHECKSUM } from './migrations/v17-outputs-by-checksum.ts';
import { V18_OUTPUT_SIZES } from './migrations/v18-output-sizes.ts';
import { V19_BOARD_COUNTS } from './migrations/v19-board-counts.ts';
import { V20_TRASHED_BY_SEQ } from './migrations/v20-trashed-by-seq.ts';
import { V21_SEARCH_TERMS_TYPE_TITLE } from './migrations/v21-search-terms-type-title.ts';
import { V22_SEARCH_PREFIXES } from './migrations/v22-search-prefixes.ts';
import { V23_SEARCH_MERGE_STEPS } from './migrations/v23-search-merge-steps.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial library schema', sql: V1_SCHEMA },
  { version: 2, name: 'what each task cost: reported usage, else the estimate', sql: V2_SPENT },
  { version: 3, name: 'orders by title, cost and length', sql: V3_ORDERS },
  {
    version: 4,
    name: 'inputs kept once per content; saved inline outputs without their data',
    sql: V4_SHARED_INPUTS,
  },
  { version: 5, name: 'lineage (parent task and output) and batches', sql: V5_LINEAGE },
  { version: 6, name: 'a task keeps the title of its deleted parent', sql: V6_PARENT_GONE },
  { version: 7, name: 'Recently deleted: deleted_at, totals by trashed', sql: V7_RECENTLY_DELETED },
  { version: 8, name: 'answers that could not be read, counted in a row', sql: V8_UNREADABLE_ANSWERS },
  { version: 9, name: "each task's catalog entry (model and task type)", sql: V9_CATALOG_ENTRY },
  { version: 10, name: 'what the history showed about a create in doubt', sql: V10_CREATE_SETTLEMENT },
  { version: 11, name: 'tasks by catalog entry (the Makes and Model filters)', sql: V11_ENTRY_INDEX },
  { version: 12, name: 'what each task cost as billed, and its check on the price', sql: V12_BILLED_COST },
  { version: 13, name: 'boards: named collections of tasks', sql: V13_BOARDS },
  {
    version: 14,
    name: "older libraries' songs counted at their reported llm usage",
    sql: V14_LLM_BILLED_SONGS,
  },
  { version: 15, name: "each file input's own name (the file the user gave)", sql: V15_INPUT_NAMES },
  { version: 16, name: "a task's place in its batch", sql: V16_BATCH_PLACE },
  { version: 17, name: 'saved results by their checksum (recall of a file)', sql: V17_OUTPUTS_BY_CHECKSUM },
  { version: 18, name: 'saved results by kind: how many and their bytes on disk', sql: V18_OUTPUT_SIZES },
  {
    version: 19,
    name: 'each board keeps how many of its tasks are not in Recently deleted',
    sql: V19_BOARD_COUNTS,
  },
  { version: 20, name: 'Recently deleted in list order', sql: V20_TRASHED_BY_SEQ },
  {
    version: 21,
    name: "the search index's terms (a last word named); one task type by title",
    sql: V21_SEARCH_TERMS_TYPE_TITLE,
  },
  { version: 22, name: 'a search prefix of one to three characters, indexed', sql: V22_SEARCH_PREFIXES },
  {
    version: 23,
    name: "the full-text index's segments merged in the store's own steps, not inside a write",
    sql: V23_SEARCH_MERGE_STEPS,
  },
];

/** The states the partial index `tasks_finished_by_model` covers: the service finished the task. */
export const FINISHED_AT_SERVICE_STATES = ['completed', 'downloading', 'saved', 'expired'] as const;

/** The schema version this build writes (migrations run 1, 2, 3… without gaps). */
export const SCHEMA_VERSION = MIGRATIONS.length;
