/**
 * Which web permissions a page gets: none, except copying to the clipboard (the copy buttons)
 * and fullscreen (the video player), and only for the app's own page. Pure.
 */
import { type AppPage, isAppPageUrl } from './app-page-origin.ts';

const ALLOWED_FOR_APP_PAGE = new Set(['clipboard-sanitized-write', 'fullscreen']);

export function isPermissionAllowed(permission: string, requestingUrl: string, page: AppPage): boolean {
  return ALLOWED_FOR_APP_PAGE.has(permission) && isAppPageUrl(requestingUrl, page);
}
