/**
 * The app's privileged schemes: `studio-app:` for its own page (see app-protocol-files.ts) and
 * `studio-media:` for library files (see media-protocol.ts). Electron takes the list of
 * privileged schemes once, before the app is ready.
 */
import { protocol, type Session } from 'electron';
import { APP_SCHEME, answerAppRequest } from './app-protocol-files.ts';
import { MEDIA_SCHEME } from './media-scheme.ts';

/** Must run before the app is ready. */
export function registerPrivilegedSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    // the app page: a standard, secure origin of its own (localStorage, fetch, module scripts)
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    {
      scheme: MEDIA_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: true },
    },
  ]);
}

export function handleAppProtocol(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, (request) => answerAppRequest(rendererDir, request));
}
