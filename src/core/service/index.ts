/** The service client's public surface: the HTTP client, its typed errors and its retry policy. */
export { parseBaseUrl, type ServiceEndpoint, taskPath } from './base-url.ts';
export {
  backoffDelay,
  backoffStep,
  DEFAULT_RETRY_POLICY,
  isRetryableFailure,
  parseRetryAfter,
  type RetryPolicy,
  resolveRetryPolicy,
  retryAfterOf,
  shouldRetry,
} from './retry-policy.ts';
export { createSecretScrubber, REDACTED, type SecretScrubber } from './secret-scrubber.ts';
export {
  type CreateTaskOptions,
  DEFAULT_TIMEOUTS,
  type GetTaskOptions,
  ServiceClient,
  type ServiceClientOptions,
  type ServiceTimeouts,
} from './service-client.ts';
export {
  AbortedError,
  BadRequestError,
  isServiceError,
  mayHaveBeenProcessed,
  NetworkError,
  PlanRefusedError,
  ProtocolError,
  RateLimitedError,
  refusalCodeOf,
  ServerError,
  ServiceError,
  type ServiceErrorKind,
  type ServiceOperation,
  UnauthorizedError,
} from './service-errors.ts';
