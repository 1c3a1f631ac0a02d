/**
 * The `studio-media:` scheme: library files reach the renderer as
 * `studio-media://library/<library-relative path>`, never as `file://`. Pure.
 */

export const MEDIA_SCHEME = 'studio-media';
export const MEDIA_HOST = 'library';
export const MEDIA_BASE_URL = `${MEDIA_SCHEME}://${MEDIA_HOST}/`;

/** The path part of a media URL (still percent-encoded), or null when it is not one of ours. */
export function mediaRequestPath(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${MEDIA_SCHEME}:` || u.hostname !== MEDIA_HOST || u.username || u.password || u.port) {
    return null;
  }
  return u.pathname;
}
