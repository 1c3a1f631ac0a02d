/**
 * Why a result download failed, in sentences a person can read: network error codes (undici's
 * and Node's) are mapped to words here, so no library's internal message reaches the user.
 */
import { BlockedAddressError } from './guarded-agent.ts';

/** Every download failure message starts so. */
export const DOWNLOAD_FAILED = 'The result could not be downloaded';

export class OutputExpiredError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`output expired: the service no longer serves this file (HTTP ${status})`);
    this.name = 'OutputExpiredError';
    this.status = status;
  }
}

export class OutputDownloadError extends Error {
  /** True when trying again later may succeed (network trouble, 5xx). */
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'OutputDownloadError';
    this.retryable = retryable;
  }
}

/** A failure worth trying again later. */
export function retryableFailure(reason: string): OutputDownloadError {
  return new OutputDownloadError(`${DOWNLOAD_FAILED}: ${reason}.`, true);
}

/** A failure that trying again will not mend. */
export function finalFailure(reason: string): OutputDownloadError {
  return new OutputDownloadError(`${DOWNLOAD_FAILED}: ${reason}.`, false);
}

/** "2 GB", "2.5 MB", "700 KB": a byte limit in decimal units, as it is set. */
export function byteLimitWords(bytes: number): string {
  const [unit, size] = bytes >= 1e9 ? ['GB', 1e9] : bytes >= 1e6 ? ['MB', 1e6] : ['KB', 1e3];
  return `${Number((bytes / size).toFixed(1))} ${unit}`;
}

/** One file larger than the limit for one file. */
export function fileTooLarge(maxBytes: number): OutputDownloadError {
  return finalFailure(`it is larger than ${byteLimitWords(maxBytes)}, the most the app saves of one file`);
}

/** The results of one task together larger than the limit for one task. */
export function taskTooLarge(maxTaskBytes: number): OutputDownloadError {
  return finalFailure(
    `the results of this task together would be larger than ${byteLimitWords(maxTaskBytes)}, the most the app saves from one task`,
  );
}

/** The time limits of one download, for the sentences that name them. */
export interface DownloadTimes {
  totalMs: number;
  idleMs: number;
}

function seconds(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s >= 120 && s % 60 === 0) return `${s / 60} minutes`;
  return s === 1 ? '1 second' : `${s} seconds`;
}

/** Network error codes, as the sentence that explains each and whether another try may help. */
const CODE_SENTENCES: Readonly<Record<string, [string, boolean]>> = {
  ECONNREFUSED: ['the server holding it refused the connection', true],
  ECONNRESET: ['the connection to its server was cut off', true],
  EPIPE: ['the connection to its server was cut off', true],
  UND_ERR_SOCKET: ['the connection to its server was cut off', true],
  UND_ERR_CLOSED: ['the connection to its server was closed', true],
  ENOTFOUND: ["its server's name could not be found (check the internet connection)", true],
  EAI_AGAIN: ["its server's name could not be looked up (check the internet connection)", true],
  EHOSTUNREACH: ['its server cannot be reached from this network', true],
  ENETUNREACH: ['this computer has no route to its server (check the internet connection)', true],
  ETIMEDOUT: ['its server could not be reached in time', true],
  UND_ERR_CONNECT_TIMEOUT: ['its server could not be reached in time', true],
  UND_ERR_RESPONSE_STATUS_CODE: ['its server gave an unexpected answer', true],
  UND_ERR_INVALID_ARG: ["the service's address for it is not one the app can use", false],
  ERR_INVALID_URL: ["the service's address for it is not a valid web address", false],
  UND_ERR_HEADERS_OVERFLOW: ["its server's answer was malformed", false],
  HPE_INVALID_CONSTANT: ["its server's answer was malformed", false],
};

/** The `code` of an error or of the errors it wraps (undici puts Node's in `cause`). */
function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const inner = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(inner)) for (const e of inner) codes.push(...codesOf(e));
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function blockedIn(err: unknown): BlockedAddressError | null {
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (current instanceof BlockedAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The download failure an error stands for. `totalTimedOut` says the whole-download timer
 * fired; `stopped` says the app itself stopped the download (it is closing).
 */
export function downloadFailureOf(
  err: unknown,
  times: DownloadTimes,
  cause: { totalTimedOut: boolean; stopped: boolean },
): OutputDownloadError {
  if (err instanceof OutputDownloadError) return err;
  const blocked = blockedIn(err);
  if (blocked) {
    return finalFailure(
      `the service's address for it points inside your network (${blocked.host}), which the app does not download from`,
    );
  }
  if (cause.totalTimedOut)
    return retryableFailure(`it took longer than ${seconds(times.totalMs)}, the limit for one download`);
  if (cause.stopped) return retryableFailure('the app stopped the download');
  const codes = codesOf(err);
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT') || codes.includes('UND_ERR_BODY_TIMEOUT')) {
    return retryableFailure(`its server sent nothing for ${seconds(times.idleMs)}`);
  }
  if (codes.some((c) => c.startsWith('CERT_') || c.startsWith('ERR_TLS_') || c.includes('CERT'))) {
    return finalFailure("its server's security certificate is not valid");
  }
  for (const code of codes) {
    const known = CODE_SENTENCES[code];
    if (known) return new OutputDownloadError(`${DOWNLOAD_FAILED}: ${known[0]}.`, known[1]);
  }
  return retryableFailure('the connection to its server failed');
}
