/**
 * The main window and the rules every web contents lives by: context isolation, the renderer
 * sandbox, no Node integration, web security on, no insecure content, no webviews, no
 * navigation away from the app page, no new windows (an allowed https link opens in the
 * browser instead), permissions denied but for the app page's clipboard writes and fullscreen,
 * and the Content-Security-Policy header on app pages.
 */
import { app, BrowserWindow, type Session, shell, type WebContents } from 'electron';
import { type AppPage, isAppPageUrl } from './app-page-origin.ts';
import { CONTENT_SECURITY_POLICY, developmentPolicy, withPolicy } from './content-security-policy.ts';
import { isAllowedExternalUrl } from './external-links.ts';
import { isPermissionAllowed } from './permission-policy.ts';

export interface WindowFiles {
  preload: string;
  icon: string;
}

function openIfAllowed(url: string): void {
  if (isAllowedExternalUrl(url)) void shell.openExternal(url);
}

/** Navigation, new windows and webviews for one web contents. */
export function hardenWebContents(contents: WebContents, page: AppPage): void {
  const refuseNavigation = (event: { preventDefault(): void }, url: string) => {
    if (isAppPageUrl(url, page)) return;
    event.preventDefault();
    openIfAllowed(url);
  };
  contents.on('will-navigate', (event) => refuseNavigation(event, event.url));
  contents.on('will-redirect', (event) => refuseNavigation(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openIfAllowed(url);
    return { action: 'deny' };
  });
}

/** Permissions and the CSP header for a session. */
export function hardenSession(session: Session, page: AppPage): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl || contents?.getURL() || '', page));
  });
  session.setPermissionCheckHandler((contents, permission, requestingOrigin, details) =>
    isPermissionAllowed(permission, details.requestingUrl || contents?.getURL() || requestingOrigin, page),
  );
  session.setDevicePermissionHandler(() => false);
  const policy = page.kind === 'dev-server' ? developmentPolicy(page.origin) : CONTENT_SECURITY_POLICY;
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType === 'mainFrame' && isAppPageUrl(details.url, page)) {
      callback({ responseHeaders: withPolicy(details.responseHeaders, policy) });
      return;
    }
    callback({});
  });
}

export function createMainWindow(page: AppPage, files: WindowFiles): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Media Task Studio',
    icon: files.icon,
    backgroundColor: '#16171d',
    webPreferences: {
      preload: files.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      devTools: !app.isPackaged,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  if (page.kind === 'dev-server') void window.loadURL(`${page.origin}/`);
  else void window.loadURL(page.url);
  return window;
}
