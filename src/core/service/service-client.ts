/**
 * HTTP client of the media task service: create a task, fetch a task, read the account's
 * balance, upload a file. One keep-alive undici Pool for the base URL's origin (and one for the
 * upload host, which is another origin at the real service), typed errors, and retries that
 * never repeat a create the service may have received (see retry-policy.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { apiKeyProblem, isLoopbackHost, keyTransportProblem } from '../../shared/catalog/index.ts';
import {
  type AccountInfo,
  AccountInfoSchema,
  type ActiveTaskCounts,
  ActiveTasksAnswerSchema,
  accountInfoOf,
  activeTaskCountsOf,
  type CreateTaskRequest,
  HistoryAnswerSchema,
  type HistoryPage,
  historyPageOf,
  type RemoteTask,
} from '../../shared/service/index.ts';
import { parseBaseUrl, SERVICE_PATHS, type ServiceEndpoint, taskPath } from './base-url.ts';
import { type ExchangeOutcome, type ExchangeRequest, exchange } from './http-exchange.ts';
import {
  envelopeFromAnswer,
  type HttpAnswer,
  readAnswer,
  uploadedAddressProblem,
  uploadedUrlOf,
} from './response-mapping.ts';
import {
  backoffDelay,
  type RetryPolicy,
  resolveRetryPolicy,
  retryAfterOf,
  shouldRetry,
} from './retry-policy.ts';
import { createSecretScrubber, type SecretScrubber } from './secret-scrubber.ts';
import {
  AbortedError,
  BadRequestError,
  OPERATION_WORDS,
  ProtocolError,
  ServiceError,
  type ServiceOperation,
} from './service-errors.ts';
import { networkErrorFrom } from './transport-failure.ts';

export interface ServiceTimeouts {
  /** Opening the connection. Default 10 s. */
  connectMs?: number;
  /** From request sent to response headers. Default 120 s (the service's proxy gives up at 120 s). */
  headersMs?: number;
  /** Between two chunks of the response body. Default 120 s. */
  bodyMs?: number;
}

export interface ServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  timeouts?: ServiceTimeouts;
  retry?: Partial<RetryPolicy>;
  /** Source of jitter, for tests. Default Math.random. */
  random?: () => number;
  /** Largest answer read, in bytes (image_base64 outputs can be large). Default 64 MiB. */
  maxResponseBytes?: number;
  /** Connections kept to the service. Default 6. */
  connections?: number;
  /** The file upload endpoint (a full URL, often on another host); none when absent or ''. */
  uploadUrl?: string;
}

/** A file to upload: its name (with an extension) and its bytes as Base64. */
export interface UploadFile {
  fileName: string;
  base64: string;
}

export interface CreateTaskOptions {
  signal?: AbortSignal;
  /**
   * Supplies the request body instead of JSON.stringify(request), e.g. a stream for large
   * Base64 inputs. Called once per attempt.
   */
  body?: () => AsyncIterable<Uint8Array> | string;
}

export interface GetTaskOptions {
  signal?: AbortSignal;
}

/** A page of the account's task history: from 1, at most 100 a page; times in epoch ms. */
export interface HistoryQuery {
  page: number;
  pageSize: number;
  /** The history family (`llm`, `image_toolkit`…: the catalog entry's historyFamily); all when absent. */
  family?: string;
  /** Created at or after (epoch ms; sent in whole seconds, rounded down). */
  fromMs?: number;
  /** Created at or before (epoch ms; sent in whole seconds, rounded up). */
  toMs?: number;
}

/** Largest page the history gives. */
export const HISTORY_PAGE_MAX = 100;

export const DEFAULT_TIMEOUTS: Required<ServiceTimeouts> = {
  connectMs: 10_000,
  headersMs: 120_000,
  bodyMs: 120_000,
};

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The one rule for a key (visible ASCII, 8 to 500 characters); say what is wrong without echoing it. */
function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string') throw new TypeError('The API key is empty');
  const problem = apiKeyProblem(apiKey);
  if (problem) throw new TypeError(`${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`);
  return apiKey;
}

/** The key travels only over https, or to this computer. */
function checkKeyTransport(what: string, url: string): void {
  const problem = keyTransportProblem(url);
  if (problem) throw new TypeError(`The ${what} is refused: ${problem}.`);
}

function abortedError(operation: ServiceOperation, mayHaveReachedServer: boolean): AbortedError {
  const what = OPERATION_WORDS[operation].doing;
  const note = operation === 'create' && mayHaveReachedServer ? ' The task may have been created.' : '';
  return new AbortedError(`${what} was cancelled.${note}`, { operation, mayHaveReachedServer });
}

export class ServiceClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #endpoint: ServiceEndpoint;
  readonly #pool: Pool;
  readonly #retry: RetryPolicy;
  readonly #random: () => number;
  readonly #scrubber: SecretScrubber;
  readonly #maxResponseBytes: number;
  readonly #upload: { pool: Pool; path: string; local: boolean } | null;

  constructor(options: ServiceClientOptions) {
    checkKeyTransport('service base URL', options.baseUrl);
    if (options.uploadUrl) checkKeyTransport('upload address', options.uploadUrl);
    this.#endpoint = parseBaseUrl(options.baseUrl);
    this.baseUrl = `${this.#endpoint.origin}${this.#endpoint.pathPrefix}`;
    this.#apiKey = checkApiKey(options.apiKey);
    this.#scrubber = createSecretScrubber(this.#apiKey);
    this.#retry = resolveRetryPolicy(options.retry);
    this.#random = options.random ?? Math.random;
    this.#maxResponseBytes = positiveOr(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
    const t = options.timeouts ?? {};
    const poolOptions = {
      connectTimeout: positiveOr(t.connectMs, DEFAULT_TIMEOUTS.connectMs),
      headersTimeout: positiveOr(t.headersMs, DEFAULT_TIMEOUTS.headersMs),
      bodyTimeout: positiveOr(t.bodyMs, DEFAULT_TIMEOUTS.bodyMs),
    };
    this.#pool = new Pool(this.#endpoint.origin, {
      connections: positiveOr(options.connections, 6),
      ...poolOptions,
    });
    this.#upload = null;
    if (options.uploadUrl) {
      const upload = parseBaseUrl(options.uploadUrl);
      const path = upload.pathPrefix || '/';
      // an endpoint on this computer (the sandbox) may answer http addresses on it
      const local = isLoopbackHost(new URL(upload.origin).hostname);
      this.#upload =
        upload.origin === this.#endpoint.origin
          ? { pool: this.#pool, path, local }
          : { pool: new Pool(upload.origin, { connections: 2, ...poolOptions }), path, local };
    }
  }

  /** Whether this client has somewhere to upload files. */
  get canUpload(): boolean {
    return this.#upload !== null;
  }

  /** POST /api/v1/task. A paid action: retried only when the service surely did not receive it, or on 429. */
  createTask(request: CreateTaskRequest, options: CreateTaskOptions = {}): Promise<RemoteTask> {
    const makeBody = options.body ?? (() => JSON.stringify(request));
    return this.#withRetries('create', options.signal, () =>
      this.#attempt('create', {
        method: 'POST',
        path: taskPath(this.#endpoint),
        headers: this.#headers(true),
        body: makeBody(),
        signal: options.signal,
        maxResponseBytes: this.#maxResponseBytes,
      }),
    );
  }

  /** GET /api/v1/task/{id}. Retried on network failures, 429 and 5xx. */
  async getTask(id: string, options: GetTaskOptions = {}): Promise<RemoteTask> {
    if (typeof id !== 'string' || id.trim() === '' || id === '.' || id === '..') {
      throw new BadRequestError('A task id is needed to fetch a task.', { operation: 'get' });
    }
    return this.#withRetries('get', options.signal, () =>
      this.#attempt('get', {
        method: 'GET',
        path: taskPath(this.#endpoint, id),
        headers: this.#headers(false),
        signal: options.signal,
        maxResponseBytes: this.#maxResponseBytes,
      }),
    );
  }

  /** GET /account/info: the balance (also a cheap check of the key and the address). */
  getAccount(options: GetTaskOptions = {}): Promise<AccountInfo> {
    return this.#withRetries('account', options.signal, async () => {
      const answer = await this.#answerOf('account', {
        method: 'GET',
        path: `${this.#endpoint.pathPrefix}${SERVICE_PATHS.balance}`,
        headers: this.#headers(false),
        signal: options.signal,
        maxResponseBytes: 1024 * 1024,
      });
      return accountInfoOf(envelopeFromAnswer(answer, this.#context('account'), AccountInfoSchema));
    });
  }

  /** GET /api/open/tasks/histories: one page of the tasks the account created. Retried like a fetch. */
  history(query: HistoryQuery, options: GetTaskOptions = {}): Promise<HistoryPage> {
    const params = new URLSearchParams({
      page: String(Math.max(1, Math.floor(query.page))),
      page_size: String(Math.min(HISTORY_PAGE_MAX, Math.max(1, Math.floor(query.pageSize)))),
    });
    if (query.family) params.set('model', query.family);
    if (query.fromMs !== undefined) params.set('start_time', String(Math.floor(query.fromMs / 1000)));
    if (query.toMs !== undefined) params.set('end_time', String(Math.ceil(query.toMs / 1000)));
    return this.#withRetries('history', options.signal, async () => {
      const answer = await this.#answerOf('history', {
        method: 'GET',
        path: `${this.#endpoint.pathPrefix}${SERVICE_PATHS.history}?${params}`,
        headers: this.#headers(false),
        signal: options.signal,
        maxResponseBytes: 8 * 1024 * 1024,
      });
      return historyPageOf(envelopeFromAnswer(answer, this.#context('history'), HistoryAnswerSchema));
    });
  }

  /** GET /account/active_tasks: the tasks the service has not finished, counted per family. */
  activeTasks(options: GetTaskOptions = {}): Promise<ActiveTaskCounts[]> {
    return this.#withRetries('active-tasks', options.signal, async () => {
      const answer = await this.#answerOf('active-tasks', {
        method: 'GET',
        path: `${this.#endpoint.pathPrefix}${SERVICE_PATHS.running}`,
        headers: this.#headers(false),
        signal: options.signal,
        maxResponseBytes: 1024 * 1024,
      });
      return activeTaskCountsOf(
        envelopeFromAnswer(answer, this.#context('active-tasks'), ActiveTasksAnswerSchema),
      );
    });
  }

  /**
   * Uploads a file to the service's upload endpoint and gives back the URL the service can
   * fetch it from (kept there for a day). Throws when this client has no upload endpoint.
   */
  uploadFile(file: UploadFile, options: GetTaskOptions = {}): Promise<string> {
    const upload = this.#upload;
    if (!upload) return Promise.reject(new Error('This service has no upload endpoint.'));
    const body = JSON.stringify({ file_name: file.fileName, file_data: file.base64 });
    return this.#withRetries('upload', options.signal, async () => {
      const answer = await this.#answerOf(
        'upload',
        {
          method: 'POST',
          path: upload.path,
          headers: this.#headers(true),
          body,
          signal: options.signal,
          maxResponseBytes: 1024 * 1024,
        },
        upload.pool,
      );
      return uploadedUrlOf(answer, this.#context('upload'), { endpointIsLocal: upload.local });
    });
  }

  /**
   * Why an address of an uploaded file cannot be sent in a create, or null (the rule the upload
   * answers pass; for addresses kept from earlier uploads, which the library may hold from before).
   */
  uploadedUrlProblem(url: string): string | null {
    return uploadedAddressProblem(url, this.#scrubber, { endpointIsLocal: this.#upload?.local === true });
  }

  /** Closes the connections after the requests under way. */
  async close(): Promise<void> {
    const uploadPool = this.#upload?.pool;
    if (uploadPool && uploadPool !== this.#pool && !uploadPool.closed) await uploadPool.close();
    if (!this.#pool.closed) await this.#pool.close();
  }

  #headers(withBody: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      'x-api-key': this.#apiKey,
      accept: 'application/json',
      'user-agent': 'media-task-studio',
    };
    if (withBody) headers['content-type'] = 'application/json';
    return headers;
  }

  async #attempt(operation: ServiceOperation, request: ExchangeRequest): Promise<RemoteTask> {
    return readAnswer(await this.#answerOf(operation, request), this.#context(operation));
  }

  #context(operation: ServiceOperation) {
    return { operation, scrubber: this.#scrubber, nowMs: Date.now() };
  }

  /** The complete answer of one exchange, or the typed error of why there is none. */
  async #answerOf(
    operation: ServiceOperation,
    request: ExchangeRequest,
    pool: Pool = this.#pool,
  ): Promise<HttpAnswer> {
    return this.#answerOrThrow(operation, await exchange(pool, request));
  }

  #answerOrThrow(operation: ServiceOperation, outcome: ExchangeOutcome): HttpAnswer {
    const context = this.#context(operation);
    switch (outcome.type) {
      case 'response':
        return outcome;
      case 'aborted': {
        const p = outcome.progress;
        throw abortedError(operation, p.requestSent || p.bodyBytesSent > 0 || p.responseStarted);
      }
      case 'body-source-failed':
        throw outcome.error;
      case 'too-large':
        throw new ProtocolError(
          `The service's answer is larger than ${outcome.limit} bytes; it was not read.`,
          {
            operation,
            status: outcome.status,
            excerpt: '',
          },
        );
      case 'transport-failed':
        throw networkErrorFrom(outcome.error, outcome.progress, {
          ...context,
          origin: this.#endpoint.origin,
        });
    }
  }

  async #withRetries<T>(
    operation: ServiceOperation,
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
  ): Promise<T> {
    if (this.#pool.closed) throw new Error('This ServiceClient is closed; make a new one.');
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        error.attempts = n;
        if (!shouldRetry(operation, error, n, this.#retry)) throw error;
        await this.#pause(operation, backoffDelay(n, this.#retry, this.#random, retryAfterOf(error)), signal);
      }
    }
  }

  async #pause(operation: ServiceOperation, ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sleep(ms, undefined, signal ? { signal } : undefined);
    } catch {
      // only an abort rejects: a create waiting here was not received (that is why it is retried)
      throw abortedError(operation, false);
    }
  }
}
