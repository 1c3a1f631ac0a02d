/**
 * What the sandbox itself may fetch and send under `outbound: 'loopback-only'` (the app's
 * built-in sandbox): image and audio inputs only from its own URLs (uploads and results), and no
 * webhooks at all: the built-in sandbox runs on the user's computer, and a webhook endpoint is
 * whatever the page put in the task, so any local program's port with a header value of the
 * page's choosing (security review, issue 17, item 8). A refused URL is refused in the same
 * words whatever is at that address, so the answers tell nothing about other machines or ports.
 * Connections are checked again when they open (a name such as `localhost` is resolved and must
 * give loopback addresses only).
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
/** The one answer for any webhook endpoint given to the built-in sandbox. */
export const NO_WEBHOOKS =
  'the demo sandbox sends no webhooks (it runs on this computer, where a webhook could reach any local program); leave the webhook endpoint empty in demo mode';

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Why an image or audio URL may not be fetched, or null. */
export function imageUrlProblem(url: string, mode: OutboundMode, ownOrigin: string): string | null {
  if (mode === 'any') return null;
  return parsed(url)?.origin === ownOrigin ? null : FOREIGN_IMAGE_URL;
}

/** Why a webhook endpoint may not be called, or null ('' means no webhook). */
export function webhookEndpointProblem(endpoint: string, mode: OutboundMode): string | null {
  if (mode === 'any' || endpoint === '') return null;
  return NO_WEBHOOKS;
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
