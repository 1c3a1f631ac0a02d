/**
 * Links the app may open in the user's browser: only https links the app itself shows, listed
 * here (an exact URL, or a prefix ending in `/`). Anything else a page asks to open is refused.
 */

/** The https links the app's own pages show. Add an entry when the UI gains a link. */
export const APP_EXTERNAL_LINKS: readonly string[] = Object.freeze([
  'https://www.electronjs.org/docs/latest/api/safe-storage',
]);

export function isAllowedExternalUrl(
  url: string,
  allowList: readonly string[] = APP_EXTERNAL_LINKS,
): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  const href = u.href;
  return allowList.some((entry) => (entry.endsWith('/') ? href.startsWith(entry) : href === entry));
}
