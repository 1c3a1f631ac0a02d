/**
 * The Content-Security-Policy of the app's pages, sent as a response header for app pages (the
 * renderer's index.html carries the same policy in a meta tag). Development adds what the Vite
 * dev server needs (its React refresh preamble and its HMR websocket) and nothing else.
 * `connect-src blob:`: the 3D viewer's GLTFLoader reads a texture embedded in a GLB from a blob:
 * URL it made itself (fetch); no other origin is added.
 */

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' studio-media: blob: data:; media-src 'self' studio-media: blob:; " +
  "connect-src 'self' studio-media: blob:; object-src 'none'; base-uri 'none'; " +
  "frame-ancestors 'none'; form-action 'none'";

/** The policy for the dev server's pages: inline module preamble and the HMR websocket allowed. */
export function developmentPolicy(devOrigin: string): string {
  const ws = devOrigin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "connect-src 'self' studio-media:",
    `connect-src 'self' studio-media: ${ws}`,
  );
}

/** Response headers with the policy set (any policy the server sent is replaced). */
export function withPolicy(
  headers: Record<string, string[] | string> | undefined,
  policy: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}
