/**
 * Limits the app and the sandbox enforce before anything is sent, and the URL rules of media
 * inputs. Where the spec says "not shown" the choice is documented in README.md ("Decisions on
 * the spec's gaps").
 */

/** Duration bounds are not published; third parties cap at 240 s. */
export const LIMITS = {
  audioMinSeconds: 1,
  audioMaxSeconds: 240,
  lyricsMaxChars: 5000,
  promptMaxChars: 2000,
  /** Face swap: each side must be under this many pixels (spec 8). Applied to every image input. */
  imageMaxSideExclusive: 2048,
  faceSwapUrlExtensions: ['.jpg', '.jpeg', '.png', '.webp'] as readonly string[],
  /** Largest local file accepted as an image input, in bytes. */
  imageMaxBytes: 20 * 1024 * 1024,
  /** Largest local file accepted as a reference audio input, in bytes. */
  audioMaxBytes: 200 * 1024 * 1024,
} as const;

/** True when a face-swap URL ends in an allowed extension (query and fragment ignored). */
export function hasAllowedImageUrlExtension(value: string): boolean {
  let path = value;
  try {
    path = new URL(value).pathname;
  } catch {
    // not an absolute URL: check the text itself
  }
  const lower = path.toLowerCase();
  return LIMITS.faceSwapUrlExtensions.some((ext) => lower.endsWith(ext));
}

/**
 * A host name on this computer only: `localhost`, 127.0.0.0/8 or `[::1]`. Names under
 * `.localhost` are not: the system's resolver hands them to DNS here, and a DNS server may
 * answer with another computer's address (security review, issue 17, item 6).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Why a service address (base URL, upload endpoint) may not carry the API key, or null: it must
 * be https, except on this computer (a local sandbox or proxy), so the key never crosses a
 * network in clear text.
 */
export function keyTransportProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url.slice(0, 80)}" is not a web address`;
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  if (parsed.protocol === 'http:' && parsed.hostname.toLowerCase().endsWith('.localhost')) {
    return `"${parsed.hostname.slice(0, 80)}" may be another computer: http:// is allowed only for localhost, 127.0.0.1 or [::1] (a name under .localhost is looked up like any other name); use one of those or https://`;
  }
  if (parsed.protocol === 'http:') {
    return `the address must start with https:// (http:// is allowed only for this computer: localhost or 127.0.0.1), got "${url.slice(0, 80)}"`;
  }
  return `the address must start with https://, got "${url.slice(0, 80)}"`;
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The real service's file upload endpoint (field notes): what it takes, and how long it keeps it. */
export const UPLOAD_LIMITS = {
  /** File name extensions taken. */
  extensions: ['jpg', 'jpeg', 'png', 'webp', 'mp4', 'wav', 'mp3'] as readonly string[],
  /** Longest file name taken, in characters. */
  nameMaxChars: 128,
  /** Largest file taken, in decoded bytes ("at most 10 MB", read as 10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** How long the service keeps an uploaded file. */
  keptMs: 24 * 60 * 60 * 1000,
} as const;

/** What an API key may be: 8 to 500 visible ASCII characters (it travels in an HTTP header). */
export const API_KEY_PATTERN = /^[\x21-\x7e]{8,500}$/;

/** Why a key cannot be used, in words, or null when it can. Never quotes the key. */
export function apiKeyProblem(key: string): string | null {
  if (key.length === 0) return 'the API key is empty';
  if (key.length < 8) return 'the API key is too short (at least 8 characters)';
  if (key.length > 500) return 'the API key is too long (at most 500 characters)';
  if (/\s/.test(key))
    return 'the API key contains a space or a line break (check for one pasted at the ends or inside)';
  if (!API_KEY_PATTERN.test(key)) {
    return 'the API key contains a character a key cannot have (only letters, digits and visible ASCII signs)';
  }
  return null;
}
