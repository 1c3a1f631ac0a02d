/**
 * What kind of network an IP address belongs to, so downloads can refuse addresses inside the
 * user's own network: loopback, private, link-local, carrier-grade NAT, unspecified, multicast
 * and reserved ranges, in IPv4 and IPv6, including IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).
 * Pure: no DNS, no sockets.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/** IPv4 ranges that are not the public internet, as [network address, prefix length, kind]. */
const IPV4_RANGES: readonly [string, number, AddressKind][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** The 32-bit value of a dotted IPv4 address (already checked by isIPv4). */
function ipv4Value(ip: string): number {
  return ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function inIpv4Range(value: number, base: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(ipv4Value(base) / size);
}

/** The kind of an IPv4 address given as its 32-bit value. */
function ipv4KindOf(value: number): AddressKind {
  for (const [base, prefix, kind] of IPV4_RANGES) if (inIpv4Range(value, base, prefix)) return kind;
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (already checked by isIPv6), zone id removed. */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0] ?? '';
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // a dotted IPv4 address in the last 32 bits: rewritten as two hexadecimal groups
    const v4 = ipv4Value(last);
    text = `${text.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const before = part(head);
  const after = rest === undefined ? [] : part(rest);
  const missing = 8 - before.length - after.length;
  return [...before, ...new Array<number>(Math.max(0, missing)).fill(0), ...after];
}

/** The IPv4 address an IPv6 address carries in groups 6 and 7. */
function embeddedIpv4(groups: number[]): number {
  return (groups[6] ?? 0) * 65536 + (groups[7] ?? 0);
}

function ipv6KindOf(groups: number[]): AddressKind {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judged as the IPv4 address
  if (firstFiveZero && (g5 === 0xffff || g5 === 0)) return ipv4KindOf(embeddedIpv4(groups));
  // IPv4-translated ::ffff:0:a.b.c.d
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0)
    return ipv4KindOf(embeddedIpv4(groups));
  // NAT64 64:ff9b::/96 carries an IPv4 address; 64:ff9b:1::/48 is for local use
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4KindOf(embeddedIpv4(groups));
    if (g2 === 1) return 'private';
  }
  // 6to4 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD
  if (g0 === 0x2002) return ipv4KindOf(g1 * 65536 + g2);
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved'; // documentation
  if (g0 === 0x2001 && g1 === 0) return 'reserved'; // Teredo tunnels carry hidden IPv4 addresses
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard prefix
  return 'public';
}

/** The kind of network an IP address (v4 or v6, brackets allowed) belongs to. */
export function addressKindOf(address: string): AddressKind {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(ip)) return ipv4KindOf(ipv4Value(ip));
  if (isIPv6(ip)) return ipv6KindOf(ipv6Groups(ip));
  return 'invalid';
}

/** Which addresses a download may connect to. */
export interface AddressPolicy {
  /** Loopback addresses are allowed too (the built-in sandbox runs on 127.0.0.1). */
  allowLoopback: boolean;
}

/** True when a connection to `address` is allowed under the policy. */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  const kind = addressKindOf(address);
  return kind === 'public' || (kind === 'loopback' && policy.allowLoopback);
}
