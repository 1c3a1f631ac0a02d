/**
 * What the sandbox itself may fetch and send under `outbound: 'loopback-only'` (the app's
 * built-in sandbox): image and audio inputs only from its own URLs (uploads and results), webhooks only
 * to this computer. A refused URL is refused in the same words whatever is at that address, so
 * the answers tell nothing about other machines or ports. Connections are checked again when
 * they open (a name such as `localhost` is resolved and must give loopback addresses only).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { isLoopbackAddress } from './http-answers.ts';
import type { OutboundMode } from './options.ts';

/** The one answer for an image or audio URL the built-in sandbox will not fetch. */
export const FOREIGN_IMAGE_URL = 'the demo sandbox fetches only its own files (uploads and results)';
/** The one answer for an image or audio URL of its own that it could not fetch. */
export const OWN_FILE_UNREADABLE = 'the file could not be fetched';
/** The one answer for a webhook endpoint the built-in sandbox will not call. */
export const FOREIGN_WEBHOOK =
  'the demo sandbox sends webhooks only to this computer (http://localhost or http://127.0.0.1)';

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A host name on this computer: `localhost` or a loopback IP address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || isLoopbackAddress(host);
}

/** Why an image or audio URL may not be fetched, or null. */
export function imageUrlProblem(url: string, mode: OutboundMode, ownOrigin: string): string | null {
  if (mode === 'any') return null;
  return parsed(url)?.origin === ownOrigin ? null : FOREIGN_IMAGE_URL;
}

/** Why a webhook endpoint may not be called, or null ('' means no webhook). */
export function webhookEndpointProblem(endpoint: string, mode: OutboundMode): string | null {
  if (mode === 'any' || endpoint === '') return null;
  const url = parsed(endpoint);
  return url && isLoopbackHost(url.hostname) ? null : FOREIGN_WEBHOOK;
}

/** A connection refused because it would leave this computer. */
class NotLoopbackError extends Error {
  readonly code = 'SANDBOX_NOT_LOOPBACK';
}

/** dns.lookup that gives only loopback addresses, refusing a name with any other. */
const loopbackLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    if (addresses.length === 0 || addresses.some((a) => !isLoopbackAddress(a.address))) {
      return callback(new NotLoopbackError(`${hostname} is not on this computer`), '', 0);
    }
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

/** An undici connector that opens connections to loopback addresses only. */
export function loopbackConnector(): buildConnector.connector {
  const connect = buildConnector({ lookup: loopbackLookup });
  return (options, callback) => {
    if (isIP(options.hostname) !== 0 && !isLoopbackAddress(options.hostname)) {
      callback(new NotLoopbackError(`${options.hostname} is not on this computer`), null);
      return;
    }
    connect(options, callback);
  };
}
