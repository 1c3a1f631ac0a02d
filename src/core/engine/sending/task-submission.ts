/**
 * Sending queued tasks to the service, one create at a time, without ever sending one twice by
 * accident.
 *
 * Billing safety: a task is committed as `submitting` before its create is sent, and the
 * service's task id is committed in the same transaction that leaves `submitting`. A create
 * whose answer is lost (crash, reset after sending, 5xx, unreadable answer) leaves the task
 * `uncertain`; only the user can send it again. Creates go out one at a time, so a crash can
 * leave at most one task in doubt.
 */
import { REMOTE_ACTIVE_STATES, type RemoteTask, type Task, type TaskState } from '../../../shared/index.ts';
import { withWebhookSecret } from '../../../shared/task/webhook-config.ts';
import { encodeCreateRequestBody } from '../../inputs/index.ts';
import { LibraryPathError, storedInputFiles } from '../../library/index.ts';
import type { ServiceClient } from '../../service/index.ts';
import type { EngineContext } from '../engine-context.ts';
import { submissionOutcome } from '../failure-outcomes.ts';
import { type UploadedInputs, uploadFileInputs } from './input-upload.ts';
import { remoteIdClashOf } from './remote-id-clash.ts';

/** The wait after a 429 that named none. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;

export class TaskSubmission {
  readonly #ctx: EngineContext;
  /** The create under way; null when none is. */
  #submitting: Promise<void> | null = null;
  /** Until when nothing is sent: the service asked to wait (429). */
  #pausedUntil = 0;
  /** Clients whose service refused uploads for this plan: their files go inline. */
  readonly #uploadsRefused = new WeakSet<ServiceClient>();

  /** True while nothing may be sent (the service's history is being read: create-settlement.ts). */
  readonly #holdOff: () => boolean;

  constructor(ctx: EngineContext, holdOff: () => boolean = () => false) {
    this.#ctx = ctx;
    this.#holdOff = holdOff;
  }

  /** Whether a create is under way. */
  get sending(): boolean {
    return this.#submitting !== null;
  }

  /** Until when sending waits because the service asked (epoch ms; 0 or past when it does not). */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /** Sends the next queued task, when none is being sent and the service has room for it. */
  start(now: number): void {
    const { connection, limit, loop, reachability, store } = this.#ctx;
    const client = connection.client;
    if (this.#submitting || !client || connection.authProblem || this.#holdOff()) return;
    if (!reachability.allows(now)) return;
    if (now < this.#pausedUntil) {
      loop.wakeAt(this.#pausedUntil);
      return;
    }
    if (store.countInStates(REMOTE_ACTIVE_STATES) >= limit.max) return;
    const next = store.nextQueued(1)[0];
    if (!next) return;
    const p = this.#submit(client, next).finally(() => {
      this.#submitting = null;
    });
    this.#submitting = p;
    loop.track(p);
  }

  async #submit(client: ServiceClient, queued: Task): Promise<void> {
    const { clock, events, reachability, store } = this.#ctx;
    // every stored input path must resolve inside the library before anything is read or sent
    const files = this.#inputFilesOrFail(queued);
    if (files === null) return;
    // uploads cost nothing and create nothing: they happen while the task is still queued
    const uploaded = await this.#uploadInputs(client, queued);
    // committed before the request is sent: a crash from here on leaves the task uncertain
    const task = store.transition(queued.id, 'submitting', {
      from: ['queued'],
      patch: { error: null },
      durable: true,
      ...(uploaded.notes.length ? { detail: uploaded.notes.join('; ') } : {}),
    });
    if (!task) return;
    events.changed(task);
    const fileInputs: Record<string, string> = {};
    const input: Record<string, unknown> = { ...task.request.input };
    for (const inp of task.inputs) {
      const url = uploaded.urls[inp.field];
      if (url !== undefined) {
        input[inp.field] = url;
      } else if (inp.source === 'file') {
        fileInputs[inp.field] = files[inp.field] as string;
        input[inp.field] = '';
      }
    }
    // the Task shows only whether a webhook secret is set: the create carries the secret itself
    const request = withWebhookSecret({ ...task.request, input }, store.webhookSecretOf(task.id));
    let remote: RemoteTask;
    try {
      remote = await client.createTask(request, {
        body: Object.keys(fileInputs).length ? () => encodeCreateRequestBody(request, fileInputs) : undefined,
      });
    } catch (err) {
      this.#submissionFailed(task, err);
      return;
    }
    reachability.noteReachable();
    this.#recordAnswer(task, remote, clock.now());
  }

  /**
   * Commits the service's answer to a create. While the library cannot take it (disk full) the
   * answer is kept and committed before anything more is sent; an id another task already has
   * makes this task uncertain, naming that task.
   */
  #recordAnswer(task: Task, remote: RemoteTask, submittedAt: number): void {
    const { answers, events, limit, storage, store } = this.#ctx;
    const clash = remoteIdClashOf(store, task.id, remote.id);
    if (clash) {
      this.#submissionFailed(task, clash);
      return;
    }
    try {
      storage.keep(`answer:${task.id}`, () => {
        const after = answers.apply(task.id, remote, ['submitting'], 'accepted by the service', submittedAt);
        if (after) events.changed(after.task);
        if (after?.task.state === 'staged') limit.lower('held');
      });
    } catch (err) {
      // not the storage: the answer cannot be recorded, so the task is in doubt and says why
      this.#submissionFailed(task, err);
    }
  }

  /**
   * The real paths of a queued task's local files, each inside the library; null when the database
   * records one elsewhere (a library written by someone else): the task then fails with that
   * message before anything is read or sent.
   */
  #inputFilesOrFail(task: Task): Record<string, string> | null {
    const { events, libraryDir, store } = this.#ctx;
    try {
      return storedInputFiles(libraryDir, task.inputs);
    } catch (err) {
      if (!(err instanceof LibraryPathError)) throw err;
      const t = store.transition(task.id, 'failed', {
        from: ['queued'],
        patch: { error: { kind: 'library-path', message: err.message, code: null } },
        detail: 'an input file is not in the library',
      });
      if (t) events.changed(t);
      return null;
    }
  }

  /** Puts the task's local files on the service's upload endpoint, when it has one that takes them. */
  async #uploadInputs(client: ServiceClient, task: Task): Promise<Pick<UploadedInputs, 'urls' | 'notes'>> {
    const { clock, connection, libraryDir, store } = this.#ctx;
    const uploadUrl = connection.settings?.uploadUrl;
    const uploadOrigin = uploadUrl ? new URL(uploadUrl).origin : null;
    if (!client.canUpload || !uploadOrigin || this.#uploadsRefused.has(client))
      return { urls: {}, notes: [] };
    if (!task.inputs.some((inp) => inp.source === 'file')) return { urls: {}, notes: [] };
    try {
      const result = await uploadFileInputs({
        client,
        uploadOrigin,
        inputs: task.inputs,
        libraryDir,
        store,
        now: () => clock.now(),
      });
      if (result.refused) this.#uploadsRefused.add(client);
      return result;
    } catch (err) {
      // a file that cannot be read here fails the create below with its own message
      return { urls: {}, notes: [`files sent inline: ${(err as Error).message}`] };
    }
  }

  #submissionFailed(task: Task, err: unknown): void {
    const { clock, connection, events, limit, reachability, storage, store } = this.#ctx;
    const outcome = submissionOutcome(err);
    let to: TaskState = 'uncertain';
    if (outcome.action === 'requeue') {
      to = 'queued';
      if (outcome.cause === 'unreachable') reachability.noteUnreachable();
      if (outcome.cause === 'rate-limited') {
        this.#pausedUntil = clock.now() + (outcome.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS);
        limit.lower('refused');
      }
      if (outcome.cause === 'unauthorized') connection.noteKeyRefused();
      events.emitStatus();
    } else if (outcome.action === 'fail') {
      to = 'failed';
    }
    // kept while the library cannot take it: committed before anything more is sent
    storage.keep(`answer:${task.id}`, () => {
      const t = store.transition(task.id, to, {
        from: ['submitting'],
        patch: { error: outcome.error },
        detail: outcome.detail,
      });
      if (t) events.changed(t);
    });
  }
}
