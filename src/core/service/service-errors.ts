/**
 * Typed failures of the service client. Each one says what happened in words a user can read,
 * whether trying again can help (`retryable`), and enough detail for the engine to decide
 * (status, Retry-After, whether a create may have reached the server). No error here ever
 * holds the API key: messages and excerpts are scrubbed before they are built, and `cause`
 * is a scrubbed copy of the transport error, never the original.
 */

export type ServiceOperation = 'create' | 'get' | 'account' | 'upload' | 'history' | 'active-tasks';

/** What each operation does, in words, for messages: `to create the task`, `Creating the task`. */
export const OPERATION_WORDS: Readonly<Record<ServiceOperation, { action: string; doing: string }>> = {
  create: { action: 'create the task', doing: 'Creating the task' },
  get: { action: 'fetch the task', doing: 'Fetching the task' },
  account: { action: 'read the account balance', doing: 'Reading the account balance' },
  upload: { action: 'upload the file', doing: 'Uploading the file' },
  history: { action: "read the account's task history", doing: "Reading the account's task history" },
  'active-tasks': {
    action: 'read the tasks running at the service',
    doing: 'Reading the tasks running at the service',
  },
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

/** The arguments after the message: the init may be left out when none of its fields is required. */
type InitArgs<Init> =
  Partial<Init> extends Init ? [init?: ServiceErrorInit & Init] : [init: ServiceErrorInit & Init];

/** A service error class: a `ServiceError` of one kind, carrying the fields its init gives it. */
type ServiceErrorClass<Kind extends ServiceErrorKind, Init, Fields> = new (
  message: string,
  ...init: InitArgs<Init>
) => ServiceError & { readonly kind: Kind } & Readonly<Fields>;

/**
 * Declares one service error class: its `name`, `kind` and `retryable`, and the fields it reads
 * from its init (with their defaults). The fields become own properties after the fixed ones,
 * and `instanceof` works on the returned class as on any subclass of `ServiceError`.
 */
function serviceErrorClass<
  Kind extends ServiceErrorKind,
  Init extends object = Record<never, never>,
  Fields extends object = Record<never, never>,
>(
  name: string,
  kind: Kind,
  retryable: boolean,
  fieldsOf?: (init: Init, message: string) => Fields,
): ServiceErrorClass<Kind, Init, Fields> {
  const errorClass = class extends ServiceError {
    override readonly name = name;
    readonly kind = kind;
    readonly retryable = retryable;

    constructor(message: string, init: ServiceErrorInit & Init = {} as ServiceErrorInit & Init) {
      super(message, init);
      if (fieldsOf) Object.assign(this, fieldsOf(init, message));
    }
  };
  Object.defineProperty(errorClass, 'name', { value: name });
  return errorClass as unknown as ServiceErrorClass<Kind, Init, Fields>;
}

/**
 * 401 (as the HTTP status or as the `code` of the answer): the key is missing or wrong.
 * `serviceMessage`: the service's own words ("Invalid API key"), when it gave any.
 */
export const UnauthorizedError = serviceErrorClass(
  'UnauthorizedError',
  'unauthorized',
  false,
  (init: { serviceMessage?: string | null }) => ({ serviceMessage: init.serviceMessage ?? null }),
);
export type UnauthorizedError = InstanceType<typeof UnauthorizedError>;

/**
 * 403 (as the HTTP status or as the `code` of the answer): the key is fine, but the account's
 * plan does not allow this ("Insufficient plan level"). Nothing was created or billed; a new
 * key will not help, another plan would.
 */
export const PlanRefusedError = serviceErrorClass(
  'PlanRefusedError',
  'plan-refused',
  false,
  (init: { serviceMessage?: string | null }) => ({ serviceMessage: init.serviceMessage ?? null }),
);
export type PlanRefusedError = InstanceType<typeof PlanRefusedError>;

/**
 * 400, 404, 422 and other refusals: the service refused the request; `serviceMessage` is its own
 * words. `inBody` is true when the refusal came as the `code` of an HTTP 2xx answer with no task
 * in it (then `status` is the HTTP status and `serviceCode` the code in the body).
 */
export const BadRequestError = serviceErrorClass(
  'BadRequestError',
  'bad-request',
  false,
  (init: { serviceMessage?: string | null; serviceCode?: number | null; inBody?: boolean }) => ({
    serviceMessage: init.serviceMessage ?? null,
    serviceCode: init.serviceCode ?? null,
    inBody: init.inBody ?? false,
  }),
);
export type BadRequestError = InstanceType<typeof BadRequestError>;

/** The status a refusal stands for: the code in the body when it came that way, else the HTTP status. */
export function refusalCodeOf(error: BadRequestError): number | null {
  return error.inBody ? error.serviceCode : (error.status ?? null);
}

/** 429: too many requests. `retryAfterMs` is what the service asked for, when it said. */
export const RateLimitedError = serviceErrorClass(
  'RateLimitedError',
  'rate-limited',
  true,
  (init: { retryAfterMs: number | null; serviceMessage?: string | null }) => ({
    retryAfterMs: init.retryAfterMs,
    serviceMessage: init.serviceMessage ?? null,
  }),
);
export type RateLimitedError = InstanceType<typeof RateLimitedError>;

/** 5xx: the service failed. For a create, the request was received and may have been processed. */
export const ServerError = serviceErrorClass(
  'ServerError',
  'server',
  true,
  (init: { retryAfterMs?: number | null; serviceMessage?: string | null }) => ({
    retryAfterMs: init.retryAfterMs ?? null,
    serviceMessage: init.serviceMessage ?? null,
  }),
);
export type ServerError = InstanceType<typeof ServerError>;

/**
 * The exchange failed below HTTP. `mayHaveReachedServer` is false only when the request surely
 * never got there (refused, DNS failure, connect timeout, failure before the request was written).
 */
export const NetworkError = serviceErrorClass(
  'NetworkError',
  'network',
  true,
  (init: { mayHaveReachedServer: boolean; code?: string | null }) => ({
    mayHaveReachedServer: init.mayHaveReachedServer,
    /** The transport's error code when there is one, e.g. `ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`. */
    code: init.code ?? null,
  }),
);
export type NetworkError = InstanceType<typeof NetworkError>;

/** The service answered, but not with something we can read: not JSON, or a shape no schema accepts. */
export const ProtocolError = serviceErrorClass(
  'ProtocolError',
  'protocol',
  false,
  (init: { excerpt: string; reason?: string }, message) => ({
    /** At most 200 characters of what came back, scrubbed of the key. */
    excerpt: init.excerpt,
    /** Why it could not be read, in a few words (e.g. `it is not JSON`); the message when not given. */
    reason: init.reason ?? message,
  }),
);
export type ProtocolError = InstanceType<typeof ProtocolError>;

/** The caller's AbortSignal fired. For a create, `mayHaveReachedServer` tells whether it may be billed. */
export const AbortedError = serviceErrorClass(
  'AbortedError',
  'aborted',
  false,
  (init: { mayHaveReachedServer: boolean }) => ({ mayHaveReachedServer: init.mayHaveReachedServer }),
);
export type AbortedError = InstanceType<typeof AbortedError>;

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
