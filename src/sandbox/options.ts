/**
 * The public shape of the sandbox service: how to start it and what it reports. The server
 * itself lives beside this file; other folders import only `src/sandbox/index.ts`.
 */

/**
 * What the answers look like (index.ts has the full table):
 * - `spec`: the spec's forms and the sandbox's own error body (the default);
 * - `hosted`: copies of the real service's public records: every create and fetch in the envelope
 *   `{code: 200, data, message: "success"}`, nulls where the real records show them, and the real
 *   service's short error bodies.
 */
export type AnswerProfile = 'spec' | 'hosted';

/**
 * Seeded fault injection, and the refusals an account's plan makes. Every rate is a probability
 * from 0 to 1 applied per request.
 */
export interface FaultOptions {
  /** Seed of the fault generator, so a run can be repeated exactly. Default 1. */
  seed?: number;
  /** Which calls faults apply to. Default 'all' (create and fetch; never the ledger, media or control paths). */
  applyTo?: 'all' | 'create' | 'fetch';
  /** Answer 500 with an error body (the request is not processed). */
  serverErrorRate?: number;
  /** Answer 429 with `Retry-After` (the request is not processed). */
  rateLimitRate?: number;
  /** Seconds sent in Retry-After. Default 1. */
  retryAfterSeconds?: number;
  /** Delay the answer by `slowMs`. */
  slowRate?: number;
  slowMs?: number;
  /** Destroy the connection before reading the body: the request is surely not processed. */
  resetBeforeBodyRate?: number;
  /**
   * Process the request (a create is accepted and billed), then destroy the connection without
   * answering: the create made and then cut before its answer.
   */
  resetAfterBodyRate?: number;
  /** Process the request, then answer 200 with a body that is not valid JSON. */
  malformedJsonRate?: number;
  /** A created task ends in `failed` with an error object instead of completing. */
  taskFailureRate?: number;
  /** A completed task's output URLs expire almost at once (after `earlyExpiryMs`, default 0). */
  earlyExpiryRate?: number;
  earlyExpiryMs?: number;
  /**
   * Refuse a valid create inside an HTTP 200: the body is an error body whose `code` is
   * `bodyRefusalCode` (default 400), no task is made and nothing is billed (creates only, as
   * `applyTo` allows; drawn from its own seeded stream).
   */
  bodyRefusalRate?: number;
  bodyRefusalCode?: number;
  /** Default 'request refused (sandbox fault injection)'. */
  bodyRefusalMessage?: string;
  /** Task types the account's plan may not create: 403 `Insufficient plan level` (whatever `applyTo` says). */
  planRefusedTaskTypes?: string[];
  /** The plan has no uploads: the upload endpoint answers 403 `Insufficient plan level`. */
  uploadRefused?: boolean;
  /**
   * Like an older custom service: the task history and running-task counts answer 404 (the
   * app then cannot settle a create in doubt, and says so).
   */
  noTaskHistory?: boolean;
}

export interface SandboxOptions {
  /** 0 (default) picks a free port. The host is always 127.0.0.1. */
  port?: number;
  /** The one key accepted. Default 'demo-key'. */
  apiKey?: string;
  /** Multiplies every task duration (0.05 makes tasks 20x faster). Default 1. */
  timeScale?: number;
  /** Pending + processing tasks allowed per key. Default 10. */
  concurrencyLimit?: number;
  /**
   * What happens over the limit: hold the task as `staged` (default) or refuse the create with
   * HTTP 429 and `Retry-After: 1` (nothing made, nothing billed).
   */
  overLimit?: 'stage' | 'refuse';
  /** The shape of the answers. Default 'spec'. */
  profile?: AnswerProfile;
  /**
   * The account's starting balance in micro-dollars (1 point = 1 micro-USD, as `usage.consume`
   * reports). Creates the balance cannot pay are refused with 402. Default 10_000_000 (10 USD).
   */
  balanceMicros?: number;
  /** How long uploaded files stay downloadable, in ms of wall time. Default 24 h x timeScale, at least 1 minute. */
  uploadTtlMs?: number;
  /** How long output URLs keep working, in ms of wall time (not scaled). Default 3 days. */
  outputTtlMs?: number;
  faults?: FaultOptions;
  /** Webhook delivery: attempts and first backoff in ms (doubling). Default 5 and 500. */
  webhookAttempts?: number;
  webhookBackoffMs?: number;
  /**
   * Worker threads that make output files (audio, images, video), so answers never wait on
   * them. Default 1; 0 makes them on the main thread (also the fallback when a worker cannot start).
   */
  generationWorkers?: number;
  /**
   * Who may use the control paths `/_sandbox/ledger` and `/_sandbox/faults`: any program on this
   * computer (`open`, the default, for a developer's sandbox), only a request carrying the
   * sandbox's key in `x-api-key` (`api-key`: the app's built-in sandbox), or nobody (`off`:
   * they answer 404). The ledger over HTTP never shows the key, webhook secrets or long values
   * such as images (request-guards.ts).
   */
  controlAccess?: ControlAccess;
  /**
   * What the sandbox itself fetches and sends: `any` (the default) fetches any image or audio
   * URL given as an input and delivers webhooks anywhere; `loopback-only` (the app's built-in
   * sandbox) fetches only its own URLs (uploads and results) and delivers no webhooks (a create
   * carrying an endpoint is refused). Other URLs are refused in the same words whatever is
   * (or is not) at that address: at create with a 400 naming the field, or, for a source song
   * (read when processing ends), by failing the task.
   */
  outbound?: OutboundMode;
  /**
   * Requests from web pages: `allow` (the default) answers them like any other; `refuse` (the
   * app's built-in sandbox) answers 403 on every path to a request whose `Origin` is not the
   * sandbox's own, or whose `Sec-Fetch-Site` says another site (the app's engine, the command
   * line and curl send neither).
   */
  crossSite?: 'allow' | 'refuse';
}

export type ControlAccess = 'open' | 'api-key' | 'off';
export type OutboundMode = 'any' | 'loopback-only';

/** One accepted create, as the service would bill it. */
export interface LedgerEntry {
  taskId: string;
  apiKey: string;
  model: string;
  taskType: string;
  /** The request body exactly as received (parsed JSON). */
  body: unknown;
  receivedAt: string;
}

export interface WebhookDelivery {
  taskId: string;
  endpoint: string;
  attempt: number;
  status: number | null;
  error: string | null;
  at: string;
}

export interface Sandbox {
  /** e.g. `http://127.0.0.1:8787` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /**
   * Every accepted create, in order, with the key and the body as received. `GET
   * {url}/_sandbox/ledger` serves it redacted (no key, no secrets, long values shortened).
   */
  ledger(): LedgerEntry[];
  /** Every webhook attempt, in order. */
  webhookDeliveries(): WebhookDelivery[];
  /** Replace the fault configuration for later requests. */
  setFaults(faults: FaultOptions): void;
  /** Stop accepting connections, end timers, close sockets. */
  stop(): Promise<void>;
}
