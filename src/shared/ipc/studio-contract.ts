/**
 * The one contract between the renderer and the main process: every call with the zod schema
 * of its arguments (checked in main before anything runs) and the type of its result, and every
 * event main sends. main registers a handler per call from this table, the preload exposes
 * exactly `StudioBridge`, the renderer's types come from here, and the browser test harness
 * implements the same bridge over the real engine.
 */
import { z } from 'zod';
import { INPUT_MEDIA_KINDS } from '../catalog/input-fields.ts';
import { apiKeyProblem } from '../catalog/limits.ts';
import { SavedFormsSchema, type SavedFormsView } from '../compose/saved-forms.ts';
import { SettingsUpdateSchema, type StudioSettings } from '../settings/settings-schema.ts';
import {
  type AccountHistoryPage,
  AccountHistoryQuerySchema,
  type RemoteImportOutcome,
  RemoteImportSchema,
} from '../task/account-history.ts';
import { type BoardChangeOutcome, BoardIdSchema, BoardNameSchema, type BoardView } from '../task/boards.ts';
import type { FileRecall } from '../task/file-recall.ts';
import {
  type CostSummary,
  type ExportResult,
  ListQuerySchema,
  type StateCounts,
  type TaskChange,
  TaskFilterSchema,
  type TaskPage,
  TaskSelectionSchema,
  type TrashActionOutcome,
  type TrashOutcome,
} from '../task/library-queries.ts';
import {
  type LibrarySize,
  type RetentionOutcome,
  RetentionRulesSchema,
  type RetentionView,
} from '../task/retention.ts';
import { type DraftView, TaskBatchSchema, TaskDraftSchema } from '../task/task-draft.ts';
import type { TaskFilePreview } from '../task/task-file-import.ts';
import type { BatchCancelView, BatchRetryView, BatchSummary, TaskLineage } from '../task/task-lineage.ts';
import type { EngineStatus, InputSource, Task, TaskEvent } from '../task/task-model.ts';

// ---------- shapes that cross the bridge ----------

const id = z.string().min(1).max(100);
const text = (max: number) => z.string().max(max);

/** A batch queued: every draft's task, in the order of the drafts. */
export interface BatchView {
  batchId: string;
  tasks: Task[];
}

/** Which service tasks go to: the built-in sandbox, the real service, or none yet. */
export type ServiceChoice = 'sandbox' | 'remote' | 'none';

export interface EngineStatusView extends EngineStatus {
  service: ServiceChoice;
  /** The real service's address (`https://api.piapi.ai`) while tasks go to it; null otherwise. */
  serviceAddress: string | null;
}

export interface AppInfo {
  version: string;
  platform: string;
  /** Prefix that turns a library-relative path into a URL the renderer can load. */
  mediaBaseUrl: string;
  libraryDir: string;
  /** Where the built-in sandbox listens, when it runs. */
  sandboxUrl: string | null;
}

/** The account at the service: its balance, as the service reports it. */
export interface AccountView {
  /** Which service answered. */
  service: Exclude<ServiceChoice, 'none'>;
  accountName: string | null;
  /** The balance in US dollars, when the service says. */
  balanceUsd: number | null;
  /** The balance in the service's credits, when it says. */
  credits: number | null;
  /** When it was read (ISO time). */
  checkedAt: string;
}

export interface MediaCheck {
  ok: boolean;
  /** When not ok: the reason, naming the field. */
  message: string | null;
  source: InputSource | null;
  mime: string | null;
  width: number | null;
  height: number | null;
  size: number | null;
}

/** The cost summary and the budget it is checked against (micro-dollars; null: none). */
export interface CostView extends CostSummary {
  budgetMicros: number | null;
}

// ---------- calls ----------

const none = z.strictObject({});
const byId = z.strictObject({ id });

/** Every call: its argument schema and (as a phantom type) its result. */
export const STUDIO_CALLS = {
  'app.info': { args: none, result: z.custom<AppInfo>() },
  'settings.get': { args: none, result: z.custom<StudioSettings>() },
  'settings.update': { args: SettingsUpdateSchema, result: z.custom<StudioSettings>() },
  /**
   * Stores the key, tied to every address the settings send it to. Where Linux has no keyring,
   * main first asks the user in a native dialog (the page cannot give that consent).
   */
  'settings.setApiKey': {
    args: z.strictObject({
      // the one rule for a key (visible ASCII, 8 to 500), after trimming what a paste adds at the ends
      key: z
        .string()
        .max(2000)
        .transform((k) => k.trim())
        .superRefine((k, ctx) => {
          const problem = apiKeyProblem(k);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
    }),
    result: z.custom<StudioSettings>(),
  },
  'settings.clearApiKey': { args: none, result: z.custom<StudioSettings>() },
  /**
   * Ties the stored key to the addresses the settings send it to now (`keyAddressesToConfirm`),
   * once the user agrees in a native dialog main owns that names each of them in full.
   */
  'settings.confirmKeyAddresses': { args: none, result: z.custom<StudioSettings>() },
  /** Asks the user for a folder (native dialog); null when cancelled. */
  'settings.chooseLibraryDir': { args: none, result: z.custom<string | null>() },
  'engine.status': { args: none, result: z.custom<EngineStatusView>() },
  /** The account's balance, asked of the service now (also a cheap check of the key and address). */
  'account.get': { args: none, result: z.custom<AccountView>() },
  /** A page of the account's task history (tasks made anywhere), each marked with the library task that holds it. */
  'account.history': { args: AccountHistoryQuerySchema, result: z.custom<AccountHistoryPage>() },
  /** Checks one media value (URL, Base64 or a dropped file's path) before queueing. */
  'media.check': {
    args: z.strictObject({
      field: text(100).min(1),
      value: z.string().min(1).max(30_000_000),
      kind: z.enum(INPUT_MEDIA_KINDS),
      faceSwap: z.boolean().optional(),
    }),
    result: z.custom<MediaCheck>(),
  },
  'tasks.queue': { args: TaskDraftSchema, result: z.custom<Task>() },
  /**
   * How long the service is expected to take for a task of this kind and size, learned from the
   * library's recent tasks of its kind (`samples` of them; 0: the catalog's default).
   */
  'tasks.expectedTime': {
    args: z.strictObject({
      model: z.string().min(1).max(200),
      taskType: z.string().min(1).max(100),
      input: z.record(z.string().max(100), z.unknown()),
    }),
    result: z.custom<{ expectedMs: number; samples: number }>(),
  },
  /**
   * Queues every draft as one batch, or none: each draft is checked first, then the total price
   * against the budget, then all are recorded at once. A refusal names the draft (`draft 3 of 12: …`).
   */
  'tasks.queueBatch': { args: TaskBatchSchema, result: z.custom<BatchView>() },
  /** Cancels the batch's tasks that are still only queued on this computer. */
  'tasks.cancelBatch': { args: z.strictObject({ batchId: id }), result: z.custom<BatchCancelView>() },
  /**
   * Without `batchId`: the batches with a task not ended yet (for Activity), newest first. With
   * it: that one batch, ended or not (an empty list when no task has it).
   */
  'tasks.batches': {
    args: z.strictObject({ batchId: id.optional() }),
    result: z.custom<BatchSummary[]>(),
  },
  /** What a task was made from (nearest first) and what was made from it. */
  'tasks.lineage': { args: byId, result: z.custom<TaskLineage>() },
  /**
   * Asks the user for an exported `task.json` (native dialog), reads it and describes what it
   * would queue (inputs only from its own folder, the model, the price, its webhook); queues
   * nothing. Null when the dialog was cancelled.
   */
  'tasks.readTaskFile': { args: z.strictObject({}), result: z.custom<TaskFilePreview | null>() },
  /**
   * The task a file the app made came from (a file the user dropped on the composer): its embedded
   * parameters, else its checksum among the library's results (issue 22, item 2). Refused in words
   * when the file says nothing the library knows. Queues nothing.
   */
  'tasks.recallFile': { args: z.strictObject({ path: text(4096).min(1) }), result: z.custom<FileRecall>() },
  /**
   * Queues a task.json read by tasks.readTaskFile, on the user's word: `files` are the files the
   * user picked (dropped or browsed, granted as drops are) for inputs marked `needs-file`;
   * the webhook is sent only with `keepWebhook`. `acceptUnknownPrice`: as for tasks.queue.
   */
  'tasks.queueTaskFile': {
    args: z.strictObject({
      importId: id,
      files: z.record(z.string().min(1).max(100), z.string().min(1).max(4096)),
      keepWebhook: z.boolean(),
      acceptUnknownPrice: z.boolean(),
    }),
    result: z.custom<Task>(),
  },
  'tasks.list': { args: ListQuerySchema, result: z.custom<TaskPage>() },
  'tasks.count': {
    args: TaskFilterSchema,
    result: z.custom<StateCounts>(),
  },
  'tasks.get': { args: byId, result: z.custom<Task | null>() },
  'tasks.events': {
    args: byId,
    result: z.custom<Omit<TaskEvent, 'taskId'>[]>(),
  },
  'tasks.cancel': { args: byId, result: z.custom<Task>() },
  'tasks.resubmit': { args: byId, result: z.custom<Task>() },
  'tasks.discard': { args: byId, result: z.custom<Task>() },
  /** Takes one of the service's tasks (its id) as the create of an uncertain task: the user's choice among candidates. */
  /** Brings in tasks made elsewhere by their service ids, with their outputs; each id's outcome in words. */
  'tasks.importRemote': { args: RemoteImportSchema, result: z.custom<RemoteImportOutcome[]>() },
  'tasks.settle': {
    args: z.strictObject({ id, remoteId: z.string().trim().min(1).max(200) }),
    result: z.custom<Task>(),
  },
  /** Asks the service about a task it holds now, instead of at the next scheduled fetch. */
  'tasks.checkNow': { args: byId, result: z.custom<Task>() },
  /** Tries the failed downloads of a task's results again. */
  'tasks.retryDownloads': { args: byId, result: z.custom<Task>() },
  /** The draft that recreates a task, to open the composer filled in. */
  'tasks.draftOf': { args: byId, result: z.custom<DraftView>() },
  'tasks.setFavorite': { args: z.strictObject({ id, favorite: z.boolean() }), result: z.custom<Task>() },
  'tasks.rename': { args: z.strictObject({ id, title: text(200).min(1) }), result: z.custom<Task>() },
  /**
   * Moves a selection to Recently deleted (kept with its files for 30 days): a task still queued
   * here is cancelled first; one the service is working on is left and counted as running.
   */
  'tasks.delete': {
    args: z.strictObject({ selection: TaskSelectionSchema }),
    result: z.custom<TrashOutcome>(),
  },
  /** Takes a selection out of Recently deleted, or the tasks of one delete (its `deletedAt`: Undo). */
  'tasks.restore': {
    args: z.union([
      z.strictObject({ selection: TaskSelectionSchema }),
      z.strictObject({ deletedAt: z.iso.datetime() }),
    ]),
    result: z.custom<TrashActionOutcome>(),
  },
  /** Deletes the selected tasks in Recently deleted for good, with their files (others are skipped). */
  'tasks.deleteForever': {
    args: z.strictObject({ selection: TaskSelectionSchema }),
    result: z.custom<TrashActionOutcome>(),
  },
  /** Deletes every task in Recently deleted for good, with their files. */
  'tasks.emptyTrash': { args: none, result: z.custom<TrashActionOutcome>() },
  /** The ids of a selection, newest first, for the actions that take ids; refused above MAX_SELECTION_IDS. */
  'tasks.selectionIds': {
    args: z.strictObject({ selection: TaskSelectionSchema }),
    result: z.custom<string[]>(),
  },
  /** Exports to `destDir`, or asks the user for a folder when it is absent; null when cancelled. */
  'tasks.export': {
    args: z.strictObject({ ids: z.array(id).min(1).max(10_000), destDir: text(4000).optional() }),
    result: z.custom<ExportResult | null>(),
  },
  'tasks.reveal': {
    args: z.strictObject({ id, index: z.number().int().min(0).max(100).optional() }),
    result: z.custom<{ ok: true }>(),
  },
  /**
   * A video output's poster, drawn by the window from its first frame: a PNG (checked by its
   * bytes) of at most 512 KB and 640 px a side, in Base64 without a data: prefix. Kept once.
   */
  'tasks.savePoster': {
    args: z.strictObject({
      id,
      index: z.number().int().min(0).max(100),
      png: z.string().min(1).max(700_000),
    }),
    result: z.custom<Task>(),
  },
  /** Starts an OS drag of an output file out of the window (Electron only). */
  'tasks.dragOut': {
    args: z.strictObject({ id, index: z.number().int().min(0).max(100) }),
    result: z.custom<{ ok: true }>(),
  },
  'cost.summary': { args: none, result: z.custom<CostView>() },
  /** The saved results' files by kind, from the sizes recorded at save (never a walk of the disk). */
  'library.size': { args: none, result: z.custom<LibrarySize>() },
  /** The retention rules as kept (off until the user switches them on) and their last run. */
  'retention.get': { args: none, result: z.custom<RetentionView>() },
  /** What these rules would move to Recently deleted now, by kind, and the bytes; moves nothing. */
  'retention.preview': { args: RetentionRulesSchema, result: z.custom<RetentionOutcome>() },
  /**
   * Keeps the rules; switched on, they run at once (then daily): answered once the run has started,
   * its progress in engine.status's retentionRun, what it moved the last run once it ends.
   */
  'retention.set': { args: RetentionRulesSchema, result: z.custom<RetentionView>() },
  /** The boards (named collections of tasks), A to Z, each with how many tasks it holds (not those in Recently deleted). */
  'boards.list': { args: none, result: z.custom<BoardView[]>() },
  /** Makes a board; refused when another board has that name (any case). */
  'boards.create': { args: z.strictObject({ name: BoardNameSchema }), result: z.custom<BoardView>() },
  'boards.rename': {
    args: z.strictObject({ id: BoardIdSchema, name: BoardNameSchema }),
    result: z.custom<BoardView>(),
  },
  /** Deletes a board, never its tasks. */
  'boards.delete': { args: z.strictObject({ id: BoardIdSchema }), result: z.custom<{ deleted: true }>() },
  /**
   * Puts a selection on a board (tasks in Recently deleted are left out, as `missing`): by its id,
   * or by its name (any case), made when there is none, as the CLI's `board add NAME` does.
   */
  'boards.add': {
    args: z.union([
      z.strictObject({ id: BoardIdSchema, selection: TaskSelectionSchema }),
      z.strictObject({ name: BoardNameSchema, selection: TaskSelectionSchema }),
    ]),
    result: z.custom<BoardChangeOutcome>(),
  },
  /** Takes a selection off a board. */
  'boards.remove': {
    args: z.strictObject({ id: BoardIdSchema, selection: TaskSelectionSchema }),
    result: z.custom<BoardChangeOutcome>(),
  },
  /**
   * Queues each failed task of a batch once more, as a new batch (each a re-run of its failure);
   * a failure already retried is left out, and when none is left the call is refused.
   */
  'tasks.retryFailed': { args: z.strictObject({ batchId: id }), result: z.custom<BatchRetryView>() },
  /** The tasks queued as retries of these (re-runs of them), oldest first, for failures shown. */
  'tasks.retries': {
    args: z.strictObject({ ids: z.array(id).max(500) }),
    result: z.custom<Task[]>(),
  },
  /** Keeps the composer's forms in a file of the app's data folder (local files only while given). */
  'compose.saveForms': { args: SavedFormsSchema, result: z.custom<{ saved: true }>() },
  /** The composer's forms kept last time (null on the first start), or why they could not be read. */
  'compose.loadForms': { args: none, result: z.custom<SavedFormsView>() },
} as const;

export type StudioCallName = keyof typeof STUDIO_CALLS;
export type StudioCallArgs<K extends StudioCallName> = z.input<(typeof STUDIO_CALLS)[K]['args']>;
export type StudioCallResult<K extends StudioCallName> = z.infer<(typeof STUDIO_CALLS)[K]['result']>;

// ---------- events ----------

export interface StudioEvents {
  /** Coalesced: at most one delivery per 50 ms, latest state of each task. */
  'tasks.changed': TaskChange[];
  'engine.status': EngineStatusView;
  'settings.changed': StudioSettings;
  /** Menu commands the renderer acts on (e.g. `new-song`, `open-settings`, `focus-search`). */
  'menu.command': string;
}
export type StudioEventName = keyof StudioEvents;
export const STUDIO_EVENT_NAMES: readonly StudioEventName[] = [
  'tasks.changed',
  'engine.status',
  'settings.changed',
  'menu.command',
];

// ---------- errors ----------

/** What a failed call carries across the bridge (never a stack, never the key). */
export interface StudioErrorView {
  /**
   * e.g. `invalid-input`, `budget`, `not-allowed`, `unauthorized`, `service`, `weak-storage`,
   * `not-confirmed` (the user said no in a native dialog), `too-many-questions`, `internal`.
   */
  kind: string;
  message: string;
  /** The input field the message is about, when there is one. */
  field: string | null;
}

export type StudioResult<T> = { ok: true; value: T } | { ok: false; error: StudioErrorView };

/** The renderer side of a failed call. */
export class StudioError extends Error {
  readonly kind: string;
  readonly field: string | null;
  constructor(view: StudioErrorView) {
    super(view.message);
    this.name = 'StudioError';
    this.kind = view.kind;
    this.field = view.field;
  }
}

// ---------- the bridge ----------

/** What the preload exposes as `window.studio`, and what the browser harness implements. */
export interface StudioBridge {
  invoke<K extends StudioCallName>(name: K, args: StudioCallArgs<K>): Promise<StudioCallResult<K>>;
  on<E extends StudioEventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void;
  /** The local path of a dropped File (Electron's webUtils.getPathForFile); '' when it has none. */
  pathForFile(file: File): string;
}

/** The channel name of a call or event on ipcMain/ipcRenderer. */
export const channelOf = (name: StudioCallName | StudioEventName): string => `studio:${name}`;

/**
 * The preload's own channel (not a call of the contract, so the page cannot send on it): the
 * path of a file the user dropped or picked, resolved by webUtils.getPathForFile, which main
 * then lets the window name in media.check and tasks.queue.
 */
export const GRANT_FILE_CHANNEL = 'studio-preload:grant-file';
