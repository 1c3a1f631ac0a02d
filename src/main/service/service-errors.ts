/**
 * Typed failures of the service client. Each one says what happened in words a user can read,
 * whether trying again can help (`retryable`), and enough detail for the engine to decide
 * (status, Retry-After, whether a create may have reached the server). No error here ever
 * holds the API key: messages and excerpts are scrubbed before they are built, and `cause`
 * is a scrubbed copy of the transport error, never the original.
 */

export type ServiceOperation = 'create' | 'get' | 'account' | 'upload';

/** What each operation does, in words, for messages: `to create the task`, `Creating the task`. */
export const OPERATION_WORDS: Readonly<Record<ServiceOperation, { action: string; doing: string }>> = {
  create: { action: 'create the task', doing: 'Creating the task' },
  get: { action: 'fetch the task', doing: 'Fetching the task' },
  account: { action: 'read the account balance', doing: 'Reading the account balance' },
  upload: { action: 'upload the file', doing: 'Uploading the file' },
};

export type ServiceErrorKind =
  | 'unauthorized'
  | 'plan-refused'
  | 'bad-request'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'protocol'
  | 'aborted';

export interface ServiceErrorInit {
  operation?: ServiceOperation | undefined;
  status?: number | undefined;
  cause?: Error | undefined;
}

export abstract class ServiceError extends Error {
  abstract readonly kind: ServiceErrorKind;
  /**
   * True when the condition is transient, so the same request may succeed later. For a create,
   * whether an automatic retry is safe is decided by `shouldRetry` (retry-policy.ts), not by this.
   */
  abstract readonly retryable: boolean;
  readonly status: number | undefined;
  readonly operation: ServiceOperation | undefined;
  /** How many attempts the client made before giving up with this error. */
  attempts = 1;

  constructor(message: string, init: ServiceErrorInit = {}) {
    super(message, init.cause ? { cause: init.cause } : undefined);
    this.status = init.status;
    this.operation = init.operation;
  }
}

/** 401 (as the HTTP status or as the `code` of the answer): the key is missing or wrong. */
export class UnauthorizedError extends ServiceError {
  override readonly name = 'UnauthorizedError';
  readonly kind = 'unauthorized' as const;
  readonly retryable = false;
}

/**
 * 403 (as the HTTP status or as the `code` of the answer): the key is fine, but the account's
 * plan does not allow this ("Insufficient plan level"). Nothing was created or billed; a new
 * key will not help, another plan would.
 */
export class PlanRefusedError extends ServiceError {
  override readonly name = 'PlanRefusedError';
  readonly kind = 'plan-refused' as const;
  readonly retryable = false;
  readonly serviceMessage: string | null;

  constructor(message: string, init: ServiceErrorInit & { serviceMessage?: string | null }) {
    super(message, init);
    this.serviceMessage = init.serviceMessage ?? null;
  }
}

/**
 * 400, 404, 422 and other refusals: the service refused the request; `serviceMessage` is its own
 * words. `inBody` is true when the refusal came as the `code` of an HTTP 2xx answer with no task
 * in it (then `status` is the HTTP status and `serviceCode` the code in the body).
 */
export class BadRequestError extends ServiceError {
  override readonly name = 'BadRequestError';
  readonly kind = 'bad-request' as const;
  readonly retryable = false;
  readonly serviceMessage: string | null;
  readonly serviceCode: number | null;
  readonly inBody: boolean;

  constructor(
    message: string,
    init: ServiceErrorInit & {
      serviceMessage?: string | null;
      serviceCode?: number | null;
      inBody?: boolean;
    },
  ) {
    super(message, init);
    this.serviceMessage = init.serviceMessage ?? null;
    this.serviceCode = init.serviceCode ?? null;
    this.inBody = init.inBody ?? false;
  }
}

/** The status a refusal stands for: the code in the body when it came that way, else the HTTP status. */
export function refusalCodeOf(error: BadRequestError): number | null {
  return error.inBody ? error.serviceCode : (error.status ?? null);
}

/** 429: too many requests. `retryAfterMs` is what the service asked for, when it said. */
export class RateLimitedError extends ServiceError {
  override readonly name = 'RateLimitedError';
  readonly kind = 'rate-limited' as const;
  readonly retryable = true;
  readonly retryAfterMs: number | null;
  readonly serviceMessage: string | null;

  constructor(
    message: string,
    init: ServiceErrorInit & { retryAfterMs: number | null; serviceMessage?: string | null },
  ) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
    this.serviceMessage = init.serviceMessage ?? null;
  }
}

/** 5xx: the service failed. For a create, the request was received and may have been processed. */
export class ServerError extends ServiceError {
  override readonly name = 'ServerError';
  readonly kind = 'server' as const;
  readonly retryable = true;
  readonly retryAfterMs: number | null;
  readonly serviceMessage: string | null;

  constructor(
    message: string,
    init: ServiceErrorInit & { retryAfterMs?: number | null; serviceMessage?: string | null },
  ) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.serviceMessage = init.serviceMessage ?? null;
  }
}

/**
 * The exchange failed below HTTP. `mayHaveReachedServer` is false only when the request surely
 * never got there (refused, DNS failure, connect timeout, failure before the request was written).
 */
export class NetworkError extends ServiceError {
  override readonly name = 'NetworkError';
  readonly kind = 'network' as const;
  readonly retryable = true;
  readonly mayHaveReachedServer: boolean;
  /** The transport's error code when there is one, e.g. `ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`. */
  readonly code: string | null;

  constructor(
    message: string,
    init: ServiceErrorInit & { mayHaveReachedServer: boolean; code?: string | null },
  ) {
    super(message, init);
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    this.code = init.code ?? null;
  }
}

/** The service answered, but not with something we can read: not JSON, or a shape no schema accepts. */
export class ProtocolError extends ServiceError {
  override readonly name = 'ProtocolError';
  readonly kind = 'protocol' as const;
  readonly retryable = false;
  /** At most 200 characters of what came back, scrubbed of the key. */
  readonly excerpt: string;
  /** Why it could not be read, in a few words (e.g. `it is not JSON`); the message when not given. */
  readonly reason: string;

  constructor(message: string, init: ServiceErrorInit & { excerpt: string; reason?: string }) {
    super(message, init);
    this.excerpt = init.excerpt;
    this.reason = init.reason ?? message;
  }
}

/** The caller's AbortSignal fired. For a create, `mayHaveReachedServer` tells whether it may be billed. */
export class AbortedError extends ServiceError {
  override readonly name = 'AbortedError';
  readonly kind = 'aborted' as const;
  readonly retryable = false;
  readonly mayHaveReachedServer: boolean;

  constructor(message: string, init: ServiceErrorInit & { mayHaveReachedServer: boolean }) {
    super(message, init);
    this.mayHaveReachedServer = init.mayHaveReachedServer;
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/**
 * Whether a failed call may still have been carried out by the service (for a create: the task
 * may exist and be billed, so the engine must look for it instead of assuming nothing happened).
 * False for refusals (401, 403 plan refusals, other 4xx, 429, and refusals given as the code of a
 * 2xx answer) and for transport failures that never reached it.
 */
export function mayHaveBeenProcessed(error: ServiceError): boolean {
  if (error instanceof NetworkError || error instanceof AbortedError) return error.mayHaveReachedServer;
  return error instanceof ServerError || error instanceof ProtocolError;
}
