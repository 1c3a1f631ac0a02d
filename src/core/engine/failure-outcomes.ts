/**
 * What the engine does when a create or a status fetch fails: pure decisions from the typed
 * errors of the service client, so the rules about money are in one readable place.
 */
import type { TaskError } from '../../shared/index.ts';
import {
  BadRequestError,
  backoffStep,
  NetworkError,
  PlanRefusedError,
  ProtocolError,
  RateLimitedError,
  refusalCodeOf,
  ServerError,
  ServiceError,
  UnauthorizedError,
} from '../service/index.ts';
import { RemoteIdClashError, remoteIdClashSubmission } from './sending/remote-id-clash.ts';
import type { SubmissionOutcome } from './sending/submission-outcome.ts';

/** Shown by the app and the command line alike, so it names neither's way of giving a key. */
export const AUTH_PROBLEM =
  'the service refused the API key; nothing is sent until a key it accepts is stored';

/** How long to wait before reading a task again when its answers cannot be read, or are refused. */
export const SLOW_RETRY_MS = 60_000;

/**
 * When the engine stops asking about a task whose answers cannot be read: at least this many
 * unreadable answers in a row, the first at least `spanMs` before the last (README, "Decisions on
 * the spec's gaps"). Both, so neither a burst of answers nor a computer that slept for a day ends
 * a task; a readable answer starts the count again.
 */
export const UNREADABLE_LIMIT = { answers: 30, spanMs: 6 * 60 * 60 * 1000 };

/** The task's unreadable answers in a row before this one (the store keeps them), and the time now. */
export interface UnreadableSoFar {
  count: number;
  /** When the first of them came (epoch ms), or null when there is none. */
  since: number | null;
  nowMs: number;
}

/** A read that failed for an unclear reason is tried again after 2 s, doubling up to SLOW_RETRY_MS. */
const TROUBLED_READ_BACKOFF = { baseDelayMs: 2_000, maxDelayMs: SLOW_RETRY_MS };

/** The wait before reading a task again after a troubled read, by how often it was read before. */
function troubledReadDelay(pollCount: number): number {
  return backoffStep(pollCount + 1, TROUBLED_READ_BACKOFF);
}

/** The service's words, or the error's own message when it gave none. */
function wordsOf(err: { serviceMessage: string | null; message: string }): string {
  return err.serviceMessage ?? err.message;
}

/** A create the plan does not allow: failed for good; a new key would not help, so the queue goes on. */
function planRefusedSubmission(err: PlanRefusedError): SubmissionOutcome {
  return {
    action: 'fail',
    error: {
      kind: 'plan-refused',
      message: `your plan at the service does not allow this task (the service said: ${wordsOf(err)}); nothing was created or billed. A plan that includes it is needed.`,
      code: 403,
    },
    detail: 'refused by the service: the plan does not allow it',
  };
}

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
      error: { kind: 'unauthorized', message: AUTH_PROBLEM, code: 401 },
      detail: 'the service refused the API key',
    };
  }
  if (err instanceof PlanRefusedError) return planRefusedSubmission(err);
  if (err instanceof RemoteIdClashError) return remoteIdClashSubmission(err);
  if (err instanceof BadRequestError) {
    return {
      action: 'fail',
      error: {
        kind: 'bad-request',
        message: `the service refused the task: ${wordsOf(err)}`,
        code: refusalCodeOf(err),
      },
      detail: 'refused by the service',
    };
  }
  return uncertainSubmission(err);
}

/** What the user can do about a create in doubt. */
const UNCERTAIN_TAIL = 'Submit it again, or discard it.';

/**
 * A create that may have reached the service, in words that say what happened: the service
 * answered with an error (5xx), no answer came back (the connection broke after sending), or
 * the answer could not be read. Told apart by the error's class, not by its words.
 */
function uncertainSubmission(err: unknown): SubmissionOutcome {
  const uncertain = (message: string, code: number | null, detail: string): SubmissionOutcome => ({
    action: 'uncertain',
    error: { kind: 'uncertain', message: `${message} ${UNCERTAIN_TAIL}`, code },
    detail,
  });
  if (err instanceof ServerError) {
    const status = err.status ?? null;
    const http = status === null ? 'a server error' : `HTTP ${status}`;
    const said = err.serviceMessage ? `; it said: ${asClause(err.serviceMessage)}` : '';
    return uncertain(
      `the service answered with an error (${http}${said}) and may or may not have created (and billed) the task.`,
      status,
      `the service answered the create request with an error (${http})`,
    );
  }
  if (err instanceof NetworkError) {
    // the transport's code (UND_ERR_SOCKET…) means nothing to a user: left out
    return uncertain(
      `no answer came back: the connection broke after the create request was sent, so we can't tell whether the service received it; it may or may not have been created and billed.`,
      null,
      'no answer came back to the create request',
    );
  }
  if (err instanceof ProtocolError) {
    return uncertain(
      `the service's answer to the create request could not be read (${asClause(err.reason)}), so it may or may not have created (and billed) the task.`,
      err.status ?? null,
      'the answer to the create request could not be read',
    );
  }
  const why = err instanceof Error ? err.message : String(err);
  return uncertain(
    `the create request may have reached the service, but an unexpected error came while sending (${asClause(why)}); the task may or may not have been created and billed.`,
    err instanceof ServiceError ? (err.status ?? null) : null,
    'answer to the create request lost',
  );
}

export type PollOutcome =
  /**
   * Try again after `retryInMs`; `error` (when set) is shown on the task meanwhile; `unreadable`
   * (for an answer that could not be read) is the count in a row to keep.
   */
  | {
      action: 'retry';
      retryInMs: number | 'offline-backoff';
      cause: 'rate-limited' | 'unreachable' | 'unauthorized' | 'plan-refused' | 'transient';
      error: TaskError | null;
      unreadable?: { count: number; since: number };
    }
  /** The service no longer knows the task, or its answers stayed unreadable: it ends failed. */
  | { action: 'fail'; error: TaskError; detail: string };

/** `Some reason.` as a clause to put inside a sentence: no capital, no final period. */
function asClause(text: string): string {
  const trimmed = text.trim().replace(/\.+$/, '');
  // `The answer…` becomes `the answer…`; an acronym such as `JSON` keeps its capitals
  return /^[A-Z][a-z]/.test(trimmed) ? trimmed.charAt(0).toLowerCase() + trimmed.slice(1) : trimmed;
}

/**
 * An answer about the task that cannot be read: shown in words, read again sooner at first (a
 * glitch should not delay a result by a minute), backing off with each one in a row to once a
 * minute; given up (the task fails with the last reason) once UNREADABLE_LIMIT is reached.
 */
function unreadablePoll(
  err: ProtocolError,
  pollCount: number,
  before: UnreadableSoFar | undefined,
): PollOutcome {
  const earlier = before?.count ?? 0;
  const unreadable = { count: earlier + 1, since: before?.since ?? before?.nowMs ?? 0 };
  const span = before ? before.nowMs - unreadable.since : 0;
  const reason = asClause(err.reason);
  if (unreadable.count >= UNREADABLE_LIMIT.answers && span >= UNREADABLE_LIMIT.spanMs) {
    const hours = UNREADABLE_LIMIT.spanMs / 3_600_000;
    return {
      action: 'fail',
      error: {
        kind: 'protocol',
        message: `the service's answers about this task could not be read for over ${hours} hours (${unreadable.count} answers in a row; the last: ${reason}), so the app stopped asking. The task may still have run (and been billed) at the service.`,
        code: err.status ?? null,
      },
      detail: `the answers about the task could not be read for ${hours} hours`,
    };
  }
  const retryInMs = troubledReadDelay(pollCount + earlier);
  const when = retryInMs >= SLOW_RETRY_MS ? 'in a minute' : `in ${Math.round(retryInMs / 1000)} s`;
  return {
    action: 'retry',
    retryInMs,
    cause: 'transient',
    error: {
      kind: 'protocol',
      message: `The service's answer about this task could not be read (${reason}); checking again ${when}.`,
      code: err.status ?? null,
    },
    unreadable,
  };
}

/** A read the plan refuses (403): the task is still the service's; keep asking, slowly. */
function planRefusedPoll(err: PlanRefusedError): PollOutcome {
  return {
    action: 'retry',
    retryInMs: SLOW_RETRY_MS,
    cause: 'plan-refused',
    error: {
      kind: 'plan-refused',
      message: `your plan at the service does not allow reading this task (the service said: ${wordsOf(err)}); checking again in a minute.`,
      code: 403,
    },
  };
}

/**
 * What to do after a failed status fetch of a task answered `pollCount` times before;
 * `unreadable`: its unreadable answers in a row so far (needed to give up on them).
 */
export function pollOutcome(err: unknown, pollCount: number, unreadable?: UnreadableSoFar): PollOutcome {
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
  if (err instanceof PlanRefusedError) return planRefusedPoll(err);
  if (err instanceof ProtocolError) return unreadablePoll(err, pollCount, unreadable);
  const refused = err instanceof BadRequestError ? refusalCodeOf(err) : null;
  if (err instanceof BadRequestError && (refused === 404 || refused === 400)) {
    return {
      action: 'fail',
      error: {
        kind: 'not-found',
        message: `the service does not know this task any more (${wordsOf(err)})`,
        code: refused,
      },
      detail: 'unknown to the service',
    };
  }
  return {
    action: 'retry',
    retryInMs: troubledReadDelay(pollCount),
    cause: 'transient',
    error: {
      kind: err instanceof ServiceError ? err.kind : 'internal',
      message: `could not read the task's status: ${err instanceof Error ? err.message : String(err)}; retrying`,
      code: err instanceof ServiceError ? (err.status ?? null) : null,
    },
  };
}
