/**
 * A stored API key is tied to the origin it was stored for (the service it was meant for), so a
 * change of address, by the page or by a settings file edited elsewhere, never sends the key to
 * another server without the user's word in a dialog main owns. The key vault keeps an
 * opaque string; this is its format: `{"v":1,"key":…,"origin":…}`. A key stored by an earlier
 * version (the bare key) has no origin yet: it is tied to the first address it is used with.
 */

export interface BoundKey {
  key: string;
  /** `https://api.piapi.ai`; null for a key stored before keys were tied to an origin. */
  origin: string | null;
}

export function encodeBoundKey(bound: BoundKey): string {
  return JSON.stringify({ v: 1, key: bound.key, origin: bound.origin });
}

export function decodeBoundKey(stored: string): BoundKey {
  if (stored.startsWith('{')) {
    try {
      const value = JSON.parse(stored) as { v?: unknown; key?: unknown; origin?: unknown };
      if (value.v === 1 && typeof value.key === 'string') {
        return { key: value.key, origin: typeof value.origin === 'string' ? value.origin : null };
      }
    } catch {
      // not our format: a bare key that happens to start with a brace
    }
  }
  return { key: stored, origin: null };
}

/** `scheme://host:port` of an address, or null when it is not one. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
