/**
 * The HTTP side of the sandbox: routes, key check, fault injection and plan refusals on create
 * and fetch calls, account info, uploads, output and upload file serving and the `/_sandbox/...`
 * control paths. Error bodies follow the answer profile (error-body.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UPLOAD_PATH } from '../shared/catalog/index.ts';
import { accountInfoAnswer } from './account-info.ts';
import { parseCreateBody } from './create-validation.ts';
import {
  badRequest,
  errorBodyFor,
  PLAN_REFUSED_MESSAGE,
  SandboxHttpError,
  unauthorizedMessage,
} from './error-body.ts';
import { type BodyRefusal, type CallFault, FaultInjector } from './fault-injector.ts';
import { faultOptionsProblem } from './fault-options-check.ts';
import { GenerationPool } from './generation-pool.ts';
import { isLoopbackAddress, readBodyText, sendBytes, sendError, sendJsonText } from './http-answers.ts';
import { checkImageInputs } from './image-input-check.ts';
import { ledgerView } from './ledger-view.ts';
import type {
  AnswerProfile,
  ControlAccess,
  FaultOptions,
  LedgerEntry,
  SandboxOptions,
  WebhookDelivery,
} from './options.ts';
import { checkOptions, DEFAULTS, uploadTtlOf } from './options-check.ts';
import { OutboundHttp } from './outbound-http.ts';
import { OutputCache } from './output-cache.ts';
import { controlRefusal, crossSiteRefusal } from './request-guards.ts';
import { createAnswer } from './task-forms.ts';
import { activeTasksAnswer, historyAnswer } from './task-history.ts';
import { TaskLifecycle } from './task-lifecycle.ts';
import { TaskScheduler } from './task-scheduler.ts';
import { parseUploadBody } from './upload-check.ts';
import { UPLOADS_PREFIX, UploadedFiles } from './uploaded-files.ts';
import { WebhookSender } from './webhook-sender.ts';

const TASK_PATH = '/api/v1/task';
const TASK_PREFIX = '/api/v1/task/';
const FILES_PREFIX = '/files/';
const ACCOUNT_INFO_PATH = '/account/info';
const ACTIVE_TASKS_PATH = '/account/active_tasks';
const HISTORY_PATH = '/api/open/tasks/histories';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class SandboxServer {
  readonly server: Server;
  private readonly apiKey: string;
  private readonly profile: AnswerProfile;
  private readonly concurrencyLimit: number;
  private readonly scheduler = new TaskScheduler();
  private readonly faults: FaultInjector;
  private readonly outbound: OutboundHttp;
  private readonly controlAccess: ControlAccess;
  private readonly refuseCrossSite: boolean;
  private readonly outputs = new OutputCache();
  private readonly generation: GenerationPool;
  private readonly webhooks: WebhookSender;
  private readonly lifecycle: TaskLifecycle;
  private readonly uploads: UploadedFiles;
  private readonly deliveries: WebhookDelivery[] = [];
  private baseUrl = '';

  constructor(options: SandboxOptions = {}) {
    checkOptions(options);
    this.apiKey = options.apiKey ?? DEFAULTS.apiKey;
    this.profile = options.profile ?? DEFAULTS.profile;
    this.concurrencyLimit = options.concurrencyLimit ?? DEFAULTS.concurrencyLimit;
    this.faults = new FaultInjector(options.faults ?? {});
    this.controlAccess = options.controlAccess ?? DEFAULTS.controlAccess;
    this.refuseCrossSite = (options.crossSite ?? DEFAULTS.crossSite) === 'refuse';
    this.outbound = new OutboundHttp(options.outbound ?? DEFAULTS.outbound, () => this.baseUrl);
    this.generation = new GenerationPool(options.generationWorkers ?? DEFAULTS.generationWorkers);
    this.webhooks = new WebhookSender({
      attempts: options.webhookAttempts ?? DEFAULTS.webhookAttempts,
      backoffMs: options.webhookBackoffMs ?? DEFAULTS.webhookBackoffMs,
      http: this.outbound,
      scheduler: this.scheduler,
      record: (d) => this.deliveries.push(d),
    });
    this.lifecycle = new TaskLifecycle(
      {
        timeScale: options.timeScale ?? DEFAULTS.timeScale,
        concurrencyLimit: this.concurrencyLimit,
        overLimit: options.overLimit ?? DEFAULTS.overLimit,
        outputTtlMs: options.outputTtlMs ?? DEFAULTS.outputTtlMs,
        profile: this.profile,
        balanceMicros: options.balanceMicros ?? DEFAULTS.balanceMicros,
      },
      {
        scheduler: this.scheduler,
        faults: this.faults,
        outputs: this.outputs,
        generation: this.generation,
        webhooks: this.webhooks,
        baseUrl: () => this.baseUrl,
        fetchAudio: (url) => this.outbound.fetchAudio(url),
      },
    );
    this.uploads = new UploadedFiles(this.outputs, this.scheduler, uploadTtlOf(options));
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 70_000;
    this.server.requestTimeout = 120_000;
  }

  async listen(port: number): Promise<{ url: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    const actual = (this.server.address() as AddressInfo).port;
    this.baseUrl = `http://127.0.0.1:${actual}`;
    return { url: this.baseUrl, port: actual };
  }

  ledger(): LedgerEntry[] {
    return this.lifecycle.ledger();
  }

  webhookDeliveries(): WebhookDelivery[] {
    return this.deliveries.slice();
  }

  setFaults(faults: FaultOptions): void {
    this.faults.set(faults);
  }

  async stop(): Promise<void> {
    this.scheduler.stop();
    this.webhooks.stop();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await Promise.all([closed, this.outbound.close(), this.generation.stop()]);
    this.outputs.clear();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.route(req, res).catch((err: unknown) => this.answerError(res, err));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q >= 0 ? raw.slice(0, q) : raw;
    const method = req.method ?? 'GET';
    const crossSite = this.refuseCrossSite ? crossSiteRefusal(req, this.baseUrl) : null;
    if (crossSite) return this.sendError(res, crossSite.status, crossSite.message);
    if (path.startsWith(TASK_PREFIX)) {
      if (method !== 'GET') return this.notAllowed(res, 'GET');
      return this.fetchTask(req, res, path.slice(TASK_PREFIX.length));
    }
    if (path === TASK_PATH) {
      if (method !== 'POST') return this.notAllowed(res, 'POST');
      return this.createTask(req, res);
    }
    if (path === UPLOAD_PATH) {
      if (method !== 'POST') return this.notAllowed(res, 'POST');
      return this.upload(req, res);
    }
    if (path === ACCOUNT_INFO_PATH) {
      if (method !== 'GET') return this.notAllowed(res, 'GET');
      return this.accountInfo(req, res);
    }
    if ((path === HISTORY_PATH || path === ACTIVE_TASKS_PATH) && !this.faults.noTaskHistory) {
      if (method !== 'GET') return this.notAllowed(res, 'GET');
      const tasks = this.lifecycle.tasksOf(this.checkKey(req), Date.now());
      const query = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
      const answer =
        path === HISTORY_PATH ? historyAnswer(tasks, query, this.profile) : activeTasksAnswer(tasks);
      return sendJsonText(res, 200, JSON.stringify(answer));
    }
    if (path.startsWith(FILES_PREFIX) || path.startsWith(UPLOADS_PREFIX)) {
      if (method !== 'GET' && method !== 'HEAD') return this.notAllowed(res, 'GET, HEAD');
      if (path.startsWith(UPLOADS_PREFIX))
        return this.serveUpload(req, res, path.slice(UPLOADS_PREFIX.length));
      return this.serveFile(req, res, path.slice(FILES_PREFIX.length));
    }
    if (path === '/_sandbox/ledger' || path === '/_sandbox/faults')
      return this.control(req, res, path, method);
    this.sendError(res, 404, `no such path: ${path}`);
  }

  /** The control paths, to loopback callers the access option lets in; the ledger shown redacted. */
  private async control(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    method: string,
  ): Promise<void> {
    const refused = controlRefusal(req, this.controlAccess, this.apiKey, path);
    if (refused) return this.sendError(res, refused.status, refused.message);
    if (!isLoopbackAddress(req.socket.remoteAddress)) return this.sendError(res, 403, 'loopback only');
    if (path === '/_sandbox/faults') return this.faultsControl(req, res, method);
    if (method !== 'GET') return this.notAllowed(res, 'GET');
    sendJsonText(res, 200, JSON.stringify({ entries: ledgerView(this.lifecycle.ledger()) }));
  }

  /** An error answer in the profile's error body. */
  private sendError(
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) {
    sendError(res, status, message, headers, this.profile);
  }

  private notAllowed(res: ServerResponse, allow: string): void {
    this.sendError(res, 405, `method not allowed here (allowed: ${allow})`, { allow });
  }

  /**
   * A create: key, content type, body checks, the plan's refusal (403), a refusal inside an
   * HTTP 200 (fault), image inputs, then the task lifecycle (402 balance, 429 over the limit) and the answer.
   */
  private async createTask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fault = this.faults.drawCall('create');
    const refusal = this.faults.drawBodyRefusal();
    if (this.answerEarlyFault(req, res, fault)) return;
    try {
      const key = this.checkKey(req);
      checkJsonContentType(req);
      const text = await readBodyText(req);
      const { body, request } = parseCreateBody(text);
      const hookProblem = this.outbound.webhookProblem(request.webhook.endpoint);
      if (hookProblem) throw badRequest(`config.webhook_config.endpoint: ${hookProblem}`);
      if (this.faults.planRefuses(request.taskType)) throw new SandboxHttpError(403, PLAN_REFUSED_MESSAGE);
      if (refusal) return await this.answerBodyRefusal(res, refusal, fault);
      const images = await checkImageInputs(request.imageFields, (url) => this.outbound.fetchImage(url));
      const now = Date.now();
      const task = this.lifecycle.create(key, request, images, body, now);
      await this.answer(res, 200, JSON.stringify(createAnswer(task, now, this.profile)), fault);
    } catch (err) {
      await this.answerErrorWithFault(res, err, fault);
    }
  }

  /** A refusal given as the `code` of an HTTP 200 answer: the profile's error body, no task, nothing billed. */
  private async answerBodyRefusal(
    res: ServerResponse,
    refusal: BodyRefusal,
    fault: CallFault,
  ): Promise<void> {
    const text = JSON.stringify(errorBodyFor(this.profile, refusal.code, refusal.message));
    await this.answer(res, 200, text, fault);
  }

  private async fetchTask(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const fault = this.faults.drawCall('fetch');
    if (this.answerEarlyFault(req, res, fault)) return;
    try {
      this.checkKey(req);
      const taskId = safeDecode(id);
      if (!UUID.test(taskId)) throw new SandboxHttpError(400, `task_id: '${taskId}' is not a UUID`);
      const now = Date.now();
      const task = this.lifecycle.get(taskId, now);
      if (!task) throw new SandboxHttpError(404, `task_id: no task '${taskId}'`);
      await this.answer(res, 200, this.lifecycle.fetchBody(task, now), fault);
    } catch (err) {
      await this.answerErrorWithFault(res, err, fault);
    }
  }

  private checkKey(req: IncomingMessage): string {
    const given = req.headers['x-api-key'];
    if (given === undefined || given === '')
      throw new SandboxHttpError(401, unauthorizedMessage(this.profile, false));
    if (given !== this.apiKey) throw new SandboxHttpError(401, unauthorizedMessage(this.profile, true));
    return given;
  }

  /** `GET /account/info`: the balance computed from the ledger (account-info.ts). */
  private async accountInfo(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const apiKey = this.checkKey(req);
    const answer = accountInfoAnswer({
      apiKey,
      balance: this.lifecycle.account(),
      concurrencyLimit: this.concurrencyLimit,
      profile: this.profile,
    });
    sendJsonText(res, 200, JSON.stringify(answer));
  }

  /** `POST /api/ephemeral_resource`: keeps the file and answers `{code: 200, data: {url}, message}`. */
  private async upload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.checkKey(req);
    if (this.faults.uploadRefused) throw new SandboxHttpError(403, PLAN_REFUSED_MESSAGE);
    checkJsonContentType(req);
    const upload = parseUploadBody(await readBodyText(req));
    const path = await this.uploads.put(upload, Date.now());
    sendJsonText(
      res,
      200,
      JSON.stringify({ code: 200, data: { url: `${this.baseUrl}${path}` }, message: 'success' }),
    );
  }

  private async serveUpload(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const name = safeDecode(rest);
    const found = await this.uploads.read(name, Date.now());
    if (!found) return this.sendError(res, 404, `no such file: ${UPLOADS_PREFIX}${rest}`);
    if (found === 'expired') {
      return this.sendError(
        res,
        410,
        `upload expired: ${UPLOADS_PREFIX}${rest} is no longer kept (uploads are temporary)`,
      );
    }
    sendBytes(req, res, found.bytes, found.contentType, name);
  }

  /** Faults that answer before anything is processed. True when the request is done with. */
  private answerEarlyFault(req: IncomingMessage, res: ServerResponse, fault: CallFault): boolean {
    switch (fault.kind) {
      case 'resetBeforeBody':
        req.socket.destroy();
        return true;
      case 'serverError':
        this.sendError(res, 500, 'internal server error (sandbox fault injection)');
        return true;
      case 'rateLimit':
        this.sendError(res, 429, 'too many requests (sandbox fault injection)', {
          'retry-after': String(fault.retryAfterSeconds),
        });
        return true;
      default:
        return false;
    }
  }

  /** Sends a processed answer, through the faults that act after processing. */
  private async answer(
    res: ServerResponse,
    status: number,
    text: string,
    fault: CallFault,
    headers: Record<string, string> = {},
  ): Promise<void> {
    if (fault.kind === 'slow') await this.scheduler.sleep(fault.ms);
    if (fault.kind === 'resetAfterBody') {
      res.socket?.destroy();
      return;
    }
    if (fault.kind === 'malformedJson' && status === 200) {
      sendJsonText(res, 200, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return;
    }
    sendJsonText(res, status, text, headers);
  }

  private async answerErrorWithFault(res: ServerResponse, err: unknown, fault: CallFault): Promise<void> {
    if (err instanceof SandboxHttpError) {
      await this.answer(
        res,
        err.status,
        JSON.stringify(errorBodyFor(this.profile, err.status, err.message)),
        fault,
        err.headers,
      );
      return;
    }
    this.answerError(res, err);
  }

  private answerError(res: ServerResponse, err: unknown): void {
    if (err instanceof SandboxHttpError) {
      this.sendError(res, err.status, err.message, err.headers);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    this.sendError(res, 500, `internal sandbox error: ${message}`);
  }

  private async serveFile(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const slash = rest.indexOf('/');
    const taskId = slash > 0 ? safeDecode(rest.slice(0, slash)) : '';
    const name = slash > 0 ? safeDecode(rest.slice(slash + 1)) : '';
    const found = this.lifecycle.outputFile(taskId, name, Date.now());
    if (!found) return this.sendError(res, 404, `no such file: /files/${rest}`);
    const gone = () =>
      this.sendError(
        res,
        410,
        `output expired: /files/${rest} is no longer kept (output URLs are temporary)`,
      );
    if (found.expired) return gone();
    const blob = await this.outputs.read(found.file.key);
    if (!blob) return gone();
    sendBytes(req, res, blob.bytes, blob.contentType, name);
  }

  private async faultsControl(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (method === 'GET') return sendJsonText(res, 200, JSON.stringify({ faults: this.faults.get() }));
    if (method !== 'PUT' && method !== 'POST') return this.notAllowed(res, 'GET, PUT, POST');
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBodyText(req));
    } catch {
      return this.sendError(res, 400, 'body: not valid JSON');
    }
    const problem = faultOptionsProblem(parsed);
    if (problem) return this.sendError(res, 400, `body: ${problem}`);
    this.faults.set(parsed as FaultOptions);
    sendJsonText(res, 200, JSON.stringify({ faults: this.faults.get() }));
  }
}

/** A create or upload body must be JSON (spec: `Content-Type: application/json`); a request without the header is let through. */
function checkJsonContentType(req: IncomingMessage): void {
  const given = req.headers['content-type'];
  if (given === undefined) return;
  const mediaType = given.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return;
  throw new SandboxHttpError(415, `content-type: must be application/json, got '${given}'`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
