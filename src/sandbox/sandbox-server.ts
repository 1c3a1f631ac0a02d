/**
 * The HTTP side of the sandbox: routes, key check, fault injection on create and fetch calls,
 * output file serving and the `/_sandbox/...` control paths.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCreateBody } from './create-validation.ts';
import { errorBody, SandboxHttpError } from './error-body.ts';
import { type CallFault, FaultInjector } from './fault-injector.ts';
import { faultOptionsProblem } from './fault-options-check.ts';
import { GenerationPool } from './generation-pool.ts';
import { isLoopbackAddress, parseRange, readBodyText, sendError, sendJsonText } from './http-answers.ts';
import { checkImageInputs } from './image-input-check.ts';
import type { FaultOptions, LedgerEntry, SandboxOptions, WebhookDelivery } from './options.ts';
import { OutboundHttp } from './outbound-http.ts';
import { OutputStore } from './output-store.ts';
import { TaskEngine } from './task-engine.ts';
import { createAnswer } from './task-forms.ts';
import { TaskScheduler } from './task-scheduler.ts';
import { WebhookSender } from './webhook-sender.ts';

const TASK_PATH = '/api/v1/task';
const TASK_PREFIX = '/api/v1/task/';
const FILES_PREFIX = '/files/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DEFAULTS = {
  apiKey: 'demo-key',
  timeScale: 1,
  concurrencyLimit: 10,
  overLimit: 'stage',
  outputTtlMs: 3 * 24 * 60 * 60 * 1000,
  webhookAttempts: 5,
  webhookBackoffMs: 500,
  generationWorkers: 1,
} as const;

export class SandboxServer {
  readonly server: Server;
  private readonly apiKey: string;
  private readonly scheduler = new TaskScheduler();
  private readonly faults: FaultInjector;
  private readonly outbound = new OutboundHttp();
  private readonly outputs = new OutputStore();
  private readonly generation: GenerationPool;
  private readonly webhooks: WebhookSender;
  private readonly engine: TaskEngine;
  private readonly deliveries: WebhookDelivery[] = [];
  private baseUrl = '';

  constructor(options: SandboxOptions = {}) {
    checkOptions(options);
    this.apiKey = options.apiKey ?? DEFAULTS.apiKey;
    this.faults = new FaultInjector(options.faults ?? {});
    this.generation = new GenerationPool(options.generationWorkers ?? DEFAULTS.generationWorkers);
    this.webhooks = new WebhookSender({
      attempts: options.webhookAttempts ?? DEFAULTS.webhookAttempts,
      backoffMs: options.webhookBackoffMs ?? DEFAULTS.webhookBackoffMs,
      http: this.outbound,
      scheduler: this.scheduler,
      record: (d) => this.deliveries.push(d),
    });
    this.engine = new TaskEngine(
      {
        timeScale: options.timeScale ?? DEFAULTS.timeScale,
        concurrencyLimit: options.concurrencyLimit ?? DEFAULTS.concurrencyLimit,
        overLimit: options.overLimit ?? DEFAULTS.overLimit,
        outputTtlMs: options.outputTtlMs ?? DEFAULTS.outputTtlMs,
      },
      {
        scheduler: this.scheduler,
        faults: this.faults,
        outputs: this.outputs,
        generation: this.generation,
        webhooks: this.webhooks,
        baseUrl: () => this.baseUrl,
      },
    );
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
    return this.engine.ledger();
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
    if (path.startsWith(TASK_PREFIX)) {
      if (method !== 'GET') return notAllowed(res, 'GET');
      return this.fetchTask(req, res, path.slice(TASK_PREFIX.length));
    }
    if (path === TASK_PATH) {
      if (method !== 'POST') return notAllowed(res, 'POST');
      return this.createTask(req, res);
    }
    if (path.startsWith(FILES_PREFIX)) {
      if (method !== 'GET' && method !== 'HEAD') return notAllowed(res, 'GET, HEAD');
      return this.serveFile(req, res, path.slice(FILES_PREFIX.length));
    }
    if (path === '/_sandbox/ledger') {
      if (method !== 'GET') return notAllowed(res, 'GET');
      if (!isLoopbackAddress(req.socket.remoteAddress)) return sendError(res, 403, 'loopback only');
      return sendJsonText(res, 200, JSON.stringify({ entries: this.engine.ledger() }));
    }
    if (path === '/_sandbox/faults') return this.faultsControl(req, res, method);
    sendError(res, 404, `no such path: ${path}`);
  }

  private async createTask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fault = this.faults.drawCall('create');
    if (this.answerEarlyFault(req, res, fault)) return;
    try {
      const key = this.checkKey(req);
      checkJsonContentType(req);
      const text = await readBodyText(req);
      const { body, request } = parseCreateBody(text);
      const images = await checkImageInputs(request.imageFields, (url) => this.outbound.fetchImage(url));
      const now = Date.now();
      const task = this.engine.create(key, request, images, body, now);
      await this.answer(res, 200, JSON.stringify(createAnswer(task, now)), fault);
    } catch (err) {
      await this.answerErrorWithFault(res, err, fault);
    }
  }

  private async fetchTask(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const fault = this.faults.drawCall('fetch');
    if (this.answerEarlyFault(req, res, fault)) return;
    try {
      this.checkKey(req);
      const taskId = safeDecode(id);
      if (!UUID.test(taskId)) throw new SandboxHttpError(400, `task_id: '${taskId}' is not a UUID`);
      const now = Date.now();
      const task = this.engine.get(taskId, now);
      if (!task) throw new SandboxHttpError(404, `task_id: no task '${taskId}'`);
      await this.answer(res, 200, this.engine.fetchBody(task, now), fault);
    } catch (err) {
      await this.answerErrorWithFault(res, err, fault);
    }
  }

  private checkKey(req: IncomingMessage): string {
    const given = req.headers['x-api-key'];
    if (given === undefined || given === '') throw new SandboxHttpError(401, 'x-api-key header is missing');
    if (given !== this.apiKey) throw new SandboxHttpError(401, 'x-api-key is not a valid API key');
    return given;
  }

  /** Faults that answer before anything is processed. True when the request is done with. */
  private answerEarlyFault(req: IncomingMessage, res: ServerResponse, fault: CallFault): boolean {
    switch (fault.kind) {
      case 'resetBeforeBody':
        req.socket.destroy();
        return true;
      case 'serverError':
        sendError(res, 500, 'internal server error (sandbox fault injection)');
        return true;
      case 'rateLimit':
        sendError(res, 429, 'too many requests (sandbox fault injection)', {
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
        JSON.stringify(errorBody(err.status, err.message)),
        fault,
        err.headers,
      );
      return;
    }
    this.answerError(res, err);
  }

  private answerError(res: ServerResponse, err: unknown): void {
    if (err instanceof SandboxHttpError) {
      sendError(res, err.status, err.message, err.headers);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    sendError(res, 500, `internal sandbox error: ${message}`);
  }

  private async serveFile(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const slash = rest.indexOf('/');
    const taskId = slash > 0 ? safeDecode(rest.slice(0, slash)) : '';
    const name = slash > 0 ? safeDecode(rest.slice(slash + 1)) : '';
    const found = this.engine.outputFile(taskId, name, Date.now());
    if (!found) return sendError(res, 404, `no such file: /files/${rest}`);
    const gone = () =>
      sendError(res, 410, `output expired: /files/${rest} is no longer kept (output URLs are temporary)`);
    if (found.expired) return gone();
    const blob = await this.outputs.read(found.file.key);
    if (!blob) return gone();
    sendBytes(req, res, blob.bytes, blob.contentType, name);
  }

  private async faultsControl(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (!isLoopbackAddress(req.socket.remoteAddress)) return sendError(res, 403, 'loopback only');
    if (method === 'GET') return sendJsonText(res, 200, JSON.stringify({ faults: this.faults.get() }));
    if (method !== 'PUT' && method !== 'POST') return notAllowed(res, 'GET, PUT, POST');
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBodyText(req));
    } catch {
      return sendError(res, 400, 'body: not valid JSON');
    }
    const problem = faultOptionsProblem(parsed);
    if (problem) return sendError(res, 400, `body: ${problem}`);
    this.faults.set(parsed as FaultOptions);
    sendJsonText(res, 200, JSON.stringify({ faults: this.faults.get() }));
  }
}

/** A create body must be JSON (spec: `Content-Type: application/json`); a request without the header is let through. */
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

function notAllowed(res: ServerResponse, allow: string): void {
  sendError(res, 405, `method not allowed here (allowed: ${allow})`, { allow });
}

function sendBytes(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Buffer,
  contentType: string,
  name: string,
) {
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'accept-ranges': 'bytes',
    'content-disposition': `inline; filename="${name}"`,
    'cache-control': 'no-store',
  };
  const range = parseRange(req.headers.range, bytes.length);
  if (range === 'invalid') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${bytes.length}`, 'content-length': 0 });
    res.end();
    return;
  }
  const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${bytes.length}`;
  res.writeHead(range ? 206 : 200, { ...headers, 'content-length': part.length });
  res.end(req.method === 'HEAD' ? undefined : part);
}

function checkOptions(options: SandboxOptions): void {
  const { port, timeScale, concurrencyLimit, outputTtlMs, webhookAttempts, webhookBackoffMs, overLimit } =
    options;
  const fail = (name: string, rule: string) => {
    throw new RangeError(`sandbox option ${name} must be ${rule}`);
  };
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    fail('port', 'an integer 0-65535');
  if (timeScale !== undefined && !(Number.isFinite(timeScale) && timeScale >= 0))
    fail('timeScale', 'a number >= 0');
  if (concurrencyLimit !== undefined && !(Number.isInteger(concurrencyLimit) && concurrencyLimit >= 1)) {
    fail('concurrencyLimit', 'an integer >= 1');
  }
  if (outputTtlMs !== undefined && !(Number.isFinite(outputTtlMs) && outputTtlMs >= 0))
    fail('outputTtlMs', 'a number >= 0');
  if (webhookAttempts !== undefined && !(Number.isInteger(webhookAttempts) && webhookAttempts >= 1)) {
    fail('webhookAttempts', 'an integer >= 1');
  }
  if (webhookBackoffMs !== undefined && !(Number.isFinite(webhookBackoffMs) && webhookBackoffMs >= 0)) {
    fail('webhookBackoffMs', 'a number >= 0');
  }
  if (overLimit !== undefined && overLimit !== 'stage' && overLimit !== 'refuse')
    fail('overLimit', "'stage' or 'refuse'");
}
