/**
 * Opens the answer of a result URL: http(s) only, redirects followed here (at most
 * MAX_REDIRECTS, each to an http(s) URL, never back to one already visited) so every hop goes
 * through the guarded agent; an answer that is not a 2xx becomes an expiry or a failure.
 */
import { type Dispatcher, request } from 'undici';
import { finalFailure, OutputDownloadError, OutputExpiredError } from './download-errors.ts';

export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface OutputFetchOptions {
  dispatcher: Dispatcher;
  signal: AbortSignal;
  /** Longest wait for the answer's headers, and between two pieces of its body. */
  idleMs: number;
}

/** The URL as an http(s) URL, or a final failure saying why it is not one. */
export function httpUrlOf(text: string, what = "the service's address for it"): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw finalFailure(`${what} is not a valid web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw finalFailure(`${what} is not a web address (http or https), it starts with ${url.protocol}`);
  }
  if (url.username || url.password) throw finalFailure(`${what} carries a user name or password`);
  return url;
}

/** Where a redirect answer points, checked. */
function redirectTarget(response: Dispatcher.ResponseData, from: URL, seen: Set<string>): URL {
  const location = response.headers.location;
  const text = Array.isArray(location) ? location[0] : location;
  if (!text) throw finalFailure('its server answered with a redirect that goes nowhere');
  let target: URL;
  try {
    target = new URL(text, from);
  } catch {
    throw finalFailure('its server redirected to an address that is not valid');
  }
  const checked = httpUrlOf(target.href, 'its server redirected to an address that');
  if (seen.has(checked.href)) throw finalFailure('its server redirects in a loop');
  return checked;
}

/** Turns a non-2xx final answer into the error it means (404, 410 and 403: the file expired). */
async function refuseStatus(response: Dispatcher.ResponseData): Promise<never> {
  const status = response.statusCode;
  await response.body.dump().catch(() => undefined);
  if (status === 404 || status === 410 || status === 403) throw new OutputExpiredError(status);
  if (REDIRECT_STATUSES.has(status) || (status >= 300 && status < 400)) {
    throw finalFailure(`its server redirected more than ${MAX_REDIRECTS} times`);
  }
  const retryable = status >= 500 || status === 429 || status === 408;
  throw new OutputDownloadError(
    `The result could not be downloaded: its server answered HTTP ${status}${retryable ? ' (it may work later)' : ''}.`,
    retryable,
  );
}

/** The 2xx answer of `url` after following its redirects; its body is still to be read. */
export async function fetchOutput(
  url: string,
  options: OutputFetchOptions,
): Promise<Dispatcher.ResponseData> {
  let current = httpUrlOf(url);
  const seen = new Set<string>();
  for (let hop = 0; ; hop++) {
    seen.add(current.href);
    const response = await request(current, {
      method: 'GET',
      signal: options.signal,
      headersTimeout: options.idleMs,
      bodyTimeout: options.idleMs,
      dispatcher: options.dispatcher,
    });
    const status = response.statusCode;
    if (status >= 200 && status < 300) return response;
    if (!REDIRECT_STATUSES.has(status) || hop >= MAX_REDIRECTS) return refuseStatus(response);
    await response.body.dump().catch(() => undefined);
    current = redirectTarget(response, current, seen);
  }
}
