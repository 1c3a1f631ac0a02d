/**
 * When to try a failed call again and how long to wait first. Pure functions, so the engine can
 * reuse them for its own scheduling.
 *
 * - A read (`get`) is retried on network failures, 429 and 5xx.
 * - A create is a paid action: it is retried only when the failure proves the request never
 *   reached the service (a NetworkError with `mayHaveReachedServer === false`) or on 429 (the
 *   service refused it without processing it). Never after a 5xx, a reset or timeout after the
 *   request was sent, or an unreadable answer: the task may exist and be billed.
 * - Refusals are never retried, whether the HTTP status or the `code` of a 2xx answer says so:
 *   401 (the key), 403 (the plan: PlanRefusedError), the other 4xx but 429, and a 5xx code in
 *   the body of an answer without a task. Trying again cannot change the answer.
 */
import {
  NetworkError,
  RateLimitedError,
  ServerError,
  type ServiceError,
  type ServiceOperation,
} from './service-errors.ts';

export interface RetryPolicy {
  /** Total attempts, the first one included. */
  maxAttempts: number;
  /** First backoff step in ms; it doubles each attempt. */
  baseDelayMs: number;
  /** Cap of the exponential step in ms (Retry-After may ask for more). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for inside one call: the error goes back to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export function resolveRetryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const pick = (value: number | undefined, fallback: number, min: number) =>
    typeof value === 'number' && Number.isFinite(value) && value >= min ? value : fallback;
  return {
    maxAttempts: Math.floor(pick(partial.maxAttempts, DEFAULT_RETRY_POLICY.maxAttempts, 1)),
    baseDelayMs: pick(partial.baseDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs, 0),
    maxDelayMs: pick(partial.maxDelayMs, DEFAULT_RETRY_POLICY.maxDelayMs, 0),
    maxRetryAfterMs: pick(partial.maxRetryAfterMs, DEFAULT_RETRY_POLICY.maxRetryAfterMs, 0),
  };
}

/** The wait the service asked for, if any, on an error that carries one. */
export function retryAfterOf(error: unknown): number | null {
  if (error instanceof RateLimitedError || error instanceof ServerError) return error.retryAfterMs;
  return null;
}

/** Whether this kind of failure may be retried for this operation, attempts aside. */
export function isRetryableFailure(operation: ServiceOperation, error: unknown): boolean {
  if (error instanceof RateLimitedError) return true;
  if (operation === 'create') return error instanceof NetworkError && !error.mayHaveReachedServer;
  return error instanceof NetworkError || error instanceof ServerError;
}

/**
 * Whether to make another attempt after `attempt` attempts (1 = the first one failed).
 * False once `maxAttempts` is reached, and when the service asked to wait longer than
 * `maxRetryAfterMs`.
 */
export function shouldRetry(
  operation: ServiceOperation,
  error: ServiceError | unknown,
  attempt: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): boolean {
  if (attempt >= policy.maxAttempts) return false;
  if (!isRetryableFailure(operation, error)) return false;
  const retryAfter = retryAfterOf(error);
  return retryAfter === null || retryAfter <= policy.maxRetryAfterMs;
}

/**
 * The exponential step after `attempt` failed attempts, in ms, without jitter:
 * `min(maxDelayMs, baseDelayMs * 2^(attempt-1))`. The engine's own waits (offline, downloads,
 * unreadable answers) use it too, so every backoff in the app doubles and caps the same way.
 */
export function backoffStep(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(exponent, 30));
}

/**
 * Wait before attempt `attempt + 1`, in ms: equal jitter on the exponential step (backoffStep;
 * wait in `[step/2, step)`), and never less than the service's Retry-After.
 */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
  retryAfterMs: number | null = null,
): number {
  const step = backoffStep(attempt, policy);
  const r = Math.min(Math.max(random(), 0), 1);
  const jittered = Math.floor(step / 2 + (step / 2) * r);
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * Retry-After as ms from `nowMs`: delta-seconds (`120`) or an HTTP date. Null when absent or
 * unreadable; 0 for a date in the past.
 */
export function parseRetryAfter(value: string | readonly string[] | undefined, nowMs: number): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return null; // an HTTP date names its day and month
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
