/**
 * `studio-media://library/<path>`: library files for the renderer, served only when the backend
 * resolves the path to a media file under the library folder (symlinks resolved, traversal
 * refused). Registered as privileged (standard, secure, fetch, stream, CORS: app-protocol.ts)
 * so audio and video can seek with Range requests and wavesurfer can fetch a file; only the app
 * page's origin may read an answer (media-response.ts).
 */
import type { Session } from 'electron';
import type { StudioBackend } from '../backend/index.ts';
import { type AppPage, appPageOrigin } from './app-page-origin.ts';
import { answerMediaRequest } from './media-response.ts';
import { MEDIA_SCHEME } from './media-scheme.ts';

export function handleMediaProtocol(session: Session, backend: StudioBackend, page: AppPage): void {
  const origin = appPageOrigin(page);
  session.protocol.handle(MEDIA_SCHEME, (request) => answerMediaRequest(backend, request, origin));
}
