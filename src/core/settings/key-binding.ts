/**
 * A stored API key is tied to every address it is sent to (security review, issue 17, item 1):
 * the service's task, balance, task history and running-task endpoints and its upload endpoint,
 * each in full, so a change of any of them (another upload host, another path on the same host),
 * by the page or by a settings file edited elsewhere, never sends the key there without the
 * user's word in a dialog main owns. The key vault keeps an opaque string; this is its format:
 * `{"v":2,"key":…,"addresses":["https://…/api/v1/task","https://…/account/info",…]}`. A key
 * stored before the history endpoints were listed is sent only once the user confirms them. A
 * key stored by an earlier version (the bare key, or `{"v":1,"key":…,"origin":…}`, tied to an origin only)
 * has no addresses: it is sent nowhere until the user confirms them.
 */

import { SERVICE_PATHS } from '../service/base-url.ts';

export interface BoundKey {
  key: string;
  /** The full addresses the user agreed to send the key to; null for a key stored by an earlier version. */
  addresses: readonly string[] | null;
}

/** One address the key is sent to, and what for (in the words of the confirmation dialog). */
export interface KeyAddress {
  what: 'tasks' | 'balance' | 'history' | 'running' | 'uploads';
  url: string;
}

export function encodeBoundKey(bound: BoundKey): string {
  return JSON.stringify({ v: 2, key: bound.key, addresses: bound.addresses });
}

export function decodeBoundKey(stored: string): BoundKey {
  if (stored.startsWith('{')) {
    try {
      const value = JSON.parse(stored) as { v?: unknown; key?: unknown; addresses?: unknown };
      if (typeof value.key === 'string' && value.v === 2 && isStringList(value.addresses))
        return { key: value.key, addresses: value.addresses };
      // version 1 tied the key to an origin only: its addresses were never confirmed
      if (typeof value.key === 'string' && value.v === 1) return { key: value.key, addresses: null };
    } catch {
      // not our format: a bare key that happens to start with a brace
    }
  }
  return { key: stored, addresses: null };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** `scheme://host:port/path` without a trailing slash, query or fragment; null when not an address. */
function addressOf(url: string): { origin: string; path: string } | null {
  try {
    const parsed = new URL(url.trim());
    return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') };
  } catch {
    return null;
  }
}

/**
 * Every address a service with this base URL and upload endpoint sends the key to, in full, as
 * the service client builds them (service-client.ts: SERVICE_PATHS under the base, and the upload
 * endpoint); null when the key would go nowhere (no base URL yet).
 */
export function keyAddressesOf(service: { baseUrl: string; uploadUrl: string }): KeyAddress[] | null {
  const base = service.baseUrl === '' ? null : addressOf(service.baseUrl);
  if (!base) return null;
  const under = `${base.origin}${base.path}`;
  const addresses: KeyAddress[] = (['tasks', 'balance', 'history', 'running'] as const).map((what) => ({
    what,
    url: `${under}${SERVICE_PATHS[what]}`,
  }));
  const upload = service.uploadUrl === '' ? null : addressOf(service.uploadUrl);
  if (upload) addresses.push({ what: 'uploads', url: `${upload.origin}${upload.path || '/'}` });
  return addresses;
}

/** The addresses of `wanted` the key is not bound to (all of them for a key of an earlier version). */
export function unconfirmedAddresses(bound: BoundKey, wanted: readonly KeyAddress[]): KeyAddress[] {
  return wanted.filter((a) => bound.addresses === null || !bound.addresses.includes(a.url));
}
