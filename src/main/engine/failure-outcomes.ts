/**
 * What the engine does when a create or a status fetch fails: pure decisions from the typed
 * errors of the service client, so the rules about money are in one readable place.
 */
import type { TaskError } from '../../shared/index.ts';
import {
  BadRequestError,
  NetworkError,
  RateLimitedError,
  ServiceError,
  UnauthorizedError,
} from '../service/index.ts';

export const AUTH_PROBLEM =
  'the service refused the API key; check the key (Settings in the app, MEDIA_TASK_API_KEY on the command line)';

export type SubmissionOutcome =
  /** Surely never reached the service: back to the queue, nothing was billed. */
  | {
      action: 'requeue';
      cause: 'unreachable' | 'rate-limited' | 'unauthorized';
      retryAfterMs: number | null;
      error: TaskError;
      detail: string;
    }
  /** The service answered and refused the task: it is not created, not billed. */
  | { action: 'fail'; error: TaskError; detail: string }
  /**
   * The create may have reached the service: never re-sent without the user's word. (The
   * service was reachable: a connection was made, so this says nothing about being offline.)
   */
  | { action: 'uncertain'; error: TaskError; detail: string };

export function submissionOutcome(err: unknown): SubmissionOutcome {
  if (err instanceof NetworkError && !err.mayHaveReachedServer) {
    return {
      action: 'requeue',
      cause: 'unreachable',
      retryAfterMs: null,
      error: {
        kind: 'offline',
        message: 'waiting for the network: the service could not be reached, so nothing was sent',
        code: null,
      },
      detail: 'the service could not be reached; will send when it can',
    };
  }
  if (err instanceof RateLimitedError) {
    const wait = err.retryAfterMs ?? 5_000;
    return {
      action: 'requeue',
      cause: 'rate-limited',
      retryAfterMs: wait,
      error: {
        kind: 'rate-limited',
        message: `the service asked to wait ${Math.ceil(wait / 1000)} s before sending more tasks`,
        code: 429,
      },
      detail: 'the service is busy (429); will retry',
    };
  }
  if (err instanceof UnauthorizedError) {
    return {
      action: 'requeue',
      cause: 'unauthorized',
      retryAfterMs: null,
      error: { kind: 'unauthorized', message: AUTH_PROBLEM, code: err.status ?? 401 },
      detail: 'the service refused the API key',
    };
  }
  if (err instanceof BadRequestError) {
    return {
      action: 'fail',
      error: {
        kind: 'bad-request',
        message: `the service refused the task: ${err.serviceMessage ?? err.message}`,
        code: err.status ?? null,
      },
      detail: 'refused by the service',
    };
  }
  const why =
    err instanceof ServiceError
      ? err.message
      : `an unexpected error while sending: ${err instanceof Error ? err.message : String(err)}`;
  return {
    action: 'uncertain',
    error: {
      kind: 'uncertain',
      message: `the create request may have reached the service, but its answer was lost (${why}). It may or may not have been created and billed: submit it again, or discard it.`,
      code: err instanceof ServiceError ? (err.status ?? null) : null,
    },
    detail: 'answer to the create request lost',
  };
}

export type PollOutcome =
  /** Try again after `retryInMs`; `error` (when set) is shown on the task meanwhile. */
  | {
      action: 'retry';
      retryInMs: number | 'offline-backoff';
      cause: 'rate-limited' | 'unreachable' | 'unauthorized' | 'transient';
      error: TaskError | null;
    }
  /** The service no longer knows the task. */
  | { action: 'fail'; error: TaskError };

export function pollOutcome(err: unknown, pollCount: number): PollOutcome {
  if (err instanceof RateLimitedError) {
    return { action: 'retry', retryInMs: err.retryAfterMs ?? 5_000, cause: 'rate-limited', error: null };
  }
  if (err instanceof NetworkError) {
    return {
      action: 'retry',
      retryInMs: 'offline-backoff',
      cause: err.mayHaveReachedServer ? 'transient' : 'unreachable',
      error: null,
    };
  }
  if (err instanceof UnauthorizedError) {
    return { action: 'retry', retryInMs: 5_000, cause: 'unauthorized', error: null };
  }
  if (err instanceof BadRequestError && (err.status === 404 || err.status === 400)) {
    return {
      action: 'fail',
      error: {
        kind: 'not-found',
        message: `the service does not know this task any more (${err.serviceMessage ?? err.message})`,
        code: err.status ?? null,
      },
    };
  }
  return {
    action: 'retry',
    retryInMs: Math.min(60_000, 2_000 * 2 ** Math.min(5, pollCount)),
    cause: 'transient',
    error: {
      kind: err instanceof ServiceError ? err.kind : 'internal',
      message: `could not read the task's status: ${err instanceof Error ? err.message : String(err)}; retrying`,
      code: err instanceof ServiceError ? (err.status ?? null) : null,
    },
  };
}
