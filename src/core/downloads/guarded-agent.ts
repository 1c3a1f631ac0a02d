/**
 * The HTTP agent of result downloads, which checks every connection it opens (the first
 * request and each redirect hop alike) against the address policy: a name is resolved here and
 * refused when any of its addresses is inside the user's network; an IP address is checked
 * before any socket opens. The service's own origin is exempt: the user chose that address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { type AddressPolicy, addressAllowed } from './network-address.ts';

/** A connection refused because the address is inside the user's network. */
export class BlockedAddressError extends Error {
  readonly code = 'MTS_BLOCKED_ADDRESS';
  /** The host name or IP address as the URL gave it. */
  readonly host: string;
  constructor(host: string, address: string) {
    super(`${host} is at ${address}, inside the local network`);
    this.name = 'BlockedAddressError';
    this.host = host;
  }
}

export interface DownloadAddressPolicy extends AddressPolicy {
  /** The service's own origin (`http://127.0.0.1:8787`): connected to wherever it is. */
  trustedOrigin: string | null;
}

/** Resolves a name like dns.lookup, refusing it when any of its addresses is not allowed. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const blocked = addresses.find((a) => !addressAllowed(a.address, policy));
      if (blocked || addresses.length === 0) {
        return callback(new BlockedAddressError(hostname, blocked?.address ?? 'no address'), '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The origin a connection goes to, in the form `URL.origin` writes it. */
function originOf(options: buildConnector.Options): string {
  return `${options.protocol}//${options.host ?? options.hostname}`.toLowerCase();
}

/** A connector that applies the policy before handing over to undici's own. */
function guardedConnector(policy: DownloadAddressPolicy, timeoutMs: number): buildConnector.connector {
  const open = buildConnector({ timeout: timeoutMs });
  const guarded = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(policy) });
  const trusted = policy.trustedOrigin?.toLowerCase() ?? null;
  return (options, callback) => {
    if (trusted !== null && originOf(options) === trusted) return open(options, callback);
    if (isIP(options.hostname) !== 0 && !addressAllowed(options.hostname, policy)) {
      callback(new BlockedAddressError(options.hostname, options.hostname), null);
      return;
    }
    guarded(options, callback);
  };
}

/** An agent for result downloads under `policy`: keep-alive, connections checked, no redirects of its own. */
export function createDownloadAgent(policy: DownloadAddressPolicy, connectTimeoutMs = 15_000): Agent {
  return new Agent({ connections: 8, connect: guardedConnector(policy, connectTimeoutMs) });
}
