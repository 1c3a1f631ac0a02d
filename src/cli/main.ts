/**
 * `media-task`: the headless command line over the engine and the sandbox.
 * Usage: media-task [--library DIR] [--base-url URL] [--json] [--sandbox] <command> [options]
 */
import {
  BudgetExceededError,
  HistoryUnavailableError,
  PriceUnknownError,
  TaskActionError,
} from '../core/engine/index.ts';
import { InputValidationError } from '../core/inputs/index.ts';
import { LibraryBusyError } from '../core/library/index.ts';
import { BadRequestError, PlanRefusedError, ServiceError, UnauthorizedError } from '../core/service/index.ts';
import { runSandboxCommand } from '../sandbox/index.ts';
import { HOSTED_SERVICE, SANDBOX_VENDOR } from '../shared/index.ts';
import { runAccount } from './account-command.ts';
import { runBoard, runBoards } from './board-commands.ts';
import { runBatches, runCancel } from './cancel-commands.ts';
import { UsageError } from './cli-args.ts';
import { runCreate } from './create-command.ts';
import { EXIT } from './exit-codes.ts';
import { splitGlobalOptions } from './global-options.ts';
import { runHistory } from './history-command.ts';
import { runImport, runImportFile } from './import-command.ts';
import { runExport, runGet, runList } from './library-commands.ts';
import { runRecall } from './recall-command.ts';
import { runRetention } from './retention-command.ts';
import { runSettle } from './settle-command.ts';
import { printOut } from './terminal-output.ts';
import { runDelete, runRestore, runTrash } from './trash-commands.ts';
import { runWatch } from './watch-command.ts';

const USAGE = `Usage: media-task [--library DIR] [--base-url URL] [--vendor V] [--json] [--sandbox [--time-scale X]] <command>

The API key is read from MEDIA_TASK_API_KEY. The service is the hosted one (${HOSTED_SERVICE.baseUrl})
unless --base-url or MEDIA_TASK_BASE_URL names another (a pasted .../api/v1 is fine); local files
go through the service's upload endpoint when they fit (--upload-url or MEDIA_TASK_UPLOAD_URL for a
custom --base-url), else inside the request.
Model ids are <vendor>/<model>: the vendor is ${HOSTED_SERVICE.vendor} unless --vendor or MEDIA_TASK_VENDOR
says otherwise; --model on a create sends another id. --sandbox runs the built-in sandbox
service in this process instead (vendor ${SANDBOX_VENDOR}).
The library defaults to the desktop app's (MEDIA_TASK_LIBRARY overrides it).

Commands:
  sandbox [--port N] [--api-key K] [--time-scale X] [--profile spec|hosted]   run the local sandbox service
  create audio --style TEXT [--negative TEXT] [--lyrics-file F] [--duration S] [--reference FILE|URL]
  create face-swap --target FILE|URL --swap FILE|URL
  create face-swap --swap FILE|URL --target-dir DIR       one face onto every picture in DIR, as one batch
  create image-edit --image1 FILE|URL [--image2 ...] [--image3 ...] --prompt TEXT
                    [--negative TEXT] [--seed N] [--steps N] [--flow-shift X]
  create extend --from TASK_ID --right S [--left S] [--lyrics-file F] [--style TEXT] [--negative TEXT]
  create song-edit --from TASK_ID [--edit-style TEXT] [--edit-lyrics-file F] [--style TEXT] [--lyrics-file F]
  create remix --from TASK_ID --style TEXT [--lyrics-file F] [--negative TEXT] [--duration S]
  create upscale --from TASK_ID[:OUTPUT] [--scale N] [--face-enhance]
  create background-remove --from TASK_ID[:OUTPUT] [--rmbg-model M]
  create segment --from TASK_ID[:OUTPUT] --prompt TEXT [--negative TEXT] [--factor N]
  create raw --model M --task-type T --input-json FILE
  create ENTRY [--FIELD VALUE ...]          any catalog entry, by id (flux1-schnell/txt2img) or short name
      (flux, video-upscale, multi-face-swap, image-gen, video-gen, ...): an option per input field in
      kebab case (--negative-prompt TEXT; --batch-size N within its bounds; --image FILE|URL or --from;
      --face-enhance); create NAME --help lists a command's options, words and price
      --from TASK_ID[:OUTPUT] uses a previous result (output 0 unless said) as the input: the song
      of extend, song-edit and remix (or --audio FILE|URL), the picture of upscale, background-remove
      and segment (or --image FILE|URL), the target of face-swap, image1 of image-edit, the
      reference of audio; the new task records it as its parent
      every create also takes [--model ID] [--title T] [--webhook-url URL --webhook-secret S] [--wait]
      [--accept-unknown-price] (needed under a budget for a task type with no published price,
      unless the app's "Don't ask again for …" lists it)
      [--variants N] (N copies as one batch; image-edit sweeps the seed: seed, seed+1, ...)
      [--prompt-list FILE] (one task per line of FILE, as the prompt) and alternatives {dawn|noon|dusk}
      in any text option (one task each; several groups multiply; { } | for the characters):
      prints each task, the count and the total price, and queues them as one batch (at most 100)
      only with --yes (else exits 2)
  get ID                                   one task (local or service id)
  list [--state S[,S]] [--type T] [--model M] [--board NAME] [--search TEXT] [--favorite] [--order newest|oldest|starredFirst|title|costliest|longest] [--limit N]
  boards                                   the boards, each with how many tasks it holds
  board add NAME ID [ID...]                put tasks on a board (made when there is none of that name)
  board remove NAME ID [ID...]             take tasks off a board
  board rename NAME NEW_NAME | board delete NAME   (deleting a board never deletes its tasks)
  watch [--until-idle]                     run the engine and print task changes
  cancel ID [ID...]                        cancel tasks still queued on this computer (never sent, not
                                           billed); a task the service already has goes on and is billed
  cancel --batch BATCH_ID                  cancel the rest of a batch: its tasks still queued here
  batches [BATCH_ID] [--limit N]           batches with a task left to do (or that one), with progress
  settle ID --remote REMOTE_ID             an uncertain task the service's history holds several
                                           times (get ID lists them): take that one, sending nothing
  export DIR [IDS...]                      copy files and a task.json sidecar per task
  delete ID [ID...]                        move tasks to Recently deleted: kept with their files for 30
                                           days, then deleted for good (a task still queued here is
                                           cancelled first; one the service is working on is left)
  delete --forever --yes ID [ID...]        delete tasks in Recently deleted for good, with their files
  trash [--search TEXT] [--limit N]        list Recently deleted, with the day each task goes for good
  trash --empty --yes                      delete everything in Recently deleted for good
  restore ID [ID...]                       take tasks back out of Recently deleted
  retention                                the retention rules (off until set up), their last run, what
                                           a run now would move and the library's size by kind; moves nothing
  retention --run                          run the rules now (they are on): move what they select to
                                           Recently deleted (else once a day, by the app or a command
                                           that changes the library)
  retention --preview [--older-than DAYS] [--keep LIST]
                                           what the rules would move to Recently deleted, by kind, and
                                           the space it frees; moves nothing. LIST: favorites, boards,
                                           inputs (results another task used), pictures, songs, videos,
                                           3d, or none (default favorites,boards,inputs)
  retention --on --older-than DAYS [--keep LIST] --yes
                                           switch the rules on: they run at once, then once a day while
                                           the app (or a command that changes the library) has it open
                                           (without --yes: the preview, exit 2)
  retention --off                          switch them off
  history [--family F] [--since DATE] [--until DATE] [--state S] [--page N]
                                           the account's tasks at the service (made anywhere: the web
                                           workspace, another computer), 20 a page, newest first, each
                                           with the library task holding it; DATE as YYYY-MM-DD (UTC)
  import TASK_ID... [--wait]               add tasks created elsewhere, with their outputs (an id
                                           already in the library is skipped and said)
  import-file TASK_JSON|FILE [FIELD=FILE ...] [--yes] [--keep-webhook] [--wait]
                                           show what a task.json would queue (its inputs only from its
                                           own folder, model, price, webhook); queues it only with --yes
                                           (else exits 2); FIELD=FILE picks a file for an input it lacks;
                                           its webhook is sent only with --keep-webhook; FILE: a result
                                           the app made (its task, as recall finds it)
  recall FILE [--json]                     the task a picture, sound, video or 3D model the app made
                                           came from: the parameters its export embedded, else its
                                           checksum in the library; exits 2 when neither says
  account                                  the balance at the service (also checks the key)

While the app has the library open: get, list, boards, batches, trash (the list), export, recall,
retention and retention --preview only read it, so they work beside the app; they start nothing
(retention's daily run and the purge of Recently deleted are left to the app, or to a command that
changes the library). Every other command changes the library and needs the app closed (exit 5);
account does not open it.

Exit codes: 0 ok, 2 bad input, 3 API key refused, 4 service failure, 5 library in use (the app
has it open: close it; the commands that only read work beside it),
6 refused by the plan at the service, 1 other. cancel ID exits 2 when a task is not found or
could not be cancelled (already sent, uncertain, or ended other than cancelled). cancel --batch
exits 2 only when no task has that batch id: once it has cancelled what was still queued here it
exits 0, even when nothing was left or some tasks were already sent (its output counts them).
delete and restore exit 2 when a task is not found, or was left (running at the service, not in
Recently deleted); delete --forever and trash --empty refuse without --yes.
`;

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'sandbox') {
    await runSandboxCommand(argv.slice(1));
    return EXIT.ok;
  }
  const { globals: g, command, rest } = splitGlobalOptions(argv, env);
  switch (command) {
    case 'create':
      return runCreate(g, rest, env);
    case 'get':
      return runGet(g, rest, env);
    case 'boards':
      return runBoards(g, rest, env);
    case 'board':
      return runBoard(g, rest, env);
    case 'list':
      return runList(g, rest, env);
    case 'watch':
      return runWatch(g, rest, env);
    case 'export':
      return runExport(g, rest, env);
    case 'history':
      return runHistory(g, rest, env);
    case 'import':
      return runImport(g, rest, env);
    case 'import-file':
      return runImportFile(g, rest, env);
    case 'recall':
      return runRecall(g, rest, env);
    case 'account':
      return runAccount(g, rest, env);
    case 'cancel':
      return runCancel(g, rest, env);
    case 'batches':
      return runBatches(g, rest, env);
    case 'settle':
      return runSettle(g, rest, env);
    case 'delete':
      return runDelete(g, rest, env);
    case 'restore':
      return runRestore(g, rest, env);
    case 'trash':
      return runTrash(g, rest, env);
    case 'retention':
      return runRetention(g, rest, env);
    case 'help':
    case undefined:
      printOut(USAGE);
      return command === undefined ? EXIT.badInput : EXIT.ok;
    default:
      if (command === '-h' || command === '--help') {
        printOut(USAGE);
        return EXIT.ok;
      }
      throw new UsageError(`unknown command "${command}" (try media-task help)`);
  }
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof UsageError || err instanceof InputValidationError) return EXIT.badInput;
  if (err instanceof BudgetExceededError || err instanceof TaskActionError) return EXIT.badInput;
  if (err instanceof PriceUnknownError) return EXIT.badInput;
  if (err instanceof LibraryBusyError) return EXIT.libraryBusy;
  if (err instanceof UnauthorizedError) return EXIT.auth;
  if (err instanceof PlanRefusedError) return EXIT.planRefused;
  // the service refused what was asked (a malformed or unknown task id): the input was wrong
  if (err instanceof BadRequestError) return EXIT.badInput;
  if (err instanceof ServiceError || err instanceof HistoryUnavailableError) return EXIT.serviceFailure;
  return EXIT.internal;
}

/** The message printed for an error; the service client's key hint names the app's Settings. */
export function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof UnauthorizedError) return message.replace(/in Settings/g, 'in MEDIA_TASK_API_KEY');
  if (err instanceof PriceUnknownError)
    return message.replace(/confirm to queue it anyway/, 'pass --accept-unknown-price to queue it anyway');
  return message;
}
