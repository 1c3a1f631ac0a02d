/**
 * Which pages are the app's own, and which IPC senders to trust: the main window's top frame
 * showing the app's page (the electron-vite dev server on a loopback address in development,
 * `studio-app://app/index.html`, served from out/renderer, in production). Pure (no electron
 * import), unit-tested.
 */
import { dirname } from 'node:path';
import { APP_HOST, APP_PAGE_URL, APP_SCHEME, isAppOriginUrl } from './app-protocol-files.ts';

export type AppPage =
  | { kind: 'dev-server'; origin: string }
  /** The built renderer, served by the `studio-app:` protocol from `dir`. */
  | { kind: 'app'; url: string; dir: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The app page: the dev server when one is given and the app is not packaged (only an http
 * server on a loopback address), else the built renderer file.
 */
export function appPageOf(
  devServerUrl: string | undefined,
  isPackaged: boolean,
  rendererIndexFile: string,
): AppPage {
  if (devServerUrl && !isPackaged) {
    try {
      const u = new URL(devServerUrl);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK_HOSTS.has(u.hostname)) {
        return { kind: 'dev-server', origin: u.origin };
      }
    } catch {
      // not a URL: fall back to the built page
    }
  }
  return { kind: 'app', url: APP_PAGE_URL, dir: dirname(rendererIndexFile) };
}

/** The origin of the app page: `studio-app://app`, or the dev server's. */
export function appPageOrigin(page: AppPage): string {
  return page.kind === 'dev-server' ? page.origin : `${APP_SCHEME}://${APP_HOST}`;
}

/** True when `url` shows the app page (query and fragment aside). */
export function isAppPageUrl(url: string, page: AppPage): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (page.kind === 'dev-server') return u.origin === page.origin;
  // the page itself (any query or fragment: the app routes in the fragment), on our origin only
  return isAppOriginUrl(url) && (u.pathname === '/index.html' || u.pathname === '/');
}

export interface SenderFacts {
  /** The URL of the frame that sent the message ('' when it is gone). */
  url: string;
  /** The frame is the top frame of its page (not an iframe). */
  isTopFrame: boolean;
  /** The frame belongs to the app's main window. */
  isMainWindow: boolean;
}

/** Whether an IPC message comes from the app's own page in the main window's top frame. */
export function isAllowedSender(sender: SenderFacts | null, page: AppPage): boolean {
  if (!sender?.isTopFrame || !sender.isMainWindow) return false;
  return isAppPageUrl(sender.url, page);
}
