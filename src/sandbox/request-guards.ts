/**
 * Checks the sandbox makes before routing a request, for the app's built-in sandbox: requests
 * from web pages of other origins (a page in the user's browser must not drive it), and who may
 * use the `/_sandbox/...` control paths. Each returns the refusal to answer, or null.
 */
import type { IncomingMessage } from 'node:http';
import type { ControlAccess } from './options.ts';

export interface Refusal {
  status: number;
  message: string;
}

/** `Sec-Fetch-Site` values a browser sends for a request of the sandbox's own pages, or typed by hand. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A 403 for a request a web page of another origin made: an `Origin` header that is not the
 * sandbox's own (`null` included), or a `Sec-Fetch-Site` other than same-origin or none. The
 * app's engine, the command line and curl send neither header.
 */
export function crossSiteRefusal(req: IncomingMessage, ownOrigin: string): Refusal | null {
  const origin = header(req, 'origin');
  const site = header(req, 'sec-fetch-site');
  const foreignOrigin = origin !== undefined && origin.toLowerCase() !== ownOrigin.toLowerCase();
  const foreignSite = site !== undefined && !OWN_FETCH_SITES.has(site.toLowerCase());
  if (!foreignOrigin && !foreignSite) return null;
  return {
    status: 403,
    message: 'requests from web pages of other sites are refused (this sandbox serves the app only)',
  };
}

/**
 * Whether a request may use a control path: `open` lets it through, `api-key` wants the
 * sandbox's key in `x-api-key` (401 otherwise), `off` answers as if the path did not exist.
 */
export function controlRefusal(
  req: IncomingMessage,
  access: ControlAccess,
  apiKey: string,
  path: string,
): Refusal | null {
  if (access === 'open') return null;
  if (access === 'off') return { status: 404, message: `no such path: ${path}` };
  const given = header(req, 'x-api-key');
  if (given === undefined || given === '') {
    return { status: 401, message: 'x-api-key: the control paths of this sandbox need its API key' };
  }
  if (given !== apiKey) return { status: 401, message: 'x-api-key: not the key of this sandbox' };
  return null;
}
