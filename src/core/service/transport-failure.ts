/**
 * Turns a transport failure (socket, DNS, timeout) into a NetworkError that says, in words and
 * in `mayHaveReachedServer`, whether the request could have been received.
 */
import type { ExchangeProgress } from './http-exchange.ts';
import type { SecretScrubber } from './secret-scrubber.ts';
import { NetworkError, OPERATION_WORDS, type ServiceOperation } from './service-errors.ts';

/** Codes that prove the request never left this machine or never found the server. */
const NEVER_SENT: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (DNS not answering)',
  EAI_NONAME: 'the host name could not be resolved',
  EAI_FAIL: 'the host name could not be resolved',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EADDRNOTAVAIL: 'the address is not available',
  UND_ERR_CONNECT_TIMEOUT: 'the connection could not be opened in time',
};

/** Codes that can only happen once the request was sent. */
const AFTER_SEND: Record<string, string> = {
  UND_ERR_HEADERS_TIMEOUT: 'the service did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer was cut short',
};

const MIDWAY: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ECONNABORTED: 'the connection was aborted',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_CLOSED: 'the client was closed',
  UND_ERR_DESTROYED: 'the client was closed',
};

/** The most telling error code of an error, its aggregate members or its cause. */
export function transportCodeOf(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== 'object' || depth > 3) return null;
  const e = error as { code?: unknown; errors?: unknown; cause?: unknown };
  const own = typeof e.code === 'string' ? e.code : null;
  if (own && own !== 'UND_ERR_SOCKET' && own !== 'UND_ERR_INFO') return own;
  if (Array.isArray(e.errors)) {
    for (const member of e.errors) {
      const code = transportCodeOf(member, depth + 1);
      if (code) return code;
    }
  }
  return transportCodeOf(e.cause, depth + 1) ?? own;
}

function requestMayHaveArrived(progress: ExchangeProgress): boolean {
  return progress.requestSent || progress.bodyBytesSent > 0 || progress.responseStarted;
}

/** A plain copy of a transport error with the secret scrubbed out of its message and stack. */
export function scrubbedCopy(error: Error, scrubber: SecretScrubber): Error {
  const copy = new Error(scrubber.text(error.message));
  copy.name = error.name;
  copy.stack = scrubber.text(error.stack ?? `${error.name}: ${error.message}`);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  return copy;
}

export interface TransportContext {
  operation: ServiceOperation;
  origin: string;
  scrubber: SecretScrubber;
}

export function networkErrorFrom(
  error: Error,
  progress: ExchangeProgress,
  context: TransportContext,
): NetworkError {
  const code = transportCodeOf(error);
  let mayHaveReached: boolean;
  let what: string;
  if (code && code in NEVER_SENT) {
    mayHaveReached = false;
    what = NEVER_SENT[code] ?? 'the connection failed';
  } else if (code && code in AFTER_SEND) {
    mayHaveReached = true;
    what = AFTER_SEND[code] ?? 'the exchange failed';
  } else {
    mayHaveReached = requestMayHaveArrived(progress);
    what = (code && MIDWAY[code]) || 'the connection failed';
  }
  const when = mayHaveReached ? 'after the request was sent' : 'before the request was sent';
  const verb = `${OPERATION_WORDS[context.operation].doing} failed`;
  const note =
    context.operation === 'create' && mayHaveReached
      ? ' The task may have been created; check the task list before trying again.'
      : '';
  return new NetworkError(`${verb}: ${what} ${when} (${context.origin}${code ? `, ${code}` : ''}).${note}`, {
    operation: context.operation,
    mayHaveReachedServer: mayHaveReached,
    code,
    cause: scrubbedCopy(error, context.scrubber),
  });
}
