/**
 * One handler per call of the contract (STUDIO_CALLS), each taking the arguments zod already
 * checked. The handlers only translate: the engine, the store, the media checks and the host
 * adapters do the work.
 */
import { isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { mediaFieldsOf, type TaskFileReading } from '../../core/engine/index.ts';
import {
  InputValidationError,
  localPathCandidate,
  localPathProblem,
  validateInput,
} from '../../core/inputs/index.ts';
import { exportTasks, resolveLibraryFile } from '../../core/library/index.ts';
import { NetworkError } from '../../core/service/index.ts';
import type {
  AccountView,
  DraftView,
  MediaCheck,
  STUDIO_CALLS,
  StudioCallName,
  StudioCallResult,
  Task,
} from '../../shared/index.ts';
import { extensionsOf, MEDIA_KINDS } from '../../shared/index.ts';
import { boardCalls } from './board-calls.ts';
import type { CallContext } from './call-context.ts';
import { StudioCallError } from './call-errors.ts';
import { FOLDER_PURPOSE_WORDS, type FolderPurpose } from './path-grants.ts';
import { posterCalls } from './poster-calls.ts';
import { retentionCalls } from './retention-calls.ts';
import { retryCalls } from './retry-calls.ts';
import { savedFormsCalls } from './saved-forms-calls.ts';
import { trashCalls } from './trash-calls.ts';

type ArgsOf<K extends StudioCallName> = z.output<(typeof STUDIO_CALLS)[K]['args']>;

export type CallHandlers = {
  [K in StudioCallName]: (args: ArgsOf<K>) => Promise<StudioCallResult<K>>;
};

const NOT_GIVEN =
  'this file was not given to the app: drop it on the field or choose it with Browse (the window cannot name other files)';

/** Refuses a local file the window names that the user never gave the app; before any file call. */
function checkGivenFile(ctx: CallContext, field: string, value: unknown): void {
  if (typeof value !== 'string') return;
  const path = localPathCandidate(value.trim());
  if (path !== null && !ctx.grants.mayReadFile(path, ctx.libraryDir())) {
    throw new StudioCallError('not-given', `${field}: ${NOT_GIVEN}`, field);
  }
}

/** A folder the window names must be one the user chose in a dialog, for this purpose. */
function givenFolder(ctx: CallContext, field: string, value: string, purpose: FolderPurpose): string {
  const folder = absoluteFolder(field, value);
  const chosenFor = ctx.grants.folderPurposes(folder);
  if (chosenFor.length === 0) {
    throw new StudioCallError(
      'not-given',
      `${field}: this folder was not chosen in the app's folder dialog; choose it there`,
      field,
    );
  }
  if (!chosenFor.includes(purpose)) {
    const words = chosenFor.map((p) => FOLDER_PURPOSE_WORDS[p]).join(' and ');
    throw new StudioCallError(
      'not-given',
      `${field}: this folder was chosen as ${words}, not as ${FOLDER_PURPOSE_WORDS[purpose]}; choose it for that in the app's folder dialog`,
      field,
    );
  }
  return folder;
}

/** Asks for a folder in a native dialog; the answer is one the window may name from now on, for this purpose. */
async function chooseGivenFolder(
  ctx: CallContext,
  title: string,
  purpose: FolderPurpose,
): Promise<string | null> {
  const folder = await ctx.options.dialogs.chooseFolder(title);
  if (folder !== null) ctx.grants.grantFolder(folder, purpose);
  return folder;
}

function taskOrFail(ctx: CallContext, id: string): Task {
  const task = ctx.engine().store.getTask(id);
  if (!task) throw new StudioCallError('not-found', `no task ${id} in the library`, 'id');
  return task;
}

/** The absolute path of a saved output, confined to the library. */
function outputFile(ctx: CallContext, task: Task, index: number | undefined): string {
  const output =
    index === undefined
      ? (task.outputs.find((o) => o.path) ?? task.outputs[0])
      : task.outputs.find((o) => o.index === index);
  if (!output) {
    throw new StudioCallError(
      'not-found',
      index === undefined ? 'this task has no output yet' : `this task has no output ${index}`,
      'index',
    );
  }
  if (!output.path) {
    throw new StudioCallError(
      'not-allowed',
      `output ${output.index} is not saved in the library (${output.state})`,
    );
  }
  const file = resolveLibraryFile(ctx.libraryDir(), output.path);
  if (!file)
    throw new StudioCallError(
      'not-found',
      `the file of output ${output.index} is missing from the library folder`,
    );
  return file;
}

/** An absolute local folder path; a relative, network (UNC) or device path is refused before any file call. */
function absoluteFolder(field: string, value: string): string {
  const problem = localPathProblem(value);
  if (problem !== null)
    throw new StudioCallError('invalid-input', `${field}: ${JSON.stringify(value)} ${problem}`, field);
  if (!isAbsolute(value))
    throw new StudioCallError('invalid-input', `${field}: must be an absolute folder path`, field);
  return resolve(value);
}

function settingsCalls(ctx: CallContext) {
  return {
    'settings.get': async () => ctx.settingsView(),

    'settings.update': async (args: ArgsOf<'settings.update'>) => {
      const update =
        args.libraryDir === undefined
          ? args
          : { ...args, libraryDir: givenFolder(ctx, 'libraryDir', args.libraryDir, 'library') };
      await ctx.updateSettings(update);
      const view = ctx.settingsView();
      ctx.emit('settings.changed', view);
      return view;
    },

    'settings.setApiKey': async (args: ArgsOf<'settings.setApiKey'>) => {
      const storage = ctx.options.secrets.storage();
      if (storage === 'unavailable') {
        throw new StudioCallError(
          'key-storage-unavailable',
          'this system offers no way to keep the API key encrypted, so it cannot be saved; use demo mode, or set up the system keychain and try again',
          'key',
        );
      }
      // where Linux has no keyring, main asks the user first (settings-control.ts)
      await ctx.setApiKey(args.key);
      const view = ctx.settingsView();
      ctx.emit('settings.changed', view);
      return view;
    },

    'settings.confirmKeyAddresses': async () => {
      await ctx.confirmKeyAddresses();
      const view = ctx.settingsView();
      ctx.emit('settings.changed', view);
      return view;
    },

    'settings.clearApiKey': async () => {
      await ctx.clearApiKey();
      const view = ctx.settingsView();
      ctx.emit('settings.changed', view);
      return view;
    },

    'settings.chooseLibraryDir': async () => chooseGivenFolder(ctx, 'Choose the library folder', 'library'),
  } satisfies Partial<CallHandlers>;
}

function accountCalls(ctx: CallContext) {
  return {
    'account.get': async (): Promise<AccountView> => {
      const service = ctx.statusView().service;
      if (service === 'none') {
        throw new StudioCallError(
          'not-configured',
          'no service is set up yet: store your API key in Settings (or turn on demo mode) to see a balance',
        );
      }
      const info = await ctx
        .engine()
        .account()
        .catch((err: unknown) => {
          // a balance that cannot be asked because nothing answers says where, apart from a refusal
          if (!(err instanceof NetworkError)) throw err;
          const address = ctx.statusView().serviceAddress ?? 'the service';
          // "Reading the balance failed: the connection was refused before the request was sent (…)"
          const what = /failed: (.*?) (?:before|after) the request was sent/.exec(err.message)?.[1];
          throw new StudioCallError('unreachable', `could not reach ${address}${what ? ` (${what})` : ''}`);
        });
      return {
        service,
        accountName: info.accountName,
        balanceUsd: info.balanceUsd,
        credits: info.credits,
        checkedAt: new Date().toISOString(),
      };
    },
    'account.history': async (args: ArgsOf<'account.history'>) => {
      if (ctx.statusView().service === 'none') {
        throw new StudioCallError(
          'not-configured',
          'no service is set up yet: store your API key in Settings (or turn on demo mode) to see the account’s tasks',
        );
      }
      return ctx.engine().history(args);
    },
  } satisfies Partial<CallHandlers>;
}

/** How many task.json readings wait for the user's word at once (the oldest go first). */
const MAX_OPEN_READINGS = 8;

function taskCalls(ctx: CallContext) {
  const readings = new Map<string, TaskFileReading>();
  // a reading being queued: the same import confirmed again meanwhile gets that task, not a second
  const queueing = new Map<string, Promise<Task>>();
  return {
    'tasks.expectedTime': async (args: ArgsOf<'tasks.expectedTime'>) => ctx.engine().expectedTime(args),
    'tasks.queue': async (args: ArgsOf<'tasks.queue'>) => {
      for (const rule of mediaFieldsOf(ctx.engine().entryOf(args)))
        checkGivenFile(ctx, rule.field, args.input[rule.field]);
      return ctx.engine().queueTask(args);
    },

    'tasks.queueBatch': async (args: ArgsOf<'tasks.queueBatch'>) => {
      for (const [i, draft] of args.drafts.entries()) {
        try {
          for (const rule of mediaFieldsOf(ctx.engine().entryOf(draft)))
            checkGivenFile(ctx, rule.field, draft.input[rule.field]);
        } catch (err) {
          if (err instanceof StudioCallError)
            err.message = `draft ${i + 1} of ${args.drafts.length}: ${err.message}`;
          throw err;
        }
      }
      const { acceptUnknownPrice } = args;
      return ctx
        .engine()
        .queueBatch(args.drafts, acceptUnknownPrice === undefined ? {} : { acceptUnknownPrice });
    },

    'tasks.cancelBatch': async (args: ArgsOf<'tasks.cancelBatch'>) => ctx.engine().cancelBatch(args.batchId),

    'tasks.batches': async (args: ArgsOf<'tasks.batches'>) => ctx.engine().batches(args.batchId),

    'tasks.lineage': async (args: ArgsOf<'tasks.lineage'>) => {
      const lineage = ctx.engine().lineage(args.id);
      if (!lineage) throw new StudioCallError('not-found', `no task ${args.id} in the library`, 'id');
      return lineage;
    },

    'tasks.readTaskFile': async () => {
      // a task.json, or a result file the app exported or saved (its parameters inside, or its checksum)
      const results = MEDIA_KINDS.filter((k) => k !== 'file').flatMap(extensionsOf);
      const file = await ctx.options.dialogs.chooseFile(
        'Queue again from an export: a task.json or a file the app made',
        [{ name: 'Exported task or result file', extensions: ['json', ...results] }],
      );
      if (file === null) return null;
      const reading = await ctx.engine().readTaskFile(file);
      // main keeps what it read: the window confirms it by id and cannot change it
      readings.set(reading.preview.importId, reading);
      for (const old of readings.keys()) if (readings.size > MAX_OPEN_READINGS) readings.delete(old);
      return reading.preview;
    },

    'tasks.recallFile': async (args: ArgsOf<'tasks.recallFile'>) => {
      // only a file the user gave the app (dropped), named by its full path
      if (!isAbsolute(args.path)) {
        throw new StudioCallError('not-given', 'path: the window names a file by its full path only', 'path');
      }
      checkGivenFile(ctx, 'path', args.path);
      const { preview } = await ctx.engine().readTaskFile(args.path);
      if (!preview.recall) {
        throw new StudioCallError(
          'invalid-input',
          'path: this is a task.json, not a result file; open it with Queue again from an export… in the Library',
          'path',
        );
      }
      return preview.recall;
    },

    'tasks.queueTaskFile': async (args: ArgsOf<'tasks.queueTaskFile'>) => {
      const under = queueing.get(args.importId);
      if (under) return under;
      const reading = readings.get(args.importId);
      if (!reading) {
        throw new StudioCallError(
          'not-found',
          'importId: this import is no longer open; choose the file again',
          'importId',
        );
      }
      for (const [field, path] of Object.entries(args.files)) checkGivenFile(ctx, field, path);
      const { files, keepWebhook, acceptUnknownPrice } = args;
      const once = ctx.engine().queueTaskFile(reading, { files, keepWebhook, acceptUnknownPrice });
      queueing.set(args.importId, once);
      try {
        const task = await once;
        readings.delete(args.importId);
        return task;
      } finally {
        queueing.delete(args.importId);
      }
    },

    'tasks.list': async (args: ArgsOf<'tasks.list'>) => ctx.engine().store.listTasks(args),

    'tasks.count': async (args: ArgsOf<'tasks.count'>) => ctx.engine().store.countTasks(args),

    'tasks.get': async (args: ArgsOf<'tasks.get'>) => ctx.engine().store.getTask(args.id),

    'tasks.events': async (args: ArgsOf<'tasks.events'>) => {
      taskOrFail(ctx, args.id);
      return ctx
        .engine()
        .store.events(args.id)
        .map((e) => ({ at: e.at, from: e.from, to: e.to, detail: e.detail }));
    },

    'tasks.cancel': async (args: ArgsOf<'tasks.cancel'>) => ctx.engine().cancel(args.id),
    'tasks.resubmit': async (args: ArgsOf<'tasks.resubmit'>) => ctx.engine().resubmit(args.id),
    'tasks.discard': async (args: ArgsOf<'tasks.discard'>) => ctx.engine().discard(args.id),
    'tasks.settle': async (args: ArgsOf<'tasks.settle'>) => ctx.engine().settle(args.id, args.remoteId),
    'tasks.importRemote': async (args: ArgsOf<'tasks.importRemote'>) =>
      ctx.engine().importRemoteTasks(args.ids),
    'tasks.checkNow': async (args: ArgsOf<'tasks.checkNow'>) => ctx.engine().checkNow(args.id),
    'tasks.retryDownloads': async (args: ArgsOf<'tasks.retryDownloads'>) =>
      ctx.engine().retryDownloads(args.id),

    'tasks.draftOf': async (args: ArgsOf<'tasks.draftOf'>): Promise<DraftView> =>
      ctx.engine().draftOf(taskOrFail(ctx, args.id)),

    'tasks.setFavorite': async (args: ArgsOf<'tasks.setFavorite'>) => {
      taskOrFail(ctx, args.id);
      return ctx.engine().setFavorite(args.id, args.favorite);
    },

    'tasks.rename': async (args: ArgsOf<'tasks.rename'>) => {
      taskOrFail(ctx, args.id);
      return ctx.engine().rename(args.id, args.title);
    },

    'tasks.export': async (args: ArgsOf<'tasks.export'>) => {
      const tasks = args.ids.map((id) => taskOrFail(ctx, id));
      let dest: string | null;
      if (args.destDir !== undefined) dest = givenFolder(ctx, 'destDir', args.destDir, 'export');
      else dest = await chooseGivenFolder(ctx, 'Export to folder', 'export');
      if (dest === null) return null;
      const store = ctx.engine().store;
      return exportTasks(
        ctx.libraryDir(),
        tasks,
        dest,
        (id) => store.boardNamesOf(id),
        ctx.options.appVersion,
      );
    },

    'tasks.reveal': async (args: ArgsOf<'tasks.reveal'>) => {
      const file = outputFile(ctx, taskOrFail(ctx, args.id), args.index);
      await ctx.options.shell.reveal(file);
      return { ok: true as const };
    },

    'tasks.dragOut': async (args: ArgsOf<'tasks.dragOut'>) => {
      const file = outputFile(ctx, taskOrFail(ctx, args.id), args.index);
      await ctx.options.shell.startDrag(file);
      return { ok: true as const };
    },
  } satisfies Partial<CallHandlers>;
}

async function checkMedia(ctx: CallContext, args: ArgsOf<'media.check'>): Promise<MediaCheck> {
  try {
    checkGivenFile(ctx, args.field, args.value);
    const v = await validateInput(args.value, {
      field: args.field,
      kind: args.kind,
      faceSwap: args.faceSwap ?? false,
    });
    if (v.source === 'url') {
      return { ok: true, message: null, source: 'url', mime: null, width: null, height: null, size: null };
    }
    return {
      ok: true,
      message: null,
      source: v.source,
      mime: v.mime,
      width: v.width ?? null,
      height: v.height ?? null,
      size: v.source === 'file' ? v.size : v.bytes,
    };
  } catch (err) {
    const refused =
      err instanceof InputValidationError || (err instanceof StudioCallError && err.kind === 'not-given');
    if (!refused) throw err;
    return {
      ok: false,
      message: err.message,
      source: null,
      mime: null,
      width: null,
      height: null,
      size: null,
    };
  }
}

export function createCallHandlers(ctx: CallContext): CallHandlers {
  return {
    'app.info': async () => ({
      version: ctx.options.appVersion,
      platform: ctx.options.platform,
      mediaBaseUrl: ctx.options.mediaBaseUrl,
      libraryDir: ctx.libraryDir(),
      sandboxUrl: ctx.sandboxUrl(),
    }),
    ...settingsCalls(ctx),
    ...accountCalls(ctx),
    'engine.status': async () => ctx.statusView(),
    'media.check': (args: ArgsOf<'media.check'>) => checkMedia(ctx, args),
    ...taskCalls(ctx),
    ...retryCalls(ctx),
    ...trashCalls(ctx),
    ...boardCalls(ctx),
    ...retentionCalls(ctx),
    ...posterCalls(ctx),
    ...savedFormsCalls(ctx),
    'cost.summary': async () => ({
      ...ctx.engine().store.costSummary(),
      budgetMicros: ctx.engine().budget(),
    }),
  };
}
